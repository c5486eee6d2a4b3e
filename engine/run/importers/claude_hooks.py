"""What hooks did to a Claude Code agent's records, beside the text they gave it
(``claude_attachments``): a hook that changed the input of the call it ran for, or the
output it gave the agent, and a Stop hook's reason Claude Code writes twice.
``claude_records.Reader`` reads with it.

What a hook printed may hold the input a PreToolUse or PermissionRequest hook gave its
call in place of the agent's (``changed_input``): the call that ran is then not the one
its tool_use shows; or the output a PostToolUse hook gave in place of the tool's: the
answer the session keeps may then be the one the agent was given, or the tool's, which
it does not say."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.claude_attachments import hook_event, hook_printed, json_object
from referee.engine.run.importers import record as R
from referee.engine.run.importers.record import Call, Origin, Text
from referee.engine.run.model import Problem


# The events whose hook's JSON answer may replace the input of the call it ran for, so the
# call that ran is not the one the agent's tool_use shows: a PreToolUse hook's
# hookSpecificOutput.updatedInput, a PermissionRequest hook's decision.updatedInput
_INPUT_CHANGED = frozenset({"PreToolUse", "PermissionRequest"})
# The events whose hook's JSON answer may replace the output of the call it ran for, so
# the agent was given another answer than the tool's: a PostToolUse hook's
# hookSpecificOutput.updatedToolOutput (any tool) or updatedMCPToolOutput (an MCP tool's).
# The tool ran all the same: the answer replaces its output even when it blocks.
_OUTPUT_CHANGED = frozenset({"PostToolUse"})
_OUTPUT_KEYS = ("updatedToolOutput", "updatedMCPToolOutput")


class Changed(NamedTuple):
    """A hook's answer that replaced the input of the call it ran for (``changed_input``),
    or its ``output``: the ``hook``'s name, the ``tool`` that name gives
    (``PreToolUse:Bash``), if any, the ``call_id`` it ran for, when the record names it,
    and the input (or output) it gave (``value``). An answer not read that may have
    replaced it has ``unread`` say why (``value`` is then what holds it, if anything)."""

    hook: str
    tool: str | None
    call_id: str | None
    value: Any
    unread: str = ""
    output: bool = False


def changed_input(rec: dict) -> Changed | None:
    """The input a PreToolUse or PermissionRequest hook gave in place of its call's, or
    the output a PostToolUse hook gave in place of the tool's (``output``), from what it
    printed: a stream's ``hook_response`` record (which names no call), or a
    session's ``hook_success`` attachment (its ``stdout``, and the call's ``toolUseID``);
    or a session's ``hook_permission_decision`` that a PermissionRequest hook allowed the
    call, whose answer is not kept. None when the record is no such answer, or the answer
    changed nothing."""
    if rec.get("type") == "system" and rec.get("subtype") == "hook_response":
        return _changed(rec.get("hook_event"), rec.get("hook_name"), None, hook_printed(rec), rec.get("exit_code"))
    attachment = rec.get("attachment") if rec.get("type") == "attachment" else None
    if not isinstance(attachment, dict):
        return None
    call_id = attachment.get("toolUseID")
    call_id = call_id if isinstance(call_id, str) else None
    if attachment.get("type") == "hook_success":
        return _changed(attachment.get("hookEvent"), attachment.get("hookName"), call_id, attachment.get("stdout"),
                        attachment.get("exitCode"))
    if attachment.get("type") == "hook_permission_decision" and attachment.get("decision") != "deny":
        # a PermissionRequest hook let the call run (a decision other than deny): its
        # answer, which may give the call another input (decision.updatedInput), is not kept
        return Changed(_hook_name(attachment.get("hookName"), attachment.get("hookEvent") or "PermissionRequest"),
                       None, call_id, None, "allowed its call with an answer the session does not keep")
    return None


def _changed(event: Any, name: Any, call_id: str | None, printed: Any, exit_code: Any) -> Changed | None:
    """What a hook of ``event`` named ``name`` that printed ``printed`` gave as its call's
    input, or output (``changed_input``). Claude Code takes the answer of an output that
    opens with ``{`` as JSON whatever the hook's exit code; an output in a shape not read
    may hold one. A hook that blocked its call (``_blocks``) gave it no input: the call did
    not run."""
    event = hook_event(event, name)
    tool = name.split(":", 1)[1] if isinstance(name, str) and ":" in name else None
    if printed is None or isinstance(printed, str) and not printed.strip() or exit_code == 2:
        return None  # exit code 2: the call is blocked, and what the hook printed ignored
    if not isinstance(printed, str):  # no text: an answer there may have changed the input, or the output
        return Changed(_hook_name(name, event), tool, call_id, printed, "answered in a shape not read",
                       output=event in _OUTPUT_CHANGED) if event in _INPUT_CHANGED | _OUTPUT_CHANGED else None
    answer = json_object(printed)
    specific = answer.get("hookSpecificOutput") if answer is not None else None
    if answer is None or not isinstance(specific, dict):
        return None
    named = specific.get("hookEventName")  # the event the answer names, when the record names none
    event = event or (named if isinstance(named, str) else None)
    if event in _OUTPUT_CHANGED:
        return _output_changed(_hook_name(name, event), tool, call_id, specific)
    decision = specific.get("decision")
    if _blocks(answer, specific):
        return None
    for value in (specific.get("updatedInput"), decision.get("updatedInput") if isinstance(decision, dict) else None):
        if value is not None and event in _INPUT_CHANGED:
            return Changed(_hook_name(name, event), tool, call_id, value)
    return None


def _output_changed(hook: str, tool: str | None, call_id: str | None, specific: dict) -> Changed | None:
    """The output a PostToolUse hook gave in place of the tool's (``_OUTPUT_KEYS``; any
    value, null too, replaces it), or None when it gave none."""
    for key in _OUTPUT_KEYS:
        if key in specific:
            return Changed(hook, tool, call_id, specific[key], output=True)
    return None


def _blocks(answer: dict, specific: dict) -> bool:
    """Whether a hook's JSON answer kept its call from running, whatever input it gave:
    it stopped the agent (``continue`` false), blocked (``decision`` "block"), or denied
    the call (``permissionDecision`` "deny", a PermissionRequest hook's
    ``decision.behavior`` "deny")."""
    decision = specific.get("decision")
    return (answer.get("continue") is False or answer.get("decision") == "block"
            or specific.get("permissionDecision") == "deny"
            or isinstance(decision, dict) and decision.get("behavior") == "deny")


def _hook_name(name: Any, event: Any) -> str:
    """How a hook is named in a problem: its name, else its event."""
    return name if isinstance(name, str) else str(event)


class HookEffects:
    """The hooks' part of an agent's ``Reader``: it shares the reader's entries, calls,
    problems and the line the agent last spoke at."""

    entries: list[Call | Text]
    calls: dict[str, list[int]]
    problems: list[Problem]
    last_said: int

    def __init__(self) -> None:
        # why a Stop hook sent the agent back to work, read since it last spoke: as a hook's
        # (an attachment, a hook_response) and as Claude Code's feedback (a user record)
        self.refusals: list[tuple[int, Text]] = []
        self.feedback: list[tuple[int, Text]] = []
        # hooks' answers that changed the input (or output) of a call this agent has not read
        # (yet): by the id of the call they name (None: they name none, as a stream's do)
        self.changed_later: dict[str | None, list[tuple[Origin, Changed]]] = {}

    def input_changed(self, origin: Origin, changed: Changed) -> None:
        """A hook's answer that replaced the input of the call it ran for: the call that ran
        is not the one the agent's tool_use shows, so its args are unsure (what the hook
        gave is said in a problem, never read as a call); or its output: its return is
        unsure (``return_changed``). The call is the one the answer
        names (``toolUseID``); one not read yet, or none named (a stream's answer, read
        with the main agent's records whichever agent's call it ran for), waits for the
        end of the session (``place_changed_later``), when every agent's calls are read."""
        if changed.call_id is not None and changed.call_id in self.calls:
            for position in self.calls[changed.call_id]:
                self.hook_changed(position, origin, changed)
        else:
            self.changed_later.setdefault(changed.call_id, []).append((origin, changed))

    def open_at(self, origin: Origin, tool: str | None) -> list[int]:
        """The positions of the calls of ``tool`` (any, when None) made before ``origin``
        in its file and not answered there before it: those a hook that ran there may
        have run for."""
        def open_there(call: Call) -> bool:
            answer = call.result_origin
            return (call.origin.source == origin.source and call.origin.line < origin.line
                    and (answer is None or answer.source != origin.source or answer.line > origin.line))
        return self.calls_where(tool, open_there)

    def ran_for(self, origin: Origin, changed: Changed) -> list[int]:
        """The positions of the calls a hook answer that names none (a stream's) may have
        run for: those open at its line (``open_at``); for one that changed an output (a
        PostToolUse hook's, which may run after its call's answer is written), those whose
        answer the agent had not been given yet as well (``given_since``)."""
        found = self.open_at(origin, changed.tool)
        return sorted(found + self.given_since(origin, changed.tool)) if changed.output else found

    def given_since(self, origin: Origin, tool: str | None) -> list[int]:
        """The positions of the calls of ``tool`` (any, when None) answered before
        ``origin`` in its file with no word nor call of the agent between that answer and
        ``origin``: the agent had not been given that answer yet, so a PostToolUse hook
        that ran there may have run for them (it runs before the agent is given it)."""
        def spoke(entry: Call | Text, after: int) -> bool:
            return (entry.origin.source == origin.source and after < entry.origin.line < origin.line
                    and (isinstance(entry, Call) or entry.kind == "agent"))

        def answered_there(call: Call) -> bool:
            answer = call.result_origin
            return (answer is not None and answer.source == origin.source and answer.line < origin.line
                    and not any(spoke(entry, answer.line) for entry in self.entries))
        return self.calls_where(tool, answered_there)

    def calls_where(self, tool: str | None, where: Callable[[Call], bool]) -> list[int]:
        """The positions, in order, of the calls of ``tool`` (any, when None) for which
        ``where`` holds."""
        return [at for at in sorted(p for found in self.calls.values() for p in found)
                if tool in (None, R.call_at(self.entries, at).tool) and where(R.call_at(self.entries, at))]

    def hook_changed(self, position: int, origin: Origin, changed: Changed) -> None:
        """The call at ``position`` ran with the input ``changed`` gave, or the agent was
        given the output it gave (``args_changed``, ``return_changed``)."""
        if changed.output:
            self.return_changed(position, origin, changed)
        else:
            self.args_changed(position, origin, changed)

    def return_changed(self, position: int, origin: Origin, changed: Changed) -> None:
        """The agent was given the output ``changed`` gave in place of the tool's (or may
        have been) for the call at ``position``: its return is unsure, cited at the hook's
        answer. The session does not say whether the answer it keeps is the tool's or the
        hook's (nor the stream), so one the same as the hook's proves nothing either: the
        tool may have given another, which the hook replaced."""
        call = R.call_at(self.entries, position)
        self.entries[position] = replace(call, unread=call.unread | {"return"})
        named = _named(call)
        if not changed.unread:
            told = f"gave the agent another output for {named}, {_shown(changed.value)}: the answer kept may be"
        else:
            told = f"{changed.unread}, and may have given the agent another output for {named}: the answer " \
                "kept may be"
        self.problems.append(Problem("output-changed", origin.source, f"the {changed.hook} hook {told} the hook's "
                                     "or the tool's, so a check on its return is an error", origin.line))

    def args_changed(self, position: int, origin: Origin, changed: Changed) -> None:
        """The call at ``position`` ran with the input ``changed`` gave (or may have): its
        args are unsure, cited at the hook's answer. A hook that gave back the input the
        call had (a hook that must answer with one, and passes it on) changed nothing."""
        call = R.call_at(self.entries, position)
        if not changed.unread and _same(changed.value, call.args):
            return
        self.entries[position] = replace(call, unread=call.unread | {"args"})
        named = _named(call)
        if not changed.unread:
            told = f"gave {named} another input, {_shown(changed.value)}: the call that ran is not"
        else:
            told = f"{changed.unread}, and may have given {named} another input: the call that ran may not be"
        self.problems.append(Problem("input-changed", origin.source, f"the {changed.hook} hook {told} the one the "
                                     "agent's tool_use shows, so a check on its args is an error", origin.line))

    def input_changed_unplaced(self, origin: Origin, changed: Changed) -> None:
        """A hook's answer that changed the input (or output) of a call no call read can take."""
        part = "output" if changed.output else "input"
        self.problems.append(Problem(CALLS_MAY_BE_MISSING, origin.source, f"the {changed.hook} hook changed the "
                                     f"{part} of a call this run does not hold: no check over the run's calls can "
                                     "be decided", origin.line))

    def told(self, text: str) -> bool:
        """Whether the feedback of a Stop hook (``Stop hook feedback:\n...``) read since the
        agent last spoke carries ``text``: the agent was given it once, as that feedback."""
        return any(said == self.last_said and text.strip() in entry.text for said, entry in self.feedback)

    def refused(self, feedback: Text) -> None:
        """Claude Code writes why a Stop hook sent the agent back to work twice, as the
        hook's blocking error and as this feedback, in either order: the agent was given
        it once. The feedback is read; a blocking error it carries, read before it since
        the agent last spoke, is dropped (unless a call came after it, whose position in
        the entries is kept)."""
        self.feedback = [(said, e) for said, e in self.feedback if said == self.last_said]
        self.feedback.append((self.last_said, feedback))
        self.refusals = [(said, entry) for said, entry in self.refusals if said == self.last_said
                         and not (entry.text.strip() in feedback.text and self.dropped(entry))]

    def dropped(self, entry: Text) -> bool:
        """Whether ``entry``, read since the agent last spoke, is dropped from the entries:
        not when a call follows it (positions of calls are kept in ``calls``)."""
        for at in range(len(self.entries) - 1, -1, -1):
            if self.entries[at] is entry:
                del self.entries[at]
                return True
            if isinstance(self.entries[at], Call):
                return False
        return False


def place_changed_later(readers: Sequence[HookEffects]) -> None:
    """The hooks' answers that changed a call's input (or output) and that no call of the
    agent they were read with took (``HookEffects.input_changed``), once every agent's
    calls are read: one naming a call takes it in whichever agent holds it (a subagent's
    file may); one naming none (a stream's) is taken by each call, of any agent, of the
    tool its hook's name gives that it may have run for (``HookEffects.ran_for``). One no
    call can take shows a call not read: the run's calls are incomplete."""
    for owner in readers:
        for call_id, waiting in owner.changed_later.items():
            for origin, changed in waiting:
                found = [(reader, position) for reader in readers for position in
                         (reader.calls.get(call_id, []) if call_id is not None else reader.ran_for(origin, changed))]
                if not found:
                    owner.input_changed_unplaced(origin, changed)
                for reader, position in found:
                    reader.hook_changed(position, origin, changed)
        owner.changed_later = {}


def _named(call: Call) -> str:
    """How a problem names a call: by its id, else as the call of its tool."""
    return f"call {call.call_id!r} ({call.tool!r})" if call.call_id else f"this {call.tool!r} call"


def _same(one: Any, other: Any) -> bool:
    """Whether two JSON values are the same, as JSON (``true`` is not ``1``)."""
    return json.dumps(one, sort_keys=True, default=repr) == json.dumps(other, sort_keys=True, default=repr)


def _shown(value: Any, limit: int = 200) -> str:
    """``value`` as one line of JSON for a problem, cut at ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)
    return text if len(text) <= limit else text[:limit] + "..."
