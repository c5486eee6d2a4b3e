"""What an import read from bytes that are not UTF-8 (or held a NUL byte): decoded
with replacement characters, a name, a path or a word in it may not be what the
source says, so no check may rest on it. A call read there is unsure of what it
read there (its tool and args, or its return and status), and a reply read there
leaves the run's response unusable: a check on either is an ERROR, never a pass.

Where: every line the source's decoding reported, and the whole of a message of
a JSON document that held such a line (``Conversation.lossy``), since its values'
places name the lines their keys are on.
"""

from __future__ import annotations

from dataclasses import replace

from referee.engine.run.importers.record import Call, Conversation, Entry, Origin, Text

LOSSY_CODES = frozenset({"not-utf8", "nul-byte"})
Spans = dict[str, list[tuple[int, int]]]  # source name -> (first line, last line) read lossily


def marked(conversation: Conversation) -> Conversation:
    """``conversation`` with what it read from lossy places marked unsure."""
    spans: Spans = {}
    for problem in conversation.problems:
        if problem.code in LOSSY_CODES and problem.line is not None:
            spans.setdefault(problem.path, []).append((problem.line, problem.line))
    for source, first, last in conversation.lossy:
        spans.setdefault(source, []).append((first, last))
    if not spans:
        return conversation
    response = tuple(replace(text, unsure=True) if _text_within(text, spans) else text
                     for text in conversation.response)
    return replace(conversation, entries=_entries(conversation.entries, spans), response=response)


def _entries(entries: tuple[Entry, ...], spans: Spans) -> tuple[Entry, ...]:
    return tuple(_call(entry, spans) if isinstance(entry, Call) else entry for entry in entries)


def _call(call: Call, spans: Spans) -> Call:
    unread = set(call.unread)
    if _within(call.origin, spans) or (call.tool_origin is not None and _within(call.tool_origin, spans)):
        unread |= {"tool", "args"}
    if call.result_origin is not None and _within(call.result_origin, spans):
        unread |= {"return", "status"}
    subagent = call.subagent
    if subagent is not None:
        subagent = replace(subagent, entries=_entries(subagent.entries, spans))
    if unread == call.unread and subagent is call.subagent:
        return call
    return replace(call, unread=frozenset(unread), subagent=subagent)


def _within(origin: Origin, spans: Spans, last: int | None = None) -> bool:
    """Whether the lines ``origin.line`` to ``last`` (or just its own) meet a lossy span."""
    end = origin.line if last is None else last
    return any(first <= end and origin.line <= stop for first, stop in spans.get(origin.source, ()))


def _text_within(text: Text, spans: Spans) -> bool:
    last = text.origin.line + text.text.count("\n") if text.per_line else None
    return _within(text.origin, spans, last)
