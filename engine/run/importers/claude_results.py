"""What a Claude Code tool_result says: whether the call failed (``is_error``, or
Claude Code's ``<tool_use_error>`` wrapper), whether it holds the whole output or a
preview of it (``<persisted-output>``) or its head (``... [N lines truncated] ...``), and
its value as the agent saw it. What the
records of an agent mean is ``claude_records``'s."""

from __future__ import annotations

import re
from typing import Any

from referee.engine.run.importers.source import json_container, may_say

STRUCTURED = ("toolUseResult", "tool_use_result")  # a tool's structured answer, beside its message
_READ_PREFIX = re.compile(r"^ *[0-9]+(?:→|\t)", re.M)
_ERROR_WRAPPER = re.compile(r"\s*<tool_use_error>")
_PERSISTED = re.compile(r"\s*<persisted-output>")
# What Claude Code puts after the head of a shell command's output it cut (longer than its
# limit, 30,000 characters by default): a line of its own after a blank one, then the
# command's stderr, if any. The lines cut are kept nowhere.
_CUT = re.compile(r"\n\n\.\.\. \[[0-9]+ lines truncated\] \.\.\.(?:\n|$)")
# What Claude Code answers a command it left running in the background, in place of its
# output: asked for (run_in_background), sent there with Ctrl+B, or moved there when it
# outran its timeout; a Monitor call's watcher it started (each line the watcher prints
# comes later, as a task notification); an Agent call whose subagent runs on in the
# background (Claude Code 2.x's default); a Workflow call, whose script always runs on in
# the background ("Workflow launched in background. Task ID: ...", then a Summary, Run ID,
# Transcript dir or Script file line as the version writes). The output comes later, to
# other calls (BashOutput, TaskOutput, a Read of its output file) or in a notice, if at all.
_BACKGROUND = re.compile(r"\s*(?:Command running in background with ID:|Command was manually backgrounded by user"
                         r" with ID:|Command did not complete within its [^\n]{0,80}moved to the background"
                         r"|Monitor started \(task |Async agent launched successfully"
                         r"|Workflow launched in background\. Task ID:)")
# toolUseResult's status of an Agent or Workflow call that only launched its work: in the
# background here, or in a remote session (the Workflow tool answers with one or the other)
_LAUNCH_STATUSES = ("async_launched", "remote_launched")  # a tuple: a status of any type is compared, never hashed


def structured(rec: dict) -> Any:
    """A tool's structured answer: ``toolUseResult`` in a session, ``tool_use_result`` in
    what ``claude -p --output-format stream-json`` prints."""
    return next((rec[key] for key in STRUCTURED if key in rec), None)


def error_flag(part: dict) -> tuple[bool, str | None]:
    """What an answer's ``is_error`` says (a tool_result's, or a server tool's result
    given in the assistant's message): whether it flags a failure, and why it is unsure
    when it is neither true nor false (``"true"``, 1), as then it says neither."""
    flag = part.get("is_error")
    if flag is not None and not isinstance(flag, bool):
        return False, f"is_error is {flag!r}, not true or false"
    return flag is True, None


def status(part: dict) -> tuple[str, str | None]:
    """A tool_result's status, and why it is unsure (None when it is not). Claude Code
    wraps a tool's failure in ``<tool_use_error>`` and flags it ``is_error``; a result
    so wrapped with no flag is an error all the same, and one flagged false is unsure."""
    failed, unsure = error_flag(part)
    if unsure is not None:
        return "success", unsure
    if failed:
        return "error", None
    flag = part.get("is_error")
    if not _ERROR_WRAPPER.match(_first_text(part.get("content"))):
        return "success", None
    if flag is None:
        return "error", None
    return "success", "its content is a <tool_use_error> while is_error is false"


def persisted(content: Any) -> bool:
    """Whether a tool_result holds only a preview of the tool's output, the whole of
    which Claude Code wrote to a file beside the session (``<persisted-output>``)."""
    return _PERSISTED.match(_first_text(content)) is not None


def cut(content: Any) -> bool:
    """Whether a tool_result holds only the head of an output Claude Code cut before it
    gave it to the agent (``... [N lines truncated] ...``, ``_CUT``), in its text or in
    a text part."""
    parts = content if isinstance(content, list) else [content]
    texts = [part.get("text") if isinstance(part, dict) else part for part in parts]
    return any(isinstance(text, str) and _CUT.search(text) is not None for text in texts)


def backgrounded(args: Any, content: Any, structured: Any) -> bool:
    """Whether a call's answer is only the notice that it runs on in the background (the
    call asked for it, ``toolUseResult`` names the background task, a Monitor's watcher
    or an Agent's or Workflow's launch, ``_LAUNCH_STATUSES``, or the answer is Claude Code's
    notice): the command's output and exit status are not in it."""
    asked = isinstance(args, dict) and args.get("run_in_background") is True
    named = isinstance(structured, dict) and (isinstance(structured.get("backgroundTaskId"), str)
                                              or structured.get("backgroundedByUser") is True or _watcher(structured)
                                              or structured.get("status") in _LAUNCH_STATUSES)
    return asked or named or _BACKGROUND.match(_first_text(content)) is not None


def _watcher(structured: dict) -> bool:
    """Whether a structured answer is a Monitor call's: the task of the watcher it
    started, and how long it may run (``timeoutMs``, or ``persistent``)."""
    return isinstance(structured.get("taskId"), str) and ("timeoutMs" in structured or "persistent" in structured)


def refused(result: Any) -> bool:
    """Whether a call's answer (as read) is Claude Code's ``<tool_use_error>``: the call
    was refused before its tool ran (an input that does not validate, a tool or agent
    type that does not exist)."""
    return isinstance(result, str) and _ERROR_WRAPPER.match(result) is not None


def _first_text(content: Any) -> str:
    """The text a tool_result's content starts with (a string, or its first part's)."""
    if isinstance(content, list) and content:
        content = content[0].get("text") if isinstance(content[0], dict) else content[0]
    return content if isinstance(content, str) else ""


def parts_unread(content: Any) -> bool:
    """Whether a tool_result's content parts hold text ``result_value`` does not read: it
    keeps a part of a type other than text as ``[its type]`` (a ``tool_reference`` with
    the tool it names), which loses nothing of an image, but the words of a part that
    holds text (a ``search_result`` with text in its own content, a plain-text
    ``document``, a part that names no type), of a text part whose text is no string,
    and the tool of a ``tool_reference`` that names none."""
    if not isinstance(content, list):
        return False
    return any(_part_unread(part) for part in content)


def _part_unread(part: Any) -> bool:
    if isinstance(part, str) or part is None:
        return False
    if not isinstance(part, dict):  # a number, a list: dropped
        return True
    if part.get("type") == "text":
        return not isinstance(part.get("text"), str)
    if part.get("type") == "tool_reference":
        return not _tool_reference(part)
    source = part.get("source")
    plain = isinstance(source, dict) and source.get("type") == "text" and may_say(source.get("data"))
    return part.get("type") != "image" and (plain or may_say(part))


def _tool_reference(part: Any) -> bool:
    """Whether a part is a ``tool_reference`` that names its tool (ToolSearch answers
    with one for each tool it found, and nothing else)."""
    return isinstance(part, dict) and part.get("type") == "tool_reference" and isinstance(part.get("tool_name"), str)


def result_value(content: Any, structured: Any, tool: str) -> Any:
    """The result as the agent saw it: JSON text as its value, other text as it is."""
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                texts.append(str(part.get("text", "")))
            elif _tool_reference(part):  # ToolSearch's answer: a tool it found, by name
                texts.append(f"[tool_reference: {part['tool_name']}]")
            elif isinstance(part, dict):
                texts.append(f"[{part.get('type', 'part')}]")
            elif isinstance(part, str):
                texts.append(part)
        content = "\n".join(texts)
    if content is None or content == "":
        return structured if structured is not None else ""
    if not isinstance(content, str):
        return content
    whole = json_container(content.strip())
    if whole is not None:
        return whole[0]
    if tool == "Read" and _READ_PREFIX.match(content):
        content = _READ_PREFIX.sub("", content)
    return content
