"""Where an agent of a Claude Code session was left at work: its last step a call
(answered or not), and nothing after it that ends a turn. A call's answer always goes
back to the agent that made it, so a log that ends there was cut short or the agent
was stopped, and the calls it made after the log's last line are not in it. The main
agent's log is ``claude_code``'s to judge, a subagent's ``claude_subagents``'."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.run.importers import record as R
from referee.engine.run.importers.record import Call, Origin, Text

if TYPE_CHECKING:
    from referee.engine.run.importers.claude_records import Reader

# The turns of the user that end the agent's: an interrupt ("[Request interrupted by
# user]"), or a request (one the agent has not answered is ``claude_code``'s to tell).
_TURN_ENDS = (R.USER, R.EVAL_PROMPT)


def ends_turn(entry: Call | Text, reader: Reader, narration: set[Origin]) -> bool:
    """Whether ``entry``, after a call, ends the agent's turn: the agent's words (never
    its thinking: a step towards its next words or call, nor words of a message that made
    a call, ``narration``: that call's answer goes back to the agent, even when the words
    come after the call), a turn of the user, or a message Claude Code wrote in the
    model's place (an API error, a usage limit: ``Reader.stood_in``). These alone are
    known to end it. Any other harness text leaves the agent at work, since Claude Code
    writes it while the agent works and the agent carries on after it: a hook's text, a
    reminder, a compaction (Claude Code compacts on its own mid-turn: its boundary and
    its summary), the notice that a background task ended, what a command printed; so
    does a kind of text not named here, which may come mid-turn too (the safe side: the
    calls after it are unknown, never none)."""
    if isinstance(entry, Call):
        return False
    if entry.kind == "agent":
        return entry.title != "thinking" and entry.origin not in narration
    return entry.kind in _TURN_ENDS or entry.origin in reader.stood_in


def tail(reader: Reader) -> list[Call | Text]:
    """The agent's steps after what ended its last turn (``ends_turn``), last first."""
    narration = {text.origin for state in reader.messages.values() if state.get("called") for text in state["texts"]}
    found: list[Call | Text] = []
    for entry in reversed(reader.entries):
        if ends_turn(entry, reader, narration):
            break
        found.append(entry)
    return found


def left_at_work(reader: Reader) -> Origin | None:
    """Where the log of ``reader``'s agent ends with the agent at work: the last line
    read of the steps after its last turn, when they hold a call (parallel calls may be
    answered out of order: the last line, not the last call's answer). None when it
    ended a turn, or said something after its last call in a shape not read (its words,
    unknown: ``Reader.unread_reply``)."""
    steps = tail(reader)
    if not any(isinstance(entry, Call) for entry in steps):
        return None
    last = max((entry.result_origin or entry.origin if isinstance(entry, Call) else entry.origin for entry in steps),
               key=lambda origin: origin.line)
    if reader.words_unread_at is not None and reader.words_unread_at > last.line:
        return None
    return last


def silent_turn(reader: Reader) -> Origin | None:
    """Where the log of ``reader``'s agent ends after the agent took its turn for its
    last request (a message of it came after the request; with none read, as a stream
    gives a subagent's messages without its prompt, from the log's start) without a word
    or a call yet: thinking alone, or the placeholder Claude Code writes before a
    message's content, "(no content)". Both are steps towards the agent's next words or
    call, which lie past the log's end, as after a call (``left_at_work``). The last line
    read of that turn; None when anything after the request ended the turn
    (``ends_turn``: words, a turn of the user, a message written in the model's place)
    or is a call (``left_at_work``'s), or words there were not read (they may be the reply)."""
    start = reader.requested
    if reader.asked is not None or reader.last_said <= start:
        return None
    if reader.words_unread_at is not None and reader.words_unread_at > start:
        return None
    after = [entry for entry in reader.entries if entry.origin.line > start]
    # no narration to set apart: a message that made a call gave a Call here, and that ends it
    if any(isinstance(entry, Call) or ends_turn(entry, reader, set()) for entry in after):
        return None
    if not reader.entries:
        return None
    return Origin(reader.entries[-1].origin.source, max([reader.last_said] + [entry.origin.line for entry in after]))


def at_work(reader: Reader) -> tuple[Origin, bool] | None:
    """Where ``reader``'s agent was left at work, and whether at a call
    (``left_at_work``) rather than on a turn it took with thinking alone
    (``silent_turn``); None when neither."""
    found = left_at_work(reader)
    if found is not None:
        return found, True
    silent = silent_turn(reader)
    return None if silent is None else (silent, False)


def went_on_after(reader: Reader) -> list[int]:
    """The positions of the calls of ``reader``'s agent that no record answers while
    the agent went on after them (a later call answered, or its words, its thinking
    too). Claude Code gives every call its answer before the agent's next step (a
    refusal, an interrupt: an error), so the answer of such a call was in a line this
    file lost, and it may say the call failed. A call with nothing of the agent after
    it is ``left_at_work``'s (or one a run stopped by its turn limit never ran)."""
    found: list[int] = []
    open_calls: list[int] = []
    for position, entry in enumerate(reader.entries):
        if isinstance(entry, Call) and entry.result_origin is None:
            open_calls.append(position)
        elif _a_step(entry):
            found += open_calls
            open_calls = []
    return found


def _a_step(entry: Call | Text) -> bool:
    """Whether ``entry`` shows the agent took a step: a call with its answer, or its own text."""
    return entry.result_origin is not None if isinstance(entry, Call) else entry.kind == "agent"
