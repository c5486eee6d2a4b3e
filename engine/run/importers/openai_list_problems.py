"""What an OpenAI-format conversation's message list leaves unread around it.

A conversation's object may give its message list twice, or hold beside it what
this importer does not read: a logged response's ``choices`` or a Responses API
``output`` (a reply, a call), or, in a SWE-agent trajectory read as its history, a
``trajectory`` whose steps ran commands the history does not show; its list may be
empty (a task whose run crashed); and tau2-bench may have stopped the simulation before
the agent finished (its ``termination_reason``). Each is said here as the problems of that
conversation, and where a reply lies that is not read (the response is then
unknown). A logged request with no completion beside it is told too: the model's next
step is not in the record. Where the list lies is ``jsondoc``'s; reading it is ``openai``'s.
"""

from __future__ import annotations

import re
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING, SECOND_LIST
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.jsondoc import HISTORY, MESSAGE_KEYS, TRAJECTORY, Document
from referee.engine.run.importers.openai_content import holds_reply
from referee.engine.run.importers.record import Origin
from referee.engine.run.importers.source import holds_call, holds_call_as_text
from referee.engine.run.model import Problem


def unread_lists(name: str, document: Document | None, line: int,
                 data: bytes | str) -> tuple[list[Problem], Origin | None, bool]:
    """The problems of a conversation (``data``, starting on ``line``) that gives its
    message list twice (``messages`` and ``traj``, or one key twice: only the first is
    read, and JSON readers differ on which counts), or that holds a call beside the
    list (a logged response's ``choices``, a Responses API ``output``): the run's calls
    may be missing. And where a reply lies beside the list (a logged request's
    response, or the second list: the agent's last words may be there), which leaves
    the response unknown; and whether the conversation is a logged request with no
    completion beside it (``logged_request``)."""
    found: list[Problem] = []
    reply: Origin | None = None
    holder = _holder(data, document) if document is not None and document.base else None  # read once, for both
    beside = _beside(holder, document) if holder is not None and document is not None else None
    if beside is not None and holds_reply(beside):
        reply = Origin(name, line)
        found.append(Problem("unread-text", name, "a reply is held beside the message list (a response's choices, "
                             "an output list?), where this importer reads none: the response is unknown", line))
    if document is not None and document.another is not None:
        message = (f"{SECOND_LIST} (a key given twice, or two of \"messages\", \"traj\" and \"history\") is "
                   "not read and may hold a tool call: no check over the run's calls can be decided")
        found.append(Problem(CALLS_MAY_BE_MISSING, name, message, line + document.another - 1))
        # the list not read may hold the reply (Python's reader would take it): unknown
        reply = reply or Origin(name, line + document.another - 1)
        found.append(Problem("unread-text", name, "the second message list is not read and may hold the reply: "
                             "the response is unknown", line + document.another - 1))
    elif beside is not None and (holds_call(beside) or holds_call_as_text(beside)):
        message = ("a tool call is held beside the message list (a response's choices, an output list?), where "
                   "this importer reads none: no check over the run's calls can be decided")
        found.append(Problem(CALLS_MAY_BE_MISSING, name, message, line))
    stopped = _tau2_stopped(name, holder, document, line, data) if holder is not None and document is not None else None
    if stopped is not None:
        found.append(stopped)
        reply = reply or Origin(name, stopped.line or line)
    beyond = _steps_beyond(holder, data, document) if holder is not None and document is not None else None
    if beyond is not None:
        message = (f"the trajectory holds {beyond[0]} steps that ran a command, the history {beyond[1]} messages "
                   "that made one: a step the history does not show (its last submit?) is not read, so no check "
                   "over the run's calls can be decided")
        found.append(Problem(CALLS_MAY_BE_MISSING, name, message, line))
    return found, reply, holder is not None and logged_request(holder)


def logged_request(holder: dict) -> bool:
    """Whether the object holding the message list is a chat-completions request as it
    was sent (its ``model`` named, and a member only a request has: the ``tools``
    offered, a sampling parameter) with no response logged beside it (``choices``, an
    ``output`` list): the completion it asked for is not in the record, so a
    conversation that ends where the model speaks next (on a user's turn, or with the
    agent at work) ends before the calls that completion may make."""
    return (isinstance(holder.get("model"), str) and any(key in holder for key in _REQUEST_MEMBERS)
            and not any(key in holder for key in _RESPONSE_MEMBERS))


# Members of a chat-completions request that a conversation saved as a log has no use for
_REQUEST_MEMBERS = ("tools", "tool_choice", "parallel_tool_calls", "temperature", "top_p", "max_tokens",
                    "max_completion_tokens", "stream", "stream_options", "seed", "stop", "response_format",
                    "frequency_penalty", "presence_penalty", "reasoning_effort", "logprobs")
# Where a response is logged beside its request (Chat Completions' choices, the Responses API's output)
_RESPONSE_MEMBERS = ("choices", "output", "response", "completion")


def no_message(name: str, messages: list, line: int) -> list[Problem]:
    """Why a conversation whose message list is empty gives no run: said where it
    starts (tau-bench keeps a task whose run crashed with an empty ``traj``, whatever
    the agent did before, so that task's record is lost, not a run that did nothing)."""
    if messages:
        return []
    return [Problem("unknown-record", name, "its message list is empty: no record of the conversation", line)]


def _beside(holder: dict, document: Document) -> dict:
    """What the object holding the message list holds beside it: the object read with
    the list left out (small, whatever the list's size). A document cut short inside
    the list has no beside to read (its end says so already). Beside a SWE-agent
    trajectory's history, its ``trajectory`` is the same steps as the agent saw them
    (each step's ``query`` the messages sent to the model, calls among them), not a
    response logged beside the list (``_steps_beyond``). ``holder``: the object
    holding the list, read with the list left out (``_holder``)."""
    same: tuple[str, ...] = (TRAJECTORY,) if document.base == "/" + HISTORY else ()
    if document.base == "/messages" and isinstance(holder.get("task_id"), str):
        same += (_TAU2_REWARD,)
    return {k: v for k, v in holder.items() if k not in MESSAGE_KEYS + (HISTORY,) + same}


# Beside a tau2-bench simulation's messages (its task_id beside them), how tau2 graded the
# run: the task's expected actions (a name and arguments each), compared with the calls the
# messages hold; no call of the run and no reply
_TAU2_REWARD = "reward_info"


# How a tau2-bench simulation ends as it was meant to: the user simulator's or the agent's
# stop token. Any other termination_reason (max_steps, too_many_errors, agent_error,
# user_error, a timeout) is tau2 stopping the conversation before the agent finished
_TAU2_ENDS = frozenset({"user_stop", "agent_stop"})


def _tau2_stopped(name: str, holder: dict, document: Document, line: int, data: bytes | str) -> Problem | None:
    """The problem of a tau2-bench simulation (its ``task_id`` beside its ``messages``)
    that tau2 stopped (``_TAU2_ENDS``): its last words are no final reply, so the response
    is unknown (``run-error``, as for a Claude Code run whose result names an error),
    cited at the reason's line. Its calls are all it made: tau2 stops between steps."""
    reason = holder.get("termination_reason")
    if document.base != "/messages" or not isinstance(holder.get("task_id"), str):
        return None
    if not isinstance(reason, str) or reason in _TAU2_ENDS:
        return None
    return Problem("run-error", name, f"tau2 ended the simulation with termination_reason {reason!r}, before the "
                   "agent finished: its last words are no final reply, so the response is unknown",
                   line + _lines_before(data, document))


def _lines_before(data: bytes | str, document: Document) -> int:
    """How many lines of ``data`` come before the ``termination_reason`` member of the
    object holding the message list (looked for outside the list; 0 when not found)."""
    start, end = document.span if document.span is not None else (0, 0)
    for low, high in ((0, start), (end, len(data))):
        piece = data[low:high]
        text = piece.decode("utf-8", "replace") if isinstance(piece, bytes) else piece
        match = _REASON_KEY.search(text)
        if match is not None:
            before = data.count(b"\n", 0, low) if isinstance(data, bytes) else data.count("\n", 0, low)
            return before + text.count("\n", 0, match.start())
    return 0


_REASON_KEY = re.compile(r'(?<!\\)"termination_reason"\s*:')  # the member's key, not the words in a text


def _holder(data: bytes | str, document: Document) -> dict | None:
    """The object holding the message list, read with the list left out."""
    if document.span is None:
        return None
    start, end = document.span
    rest = data[:start] + b"[]" + data[end:] if isinstance(data, bytes) else data[:start] + "[]" + data[end:]
    found = loads(rest.decode("utf-8", "replace") if isinstance(rest, bytes) else rest)
    return found[0] if found is not None and isinstance(found[0], dict) else None


def _steps_beyond(holder: dict, data: bytes | str, document: Document) -> tuple[int, int] | None:
    """In a SWE-agent trajectory read as its history: ``(steps, commands)`` when its
    ``trajectory`` holds more steps that ran a command (an ``action``) than the history
    holds assistant messages that made one (an ``action`` or ``tool_calls``), else None.
    A run's last step (its ``submit``) may be in the trajectory alone: a command the
    history does not show, so the run's calls may be missing from what is read. A
    demonstration SWE-agent put in the history (``is_demo``) is no step of the run,
    which the trajectory holds alone: its commands are not counted."""
    steps = holder.get(TRAJECTORY) if document.base == "/" + HISTORY and document.trajectory else None
    if not isinstance(steps, list):
        return None
    ran = sum(isinstance(step, dict) and isinstance(step.get("action"), str) and bool(step["action"].strip())
              for step in steps)
    made = 0
    for index, element in enumerate(document.elements):
        text = data[element.start:element.end] if element.end is not None else None
        if text is None or not element.is_object:
            continue
        value = document.value(index, text.decode("utf-8", "replace") if isinstance(text, bytes) else text)
        message = value[0] if value is not None else None
        made += _made_a_command(message)
    return (ran, made) if ran > made else None


def _made_a_command(message: Any) -> bool:
    """Whether a history message is one of the run's steps that ran a command: an
    assistant message with an ``action`` or ``tool_calls``, not part of a demonstration."""
    return (isinstance(message, dict) and message.get("role") == "assistant" and message.get("is_demo") is not True
            and bool((isinstance(message.get("action"), str) and message["action"].strip())
                     or message.get("tool_calls")))
