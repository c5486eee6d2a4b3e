"""A record of the usual shape, read by one match: the transcript parser's fast path.

Nearly every record is ``Tool:``, ``Args:``, ``Return:`` and ``Status:`` in that
order, its Args JSON and its Return JSON or the lines a tool printed, nothing after
Status but blank lines. ``plain_record`` reads such a record with one regex and
gives exactly what the general reader (``engine.run.tool_log.RecordReader``, the
reference) gives; anything else is left to that reader.
tests/test_transcript_fast.py holds the two to each other.
"""

from __future__ import annotations

import re

from referee.engine.run.model import Payload, Problem
from referee.engine.run.safejson import decoded, json_value, not_json
from referee.engine.run.tool_log import JSON_START, MARK, Record, fence_open, is_heading, kept_as_text

# The shape nearly every record has, read by one match: maybe a one-line comment,
# then the four fields in order, each payload JSON as a whole (checked after) on its
# line, or on the next one when its field line has nothing else and it opens with a
# bracket, going on over lines that start with a space or a closing bracket
# (indented JSON). Linear: every part stops at a line break. The spaces after "Args:"
# and "Return:" are left out of the payload groups (possessively: they are never given
# back), so that a payload's text is not copied a second time by strip().
# A Return may also be text: every line up to the Status line (checked after: no
# line of it may be a field line or a heading, and a value that opens on the next
# line may not be fenced), as a tool printed it. The blank lines before the note and the
# Tool line are taken possessively: no blank line is a note's, and either run could take
# those between, so a zone of blank lines with no Tool line tried every split (a time
# growing with the square of their number). The lines of a payload are taken
# possessively too: a line given back starts with what ended the run (a line that is
# not indented JSON, a Status line) or leaves a line break unmatched, so what follows
# never matches there, and a backtracking point kept for each line cost a fifth of the
# match.
_PAYLOAD = r"(?:\n(?=[\[{]))?[^\n]*+(?:\n[ \t\]}][^\n]*+)*+"
_PLAIN_RECORD = re.compile(
    r"(?:[ \t]*\n)*+(?P<note>[ \t]*<!--(?:(?!-->)[^\n])*-->[ \t]*\n)?(?:[ \t]*\n)*+"
    r"Tool:(?P<tool>[^\n]*)\n"
    rf"Args:[ \t]*+(?P<args>{_PAYLOAD})\n"
    r"Return:[ \t]*+(?P<return>[^\n]*+(?:\n(?!Status:)[^\n]*+)*+)\n"
    r"Status:(?P<status>[^\n]*)"
    r"(?:\n[ \t]*)*(?=\n|\Z)"
)


def plain_record(text: str, start: int, stop: int, first: int, report: str) -> Record | None:
    """The record whose zone is ``text[start:stop]``, in the usual shape, read by one
    match; None otherwise. ``Record.used`` is then the number of zone lines it takes.

    What ``RecordReader`` reads from such a zone: one call, its Args JSON, its Return
    JSON or lines of text, nothing after Status but blank lines up to the zone's end
    or a heading. tests/test_transcript_fast.py checks both agree.
    """
    match = _PLAIN_RECORD.match(text, start, stop)
    if match is None:
        return None
    end = match.end()
    if end < stop:  # the match ends before a line break: the next line must be a heading
        line_end = text.find("\n", end + 1, stop)
        if not is_heading(text[end + 1:stop if line_end < 0 else line_end]):
            return None
    tool, args, result, status = match.group("tool", "args", "return", "status")
    tool, status = tool.strip(), status.strip()
    if not tool or not status:
        return None
    raw_args, raw_result = args.strip(), result.strip()
    if not _may_be_json(raw_args) or not raw_result:
        return None  # before anything is decoded: the general reader decodes it
    tool_at = match.start("tool") - 5
    tool_line = first if tool_at == start else first + text.count("\n", start, tool_at)
    # a value that starts on the line after its field line starts there
    args_payload = _json_payload(raw_args, tool_line + 1 + args.startswith("\n"))
    if args_payload is None:
        return None
    return_line = tool_line + 2 + _breaks(args)
    value_line = return_line + _breaks(result[:len(result) - len(result.lstrip())])  # past blank lines
    # JSON, or text read as the general reader reads it (``read_value``), from one
    # decode: the error of the first gives the text's message
    found = decoded(raw_result)
    problems: list[Problem] = []
    if isinstance(found, tuple):
        return_payload = Payload(raw_result, found[0], True, value_line)
    elif not _plain_text(result):
        return None
    else:
        return_payload, problem = kept_as_text("return", raw_result, value_line,
                                               not_json(raw_result, found, report, value_line, "not-json"))
        problems.append(problem)
    status_line = return_line + 1 + _breaks(result)
    fields = {"tool": tool, "tool_line": tool_line, "args": args_payload, "return": return_payload,
              "status": status, "status_line": status_line}
    # The record's lines: up to the Status line, then the blank ones after it. The match
    # ends at the zone's end or just before a line break: either way the record's
    # last line ends there.
    used = status_line - first + 1 + text.count("\n", match.end("status"), end)
    loose = set() if return_payload.is_json else {"return"}
    return Record([fields], used, [], problems, loose, end + 1)  # every field given: no default factories to call


def _plain_text(value: str) -> bool:
    """Whether a Return that is not JSON is read as lines of text up to its Status line:
    none of its lines is a field line or a heading (either would end or split it), and
    when it opens on a line after its field line, that line opens no fence."""
    if MARK.search(value):
        return False
    lead = len(value) - len(value.lstrip())
    if "\n" not in value[:lead]:
        return True  # it opens on its field line
    opening = value.rfind("\n", 0, lead) + 1
    ending = value.find("\n", opening)
    return fence_open(value[opening:ending if ending >= 0 else len(value)], 0) is None


def _breaks(value: str) -> int:
    """The line breaks in ``value``. Most values are one line: ``in`` finds that out
    far faster than ``count``, which steps through every character of a wide string."""
    return value.count("\n") if "\n" in value else 0


def _may_be_json(raw: str) -> bool:
    """False for a field value of ``_PLAIN_RECORD`` (stripped) that ``_json_payload``
    refuses whatever it holds: spread over lines without opening with a bracket."""
    return "\n" not in raw or raw.startswith(JSON_START)


def _json_payload(raw: str, line: int) -> Payload | None:
    """A field value of ``_PLAIN_RECORD`` (stripped) starting on ``line``, as JSON, or
    None when it is not JSON as a whole (or ``_may_be_json`` refuses it)."""
    parsed = json_value(raw) if _may_be_json(raw) else None
    return None if parsed is None else Payload(raw, parsed[0], True, line)
