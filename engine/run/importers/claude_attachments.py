"""What of a Claude Code ``attachment`` record the agent was given as the harness's text.

Claude Code 2.x keeps much of what it adds to the agent's context as ``attachment``
records, not as messages, and turns each into the text the model reads when it sends
the conversation. Of the hooks' attachments, it gives the agent:

- ``hook_additional_context``: a hook's ``additionalContext``, its ``content`` a list of
  strings (joined by line) or a bare string; it is written only to carry that text;
- ``hook_success``: what a hook printed (``content``), from SessionStart and
  UserPromptSubmit hooks only; the output of any other event's hook is shown to the
  user, and an empty ``content`` gives nothing (the hook answered in JSON, or printed
  nothing);
- ``hook_blocking_error``: why a hook blocked (``blockingError.blockingError``), but
  of a UserPromptSubmit, SessionStart or other hook whose blocking error Claude Code
  shows the user only (``_STDERR_SHOWN``: a prompt it blocked is erased);
- ``hook_stopped_continuation``: why a hook stopped the agent (``message``);
- ``async_hook_response``: what a hook run in the background answered when it ended
  (its ``response``'s ``systemMessage`` and ``hookSpecificOutput.additionalContext``);

``critical_system_reminder`` (``content``), a reminder the session's configuration
repeats to the agent, and a ``queued_command`` of ``commandMode`` "task-notification"
(``prompt``), which tells the agent a background task ended. Those are harness text. What a hook showed the user only (a
``hook_system_message``, a ``hook_non_blocking_error``, a ``hook_cancelled`` or
``hook_error_during_execution`` record, a permission decision) is not, nor is what the
other attachments hold: the workspace's own text (a file mentioned or edited, a nested
CLAUDE.md, diagnostics: the tools', as a ``Read`` result is) or Claude Code's fixed
words over the session's state (plan mode, todos, skill and tool listings). A prompt
the user queued while the agent worked is the user's (``claude_requests``), read before.
A stream (stream-json) reports each hook it ran in a ``system`` record instead
(``hook_response``), read here as well: what it printed, or, when it blocked (exit code
2), what it wrote to stderr, given the agent by the events that give a blocking error.
Either may hold the input or the output a hook gave in place of its call's
(``claude_hooks.changed_input``). A
stream tells that a background task ended in a ``system`` record of subtype ``task_notification``,
whose ``summary`` is harness text as a session's task-notification is."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from referee.engine.run.importers import record as R
from referee.engine.run.importers.source import nested

# The hook events whose plain output Claude Code gives the agent (hook_success's content)
_OUTPUT_GIVEN = frozenset({"SessionStart", "UserPromptSubmit"})
# The hook events that refuse to let the agent stop, sending it back to work with a reason
_STOP_EVENTS = frozenset({"Stop", "SubagentStop"})
# The hook events whose blocking error (exit code 2: what the hook wrote to stderr) Claude
# Code gives the agent: a tool call refused, feedback on a tool that ran or failed, a stop
# refused (to the subagent, for SubagentStop, whose stream this is then)
_STDERR_GIVEN = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop"})
# and those whose blocking error it shows the user only (a prompt it blocked is erased)
_STDERR_SHOWN = frozenset({"SessionStart", "SessionEnd", "UserPromptSubmit", "Notification", "PreCompact",
                           "SubagentStart", "WorktreeRemove", "InstructionsLoaded"})
# The events whose JSON "reason" to block Claude Code gives the agent (a tool call refused,
# feedback on a tool that ran, why it may not stop yet), and those whose it shows the user
# only (a prompt blocked is erased with it)
_BLOCK_GIVEN = frozenset({"PreToolUse", "PostToolUse", "Stop", "SubagentStop"})
_BLOCK_SHOWN = frozenset({"UserPromptSubmit"})


class Given(NamedTuple):
    """Text an attachment gave the agent: ``text``, of the harness text ``kind``; or,
    when it is in a shape not read (``text`` None), the ``value`` that holds it, what
    that is, and whether it surely held text (an attachment written only to carry it).
    ``refused``: the text is why a Stop or SubagentStop hook sent the agent back to work,
    which Claude Code also writes as a user record ("Stop hook feedback:\n...")."""

    kind: str
    text: str | None
    value: Any = None
    what: str = ""
    surely: bool = False
    refused: bool = False


def harness_text(attachment: Any) -> Given | None:
    """The text an attachment gave the agent, or None when it gave none (another type,
    the output of a hook of another event, text that is empty)."""
    kind = attachment.get("type") if isinstance(attachment, dict) else None
    if not isinstance(kind, str):  # no type tells what it is: words there may be ones given
        return Given(R.SYSTEM, None, attachment, "this attachment, which names no type",
                     _holds_text(attachment)) if attachment is not None else None
    given = _given(kind, attachment)
    if given is None or given.text is not None:
        return given
    return given._replace(what=f"this {kind} attachment's {given.what}")


def _given(kind: str, attachment: dict) -> Given | None:
    """The text an attachment of type ``kind`` gave the agent (``harness_text``)."""
    if kind == "hook_additional_context":
        return _text(R.HOOK, attachment.get("content"), "additional context", surely=True)
    if kind == "hook_success":
        return _output(attachment)
    if kind == "hook_blocking_error":
        event = hook_event(attachment.get("hookEvent"), attachment.get("hookName"))
        if event in _STDERR_SHOWN:  # shown the user only: a prompt it blocked is erased with it
            return None
        error = attachment.get("blockingError")
        error = error.get("blockingError") if isinstance(error, dict) else error
        given = _text(R.HOOK, error, "blocking error", surely=True)
        return given and given._replace(refused=event in _STOP_EVENTS)
    if kind == "hook_stopped_continuation":
        return _text(R.HOOK, attachment.get("message"), "reason to stop", surely=True)
    if kind == "async_hook_response":
        return _async_response(attachment.get("response"))
    if kind == "critical_system_reminder":
        return _text(R.SYSTEM_REMINDER, attachment.get("content"), "reminder", surely=True)
    if kind == "queued_command" and attachment.get("commandMode") == "task-notification":
        return _text(R.SYSTEM, attachment.get("prompt"), "notification", surely=True)
    return None


def _async_response(response: Any) -> Given | None:
    """What a hook run in the background gave the agent when it ended
    (``async_hook_response``): its answer's ``systemMessage`` and
    ``hookSpecificOutput.additionalContext``, each as a message of its own (one a line
    here). An answer in a shape not read may have held either."""
    if not isinstance(response, dict):
        return Given(R.HOOK, None, response, "answer, which is no object", _holds_text(response)) \
            if response is not None else None
    specific = response.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    texts = []
    for value, what in ((response.get("systemMessage"), "system message"),
                        (specific.get("additionalContext"), "additional context")):
        if isinstance(value, str) and value.strip():
            texts.append(value)
        elif value and not isinstance(value, str):  # Claude Code gives any value it holds
            return Given(R.HOOK, None, value, f"{what}, which is no text", _holds_text(value))
    return Given(R.HOOK, "\n".join(texts)) if texts else None


def hook_response(rec: dict) -> Given | None:
    """What a hook gave the agent, from the ``hook_response`` record stream-json writes
    when it ran: what it printed (``stdout``, as text or as JSON) when it succeeded (a
    SessionStart or UserPromptSubmit hook's text, what its JSON answer told the agent:
    ``_answered``), or what it wrote to ``stderr`` when it
    blocked (exit code 2, ``_blocked``). None when it gave nothing: it failed otherwise
    (its stderr is shown to the user), printed nothing, or printed text as a hook of
    another event."""
    exit_code = rec.get("exit_code")
    if exit_code == 2:
        return _blocked(rec)
    if exit_code is None and rec.get("outcome") != "success" or \
            exit_code is not None and not isinstance(exit_code, int):
        return _maybe_blocked(rec)
    if exit_code != 0 and exit_code is not None:
        return None
    printed = hook_printed(rec)
    if not isinstance(printed, str):
        return Given(R.HOOK, None, printed, "this hook_response record's output, which is no text",
                     _holds_text(printed))
    given = _printed(printed, hook_event(rec.get("hook_event"), rec.get("hook_name")))
    if given is None or given.text is None or isinstance(rec.get("stdout"), str):
        return given
    # what it printed is not told apart from what it wrote to stderr, which is not given
    return Given(R.HOOK, None, printed, "this hook_response record's output, which has no stdout", surely=True)


def hook_printed(rec: dict) -> Any:
    """What a ``hook_response`` record says its hook printed: its ``stdout`` when that is
    text, else its ``output`` (stdout and stderr as one)."""
    stdout = rec.get("stdout")
    return stdout if isinstance(stdout, str) else rec.get("output")


def task_notification(rec: dict) -> Given | None:
    """What a stream's ``task_notification`` record (a background task ended) gave the
    agent: its ``summary``, as a session's task-notification ``queued_command`` is read (the
    stream writes no user record of the notice). None when it has none, or one empty."""
    summary = rec.get("summary")
    if summary is None:
        return None
    given = _text(R.SYSTEM, summary, "summary", surely=True)
    if given is not None and given.text is None:
        return given._replace(what="this task_notification record's summary, which is no text")
    return given


def _blocked(rec: dict) -> Given | None:
    """What a hook that blocked (exit code 2: Claude Code then ignores its stdout) gave
    the agent: its ``stderr``, as the reason a tool call was refused, the feedback after
    a tool ran or failed, or why it may not stop yet (the events of ``_STDERR_GIVEN``).
    A SessionStart, UserPromptSubmit or other event's hook of ``_STDERR_SHOWN`` shows it to
    the user only; of an event of neither (or of none named) it may have been given."""
    stderr = rec.get("stderr")
    held = rec.get("output") if stderr is None else stderr  # output: stdout and stderr as one
    if isinstance(held, str) and not held.strip():
        return None
    event = hook_event(rec.get("hook_event"), rec.get("hook_name"))
    if event in _STDERR_SHOWN:
        return None
    if event in _STDERR_GIVEN and isinstance(stderr, str):
        return Given(R.HOOK, stderr, refused=event in _STOP_EVENTS)
    if stderr is not None and not isinstance(stderr, str):
        what = "stderr, which is no text"
    elif event in _STDERR_GIVEN:
        what = "output, which has no stderr"
    else:
        what = "stderr, of a hook of an event whose blocking error may be given" if event else \
            "stderr, of a hook of no named event"
    return Given(R.HOOK, None, held, f"this hook_response record's {what}", _holds_text(held))


def _maybe_blocked(rec: dict) -> Given | None:
    """What a hook that did not succeed, with no exit code told (none, or one that is no
    number), gave the agent: had it blocked (2), its stderr; so a stderr that a blocking
    hook of its event would have given leaves the harness text unknown."""
    given = _blocked(rec)
    if given is None or given.text is None:
        return given
    return Given(R.HOOK, None, given.text, "this hook_response record's stderr, of a hook whose exit code is not "
                 "told", surely=True)


def _printed(printed: str, event: str | None) -> Given | None:
    """What a hook of ``event`` that printed ``printed`` gave the agent (``hook_response``)."""
    answer = json_object(printed)
    if answer is not None:
        return _answered(answer, event)
    if not printed.strip() or (event is not None and event not in _OUTPUT_GIVEN):
        return None
    if event is None:
        return Given(R.HOOK, None, printed, "this hook_response record's output, of a hook of no named event",
                     surely=True)
    return Given(R.HOOK, printed)


def _answered(answer: dict, event: str | None) -> Given | None:
    """What a hook of ``event`` that answered in JSON gave the agent: its
    ``hookSpecificOutput.additionalContext``, the ``reason`` it blocked for
    (``decision`` "block"), why it denied a tool call (``permissionDecisionReason``, or a
    PermissionRequest hook's ``decision.message``) and why it stopped the agent
    (``stopReason``, with ``continue`` false), one a line. A ``systemMessage``, a reason
    to allow or to ask, and a blocked prompt's reason are shown to the user only. A part
    in a shape not read, or whose reader (the event, the decision) is not known, may have
    been given: the whole is then unknown."""
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    # (what it told, of what, whether it was given: None when that is not known)
    parts: list[tuple[Any, str, bool | None]] = [(specific.get("additionalContext"), "additional context", True)]
    if answer.get("decision") == "block":
        parts.append((answer.get("reason"), "reason to block", _given_for(event, _BLOCK_GIVEN, _BLOCK_SHOWN)))
    if "permissionDecisionReason" in specific:
        decision = specific.get("permissionDecision")
        parts.append((specific["permissionDecisionReason"], "reason for its permission decision",
                      True if decision == "deny" else False if decision in ("allow", "ask") else None))
    denied = specific.get("decision")
    if isinstance(denied, dict) and denied.get("behavior") == "deny":
        parts.append((denied.get("message"), "reason to deny", True))
    if answer.get("continue") is False:  # given as a hook_stopped_continuation attachment is
        parts.append((answer.get("stopReason"), "reason to stop", True))
    texts = []
    for value, what, given in parts:
        if value is None or given is False or (isinstance(value, str) and not value.strip()):
            continue
        if not isinstance(value, str) or given is None:
            what = f"{what}, which is no text" if not isinstance(value, str) else \
                f"{what}, of a hook whose {what} may be given or not"
            return Given(R.HOOK, None, value, f"this hook_response record's {what}", surely=True)
        texts.append(value)
    return Given(R.HOOK, "\n".join(texts), refused=event in _STOP_EVENTS) if texts else None


def _given_for(event: str | None, given: frozenset[str], shown: frozenset[str]) -> bool | None:
    """Whether a hook of ``event`` gave the agent what it told Claude Code (True), showed
    it the user only (False), or either (None: an event of neither set, or none named)."""
    return True if event in given else False if event in shown else None


def hook_event(event: Any, name: Any) -> str | None:
    """The event a hook ran on: ``event``, else the head of its ``name``
    (``SessionStart:startup``)."""
    if isinstance(event, str):
        return event
    return name.split(":", 1)[0] if isinstance(name, str) else None


def json_object(text: str) -> dict | None:
    """What a hook printed as JSON (Claude Code reads output that opens with ``{`` so),
    or None when it printed text."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _output(attachment: dict) -> Given | None:
    """What a hook printed: given the agent from SessionStart and UserPromptSubmit hooks
    only, the event Claude Code reads from ``hookEvent`` alone. Output of no named event
    may have been given or not, and so may that of a hook whose ``hookName`` alone names
    one of those events (``SessionStart:startup``): a record of another shape than the
    one Claude Code reads, which the name of another event rules out all the same."""
    content = attachment.get("content")
    if isinstance(content, str) and not content.strip():
        return None
    event = attachment.get("hookEvent")
    named = hook_event(event, attachment.get("hookName"))
    if isinstance(named, str) and named not in _OUTPUT_GIVEN:
        return None
    if isinstance(content, str) and isinstance(event, str):
        return Given(R.HOOK, content)
    # a hook_success is written for every run of a hook, output or none: with no content
    # read, only text where the output is kept (stdout) says some may have been given
    held = content if content is not None else attachment.get("stdout")
    what = "output, which is no text" if isinstance(event, str) else \
        "output, of a hook of no named event" if named is None else "output, of a hook whose hookEvent is not named"
    return Given(R.HOOK, None, held, what, _holds_text(held))


def _text(kind: str, value: Any, what: str, surely: bool = False) -> Given | None:
    """``value`` as text: a string, or a list of strings (one a line); None when it is
    empty, and a Given with no text when it is of another shape."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        value = "\n".join(value)
    if isinstance(value, str):
        return Given(kind, value) if value.strip() else None
    return Given(kind, None, value, f"{what}, which is no text", surely or _holds_text(value))


def _holds_text(value: Any) -> bool:
    """Whether ``value`` holds a string with words, anywhere within it."""
    return any(isinstance(item, str) and item.strip() != "" for item in nested(value))
