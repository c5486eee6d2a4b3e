"""What the user-role records of a Claude Code agent mean, and the harness's text
(``claude_records.Reader`` reads with it; what the assistant said is read there):

- A ``tool_result`` is paired with its call by ``tool_use_id``, never by position;
  ``is_error`` true gives status ``error``, and so does content wrapped in
  ``<tool_use_error>`` with no flag (absent or false otherwise: success; a flag of
  another kind, or false on wrapped content: unknown); a call with no result has
  status ``no_result``. Result content may be a
  string, a list of parts or empty (then the structured ``toolUseResult`` stands
  in); a part that holds text in a shape not read leaves the call's return unknown. Text
  inside a result stays in it, ``<system-reminder>`` tags too: the tool
  (so the agent) controls it; the line-number prefixes of ``Read`` results are removed.
  A result that holds a preview only (``<persisted-output>``: the output was kept in a
  file beside the session), or the head of an output Claude Code cut (``... [N lines
  truncated] ...``), leaves its call's return unknown (``claude_results``), and one that
  only says the call runs on in the background leaves its return and status unknown.
- A user-role message the system wrote (a compaction summary, which a stream marks only
  ``isSynthetic``, meta text, the record of a slash command and of what it printed, the
  notice that a background task ended) is harness text; the first real user turn is the eval prompt. A compaction met before
  any work of the agent opens a continuation of work held elsewhere: the run's calls
  are incomplete. What asks the agent for an answer is ``claude_requests``'s.
- A part of a record not read that holds what reads as a call makes the run's calls
  incomplete (``unread``), and one that holds words of the user or the harness leaves
  the harness text unknown (``harness_unread``): the assistant's records are read so too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers import record as R
from referee.engine.run.importers import claude_attachments, claude_requests, claude_results
from referee.engine.run.importers.claude_hooks import HookEffects
from referee.engine.run.importers.record import Call, Origin, Text
from referee.engine.run.importers.source import CALL_WORDS, holds_call, may_hold, may_say
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem


# How the summary Claude Code writes in the user's place after a compaction opens. A
# session marks that record ``isCompactSummary``; stream-json (2.1.x) marks it only
# ``isSynthetic`` (the harness wrote it), and its words tell it from other such text.
_SUMMARY_OPENS = "This session is being continued from a previous conversation"


def _stream_summary(rec: dict, text: str) -> bool:
    """Whether a user record is a compaction's summary as stream-json prints it: never
    the eval prompt nor a request of the user, though nothing but its words says so."""
    return rec.get("isSynthetic") is True and text.lstrip().startswith(_SUMMARY_OPENS)


class UserRecords(HookEffects):
    """The user's side of an agent's ``Reader``: it shares the reader's entries, calls,
    problems, the answers it read and where the agent last spoke and was asked."""

    results: dict[int, dict]
    last_text: list[Text]
    last_message: dict
    called_since: bool
    prompted: bool
    asked: tuple[int, bool] | None
    requested: int
    interrupted_at: int | None
    continued: bool
    unread_lines: list[tuple[Origin, str, list[int]]]  # lines not read while calls were open (``may_answer``)

    def user(self, origin: Origin, rec: dict, message: dict) -> None:
        content = message.get("content")
        if isinstance(content, str):
            self.user_text(origin, rec, content)
            return
        if not isinstance(content, list):
            self.unread(origin, "this message's content, which is no list", content)
            self.turn_unread(origin, rec, "this user message's content, which is no list", content)
            self.answers_unknown(origin, "this user message's content, which is no list")
            return
        shapeless = False  # a part not read that may be an answer of a shape not known
        for part in content:
            if isinstance(part, dict) and part.get("type") == "tool_result":
                self.tool_result(origin, rec, part)
            elif isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                self.user_text(origin, rec, part["text"])
                self.unread(origin, "a text part of this user message, beside its text",
                            {k: v for k, v in part.items() if k not in ("type", "text")})
            else:
                self.unread(origin, "a part of this user message", part)
                self.turn_unread(origin, rec, "a part of this user message", part,
                                 surely=isinstance(part, dict) and part.get("type") == "text")
                if isinstance(part, dict) and part.get("type") in claude_requests.ASKED_PARTS and not rec.get("isMeta"):
                    self.ask(origin.line)  # a request with no words: a screenshot pasted
                shapeless = shapeless or _may_answer(part)
        if shapeless:  # after the answers read: only the calls none of them answered
            self.answers_unknown(origin, "a part of this user message")

    def turn_unread(self, origin: Origin, rec: dict, what: str, value: Any, surely: bool = False) -> None:
        """A part of a user's record not read that holds text (``may_say``, or
        ``surely``): what the user (or the harness) said there is unknown, so no check
        over the harness text can be decided. A user's turn so lost is the eval prompt
        all the same (no later turn takes its place), and a request the agent owes an
        answer to, until it takes its turn."""
        said = self.harness_unread(origin, what, value, surely)
        if said and not rec.get("isMeta") and not rec.get("isCompactSummary"):
            self.prompted = True
            self.ask(origin.line)

    def given(self, origin: Origin, rec: dict, given: claude_attachments.Given) -> None:
        """Text an attachment gave the agent (a hook's context or output): harness text at
        its line; in a shape not read, it leaves the harness text unknown."""
        if given.text is not None and not (given.refused and self.told(given.text)):
            entry = Text(given.kind, "", given.text, origin)
            self.entries.append(entry)
            if given.refused:
                self.refusals.append((self.last_said, entry))
        elif given.text is None:
            self.harness_unread(origin, given.what, given.value, surely=given.surely)
        self.unread(origin, "this attachment record", rec)

    def harness_unread(self, origin: Origin, what: str, value: Any, surely: bool = False) -> bool:
        """Whether a part of a record of the user or the harness that is not read holds
        text (``may_say``, or ``surely``): then no check over the harness text can be
        decided (``harness-may-be-missing``)."""
        if not (surely or may_say(value)):
            return False
        self.problems.append(Problem(HARNESS_MAY_BE_MISSING, origin.source, f"{what}, not read, holds text of the "
                                     "user or the harness: no check over the harness text can be decided",
                                     origin.line))
        return True

    def unread(self, origin: Origin, what: str, value: Any) -> None:
        """A part of a record the reader does not take: when it holds what reads as a
        call, the call is not read, so the run's calls are incomplete; when it holds what
        names a call as its answer does (``answers_in``), that answer is not read either."""
        if holds_call(value) or (isinstance(value, str) and may_hold(value.casefold(), CALL_WORDS)):
            self.problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, f"{what}, not read, holds a tool call: "
                                         "no check over the run's calls can be decided", origin.line))
        for answer in answers_in(value):
            self.answer_not_read(origin, answer)

    def user_text(self, origin: Origin, rec: dict, text: str) -> None:
        if not text.strip():
            return
        if rec.get("isCompactSummary") or _stream_summary(rec, text):
            kind = R.COMPACTION
            self.compacted(origin)
        elif text.lstrip().startswith("<system-reminder>"):
            kind = R.SYSTEM_REMINDER
        elif rec.get("isMeta") or "-hook>" in text:
            kind = R.HOOK if "hook" in text else R.SYSTEM
            if claude_requests.stop_refused(text):  # the agent was sent back to work: it owes a reply
                self.ask(origin.line)
        elif claude_requests.command_record(text):
            kind = R.SYSTEM
            self.command(origin, text)
        elif claude_requests.task_notification(rec, text):  # the harness's notice, asking nothing
            kind = R.SYSTEM
        elif not self.prompted:
            kind, self.prompted = R.EVAL_PROMPT, True
            self.ask(origin.line)
        else:
            kind = R.USER
            if not claude_requests.interrupted(text):
                self.ask(origin.line)
            elif self.asked is not None:  # interrupted before the agent said or did anything: that turn is over
                self.interrupted_at = self.asked[0]
        entry = Text(kind, "", text, origin)
        self.entries.append(entry)
        if kind == R.HOOK and rec.get("isMeta") and claude_requests.stop_refused(text):
            self.refused(entry)

    def ask(self, line: int, command: bool = False) -> None:
        """A request at ``line`` the agent owes an answer to (a slash command's may turn
        out to be one Claude Code ran itself, when what it printed follows)."""
        self.asked, self.requested = (line, command), line

    def answers_earlier_turn(self) -> bool:
        """Whether the agent's last words came before the last request while it took
        that turn (a message of it came after the request) saying nothing and making no
        call: a message of thinking alone, or of streaming placeholders. Those words
        answer an earlier turn."""
        return (self.asked is None and self.last_said > self.requested and bool(self.last_text)
                and self.last_text[-1].origin.line < self.requested
                and not (self.called_since or self.last_message.get("called")))

    def command(self, origin: Origin, text: str) -> None:
        """A slash command's record: one that may be a prompt asks the agent, as a
        request does, until the agent answers or what the command printed shows that
        Claude Code ran it itself (``asked``)."""
        if claude_requests.command_printed(text):
            self.asked = None if self.asked is not None and self.asked[1] else self.asked
        elif claude_requests.command_may_ask(text):
            self.ask(origin.line, command=True)

    def compacted(self, origin: Origin) -> None:
        """A compaction (its boundary, or its summary): met before any work of the agent,
        it opens a continuation of work done before it, which this file does not hold
        (an earlier session file, an earlier run of the resumed session), so the calls
        of that work are unknown, and so are the turns of the user and the harness there
        (as for a session resumed from another file). After the work it summarises, it
        changes nothing."""
        worked = self.last_said or self.prompted or any(isinstance(entry, Call) for entry in self.entries)
        if not worked and not self.continued:
            self.continued = True
            self.problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, "this session opens with a "
                                         "compaction: the work before it is not in this file, so the run's calls "
                                         "are incomplete", origin.line))
            self.problems.append(Problem(HARNESS_MAY_BE_MISSING, origin.source, "the turns of the user and the "
                                         "harness of the work before this compaction are not in this file either: "
                                         "no check over the harness text can be decided", origin.line))

    def _waiting(self, call_id: Any) -> tuple[list[int], int | None]:
        """The positions of the calls of ``call_id``, and the first still unanswered."""
        known = self.calls.get(call_id, []) if isinstance(call_id, str) else []
        return known, next((i for i in known if R.call_at(self.entries, i).result_origin is None), None)

    def answers_unknown(self, origin: Origin, what: str) -> None:
        """A user record not read (``what``) while calls are open: the answers to calls
        come in user records, so theirs may be in it; their status and return are
        unknown, never none (left open, a failed call read as one never answered)."""
        for positions in self.calls.values():
            for position in positions:
                call = R.call_at(self.entries, position)
                if call.result_origin is None:  # its answer, if any, is this record's
                    self._answered_unknown(position, origin, f"{what}, not read, may hold the answer to the open "
                                           f"call at line {call.origin.line}")

    def may_answer(self, origin: Origin, what: str) -> None:
        """A line not read (``what``, at ``origin``: no JSON, or JSON that is no record)
        while calls are open: their answers come in records, so theirs may be in it
        (``lines_unread``, once every record is read)."""
        waiting = [position for positions in self.calls.values() for position in positions
                   if R.call_at(self.entries, position).result_origin is None]
        if waiting:
            self.unread_lines.append((origin, what, waiting))

    def lines_unread(self) -> None:
        """Each call open at a line not read and never answered after it has an answer
        whose status and return are unknown (``record.unanswered_after``): a line of
        stderr merged into a log while a call runs changes nothing."""
        R.unanswered_after(self.entries, self.problems, self.unread_lines)

    def answer_not_read(self, origin: Origin, part: dict) -> None:
        """What names a call as a tool_result does (``tool_use_id``) in a part or a record
        not read (a type not known): the answer to that call, in a shape not read. The
        call has an answer whose status and return are unknown, never none: left open, it
        read as a call never answered, and ``no calls with status error`` passed on a
        failed Bash call whose answer's type, or its record's, was not read. An answer no
        open call takes is a second answer, or one to a call not held."""
        call_id = part.get("tool_use_id")
        known, position = self._waiting(call_id)
        if position is None and known:
            R.answered_again(self.entries, known[-1], self.problems, origin)
        elif position is None:
            R.unplaced_answer(self.problems, origin, call_id if isinstance(call_id, str) else None)
        else:
            self._answered_unknown(position, origin, f"the answer to this call, of type {part.get('type')!r}, is "
                                   "not read")

    def _answered_unknown(self, position: int, origin: Origin, why: str) -> None:
        """The call at ``position`` answered at ``origin`` in a way not read (``why``): its
        status and return are unknown."""
        R.answered_unread(self.entries, position, self.problems, origin, why)

    def tool_result(self, origin: Origin, rec: dict, part: dict) -> None:
        call_id = part.get("tool_use_id")
        call_id = call_id if isinstance(call_id, str) else None
        known, position = self._waiting(call_id)
        if position is None:
            reason = "its call is missing" if not known else "its call already has a result"
            self.problems.append(Problem("orphan-result", origin.source,
                                         f"tool_result for {call_id!r}: {reason}; skipped", origin.line))
            if known:
                self.answered_again(known[-1], rec, part, origin)
            else:
                R.unplaced_answer(self.problems, origin, call_id)
            return
        call = R.call_at(self.entries, position)
        structured = claude_results.structured(rec)
        result = claude_results.result_value(part.get("content"), structured, call.tool)
        status, unsure = claude_results.status(part)
        unread = call.unread | self._answer_unread(origin, call, part, structured, unsure, status)
        self.entries[position] = replace(call, result=result, status=status, result_origin=origin, unread=unread)
        if isinstance(structured, dict):
            self.results[position] = structured

    def _answer_unread(self, origin: Origin, call: Call, part: dict, structured: Any, unsure: str | None,
                       status: str) -> frozenset[str]:
        """The fields of a call its answer does not give for certain, and why: a status
        flag that says neither, an output kept elsewhere or cut, parts not read, or a
        notice that the call runs on in the background (its outcome is not in it)."""
        unread: frozenset[str] = frozenset()
        if unsure:
            self.problems.append(Problem("status-unknown", origin.source, f"{unsure}: its call's status is unknown",
                                         origin.line))
            unread |= {"status"}
        if claude_results.persisted(part.get("content")):  # the tool's output is in a file beside the session, not here
            self.problems.append(Problem("value-cut", origin.source, "the tool's output was too large for the "
                                         "session: Claude Code kept it in a file beside it (tool-results/), and "
                                         "this answer holds a preview only, so its call's return is unknown",
                                         origin.line))
            unread |= {"return"}
        if claude_results.cut(part.get("content")):  # the output's head alone: the rest is kept nowhere
            self.problems.append(Problem("value-cut", origin.source, "Claude Code cut the tool's output before it "
                                         "gave it to the agent ([N lines truncated]), and the lines it cut are kept "
                                         "nowhere, so its call's return is unknown", origin.line))
            unread |= {"return"}
        if claude_results.parts_unread(part.get("content")):  # words kept as "[its type]", or dropped
            self.problems.append(Problem("unread-text", origin.source, "a part of this answer holds text in a shape "
                                         "not read: its call's return is unknown", origin.line))
            unread |= {"return"}
        if status == "success" and claude_results.backgrounded(call.args, part.get("content"), structured):
            self.problems.append(Problem("backgrounded", origin.source, "this answer only says the call runs on in "
                                         "the background (its output comes later, to other calls such as "
                                         "BashOutput or TaskOutput, or in the harness's notices, if at all): its "
                                         "call's return and status are unknown",
                                         origin.line))
            unread |= {"return", "status"}
        return unread

    def answered_again(self, position: int, rec: dict, part: dict, origin: Origin) -> None:
        """A second, different answer to a call: which one counts is not said, so the
        call's status and return are unknown (the same answer repeated changes nothing)."""
        call = R.call_at(self.entries, position)
        status, _ = claude_results.status(part)
        value = claude_results.result_value(part.get("content"), claude_results.structured(rec), call.tool)
        if (status, value) != (call.status, call.result):
            R.answered_again(self.entries, position, self.problems, origin)


def _may_answer(part: Any) -> bool:
    """Whether a part of a user message, not read, may be a call's answer in a shape not
    known (an answer renamed in another version, its id under another name): neither a
    part a request holds (text, an image, a document) nor an answer named as one
    (``answers_in``: read as the answer to the call it names)."""
    kind = part.get("type") if isinstance(part, dict) else None
    return kind != "text" and kind not in claude_requests.ASKED_PARTS and not answers_in(part)


def answers_in(value: Any) -> list[dict]:
    """The objects inside ``value`` shaped as a call's answer (a ``tool_use_id``, with
    the ``content`` or ``is_error`` a tool_result gives), outermost first: in a part or
    a record not read, each is an answer not read. A stream's record of a background
    task names the call it runs under by ``tool_use_id`` too, with neither: no answer.
    Walked as ``source.holds_call`` walks, inline."""
    found: list[dict] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict) and "tool_use_id" in item and ("content" in item or "is_error" in item):
            found.append(item)
        elif isinstance(item, dict):
            pending.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            pending.extend(reversed(item))
    return found
