"""Which format a source is in (``detect_text``, ``detect``): told by its first record
when that is a line of its own, else by the keys the head of the document names; a
document is never parsed whole to be told. ``HEAD_BYTES`` is what is read of it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from referee.engine.run.importers import claude_format, claude_stream, openai, skill_creator
from referee.engine.run.importers.source import Source, json_container, read_source
from referee.engine.run.safejson import MAX_JSON_DEPTH, depth_exceeded

HEAD_BYTES = 65536  # what detection reads of a source
_SESSION_KEYS = re.compile(r'"sessionId"\s*:')
_ROLE = re.compile(r'"role"\s*:\s*"(?:system|developer|user|assistant|tool|function)"')
# A Responses API tool item (a call or its answer: ``function_call``, ``web_search_call``,
# ``function_call_output``; the Agents SDK's ``function_call_result``), which names no role:
# a list of them alone is a run cut short before any message. Named one by one, so that
# LangChain's own dicts, whose calls say ``"tool_call"`` or ``"invalid_tool_call"``, stay
# no format referee reads.
_TOOL_ITEM = re.compile(r'"type"\s*:\s*"(?:function|custom_tool|web_search|file_search|computer|code_interpreter'
                        r'|image_generation|local_shell|mcp)_call(?:_output|_result)?"')


def detect_text(source: Source) -> str | None:
    """The format of a source, or None when it is none referee imports: told by its
    first record when that is a line of its own, else by the keys the head of the
    document names (a document is never parsed whole to be told)."""
    head = source.head(HEAD_BYTES)
    if head.lstrip()[:1] in ("{", "["):
        first = next((line for line in head.split("\n") if line.strip()), "")
        whole = len(head) < HEAD_BYTES or first != head.rstrip("\r\n")
        value = _first_value(source, head, first) if whole else None
        if value is not None and claude_format.looks_like(value[0]):
            return claude_format.FORMAT
        if value is not None and claude_format.opens_session(value[0]) and _SESSION_KEYS.search(head):
            return claude_format.FORMAT  # a resumed session opens with a summary or a snapshot
        if value is not None and openai.looks_like(value[0]):
            return openai.FORMAT
        if claude_stream.array_of_stream(head):
            return claude_format.FORMAT  # a JSON array of stream-json messages
        if not whole and claude_stream.opens_stream(head):
            return claude_format.FORMAT  # stream-json whose first line runs past the head
        if value is not None and _record_after_text(head, len(source.data) <= HEAD_BYTES):
            return claude_format.FORMAT  # stream-json after a line of JSON of another kind
        if _SESSION_KEYS.search(head) is None and (_ROLE.search(head) or _TOOL_ITEM.search(head)):
            return openai.FORMAT  # a message, or a Responses API tool item, named in the head
        return claude_format.FORMAT if value is None and _SESSION_KEYS.search(head) else None
    if source.data.strip() and skill_creator.looks_like(source.text):
        return skill_creator.FORMAT
    if _record_after_text(head, len(source.data) <= HEAD_BYTES):
        return claude_format.FORMAT
    return None


def unread_format(source: Source) -> str | None:
    """What ``source`` is when it is a known format no importer reads, told by its first
    line, so that the error names it (the OpenAI reader finds a message's keys inside
    such records, and reads no conversation from them); None for any other source. A
    Codex CLI rollout opens with a ``session_meta`` record whose ``payload`` is an object."""
    head = source.head(HEAD_BYTES)
    first = next((line for line in head.split("\n") if line.strip()), "")
    value = json_container(first) if first.lstrip()[:1] == "{" else None
    record = value[0] if value is not None else None
    if isinstance(record, dict) and record.get("type") == "session_meta" and isinstance(record.get("payload"), dict):
        return "a Codex CLI rollout (session_meta, response_item and event_msg records)"
    return None


def _first_value(source: Source, head: str, first: str) -> tuple[Any] | None:
    """``json_container(first)``, the first line of ``head`` read as JSON. A source that is
    one array on one line is decoded by reading too: the value is the array as reading
    decodes it, element by element (``Source.array``), not the line decoded again."""
    array = source.array if len(source.data) <= HEAD_BYTES and "\n" not in head.strip(" \t\r\n") else None
    if array is None or array.whole is None or depth_exceeded(first, MAX_JSON_DEPTH) is not None:
        return json_container(first)  # (the array one level deeper than its elements may be too deep)
    return (array.whole,)


def _record_after_text(head: str, whole: bool) -> bool:
    """Whether the first line of ``head`` that is a record of a format referee imports
    (a Claude Code or an OpenAI message) is a Claude Code record: stream-json saved with
    the lines a shell or CI step wrote before it (stderr merged in: a warning, an echo,
    a structured log line), which import reports and skips. A line the head cuts short
    (``whole`` False: its last) is not looked at."""
    lines = head.split("\n") if whole else head.split("\n")[:-1]
    for line in lines:
        value = json_container(line) if line.lstrip()[:1] == "{" else None
        if value is not None and claude_format.looks_like(value[0]):
            return True
        if value is not None and openai.looks_like(value[0]):
            return False
    return False


def detect(path: Path) -> str | None:
    """The format of the file at ``path``, or None."""
    return detect_text(read_source(path))
