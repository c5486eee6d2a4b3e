"""Evidence of an imported run, cited in its sources: the place, and what that place holds.

An imported run's checks read its written view (``outputs/transcript.md``); a
reader opens the source. Through the run's source map each place in the view
becomes the source's file and line (``session.jsonl:42``); in a source line that
holds many things (a conversation on one line of JSON) also the column and the
JSON Pointer of the value (``chat.jsonl:1:5234#/12/tool_calls/0/function/arguments``;
in evidence records the pointer rides on the file name, ``chat.jsonl#/12/...``,
as RFC 6901 writes a pointer in a URI). A quote is text that the cited line
holds: where the view quoted its own label (``Tool: Edit``, a status word, a note's
heading), the quote becomes the tool's name, the note's first line, or nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from referee.engine.run.escape import unescape_text

if TYPE_CHECKING:
    from referee.engine.run.importers.source_map import SourceMap
    from referee.engine.verdict import Evidence, Verdict

# A written file's place in a text: "(transcript.md:22)", "outputs/response.md:2",
# "subagents/step-3.md:7", and in claims "(line 19)" after a place in the same file.
_PLACE = re.compile(r"(?<![\w./-])(?:(?:outputs/)?(transcript\.md|response\.md)|(subagents/step-[0-9.]+\.md))"
                    r":([0-9]+)|\(line ([0-9]+)\)")
_LABELS = ("## [agent_notes] ", "## [harness] ", "## Eval Prompt")
_QUOTE_MAX = 160


def in_sources(verdict: Verdict, source_map: SourceMap) -> Verdict:
    """``verdict`` with every place in the run's written files cited in its sources."""
    evidence = tuple(_evidence(item, source_map) for item in verdict.evidence)
    return replace(verdict, evidence=evidence, message=cite_text(verdict.message, source_map))


def cite_text(text: str, source_map: SourceMap) -> str:
    """``text`` with each written place in it replaced by the source's place."""
    last: list[str | None] = [None]

    def place(match: re.Match) -> str:
        if match.group(4) is not None:  # "(line N)": in the file of the place before it
            found = source_map.cite(last[0], int(match.group(4))) if last[0] else None
            return match.group() if found is None else f"({found})"
        file = f"outputs/{match.group(1)}" if match.group(1) else match.group(2)
        last[0] = file
        found = source_map.cite(file, int(match.group(3)))
        return match.group() if found is None else found

    return _PLACE.sub(place, text)


def _evidence(item: Evidence, source_map: SourceMap) -> Evidence:
    if item.file is None or item.line is None:
        return item
    line = source_map.quoted_line(item.file, item.line, item.quote) if item.quote else item.line
    found = source_map.place(item.file, line)
    if found is None:
        return item
    index, source_line, pointer, _ = found
    name = source_map.sources[index] + (f"#{pointer}" if pointer else "")
    quote = source_quote(source_map.written_line(item.file, line), item.quote, source_map, item.file, line)
    return replace(item, file=name, line=source_line, quote=quote)


def source_quote(written: str | None, quote: str, source_map: SourceMap, file: str, line: int) -> str:
    """What to quote of the source for a view's ``quote`` on its ``written`` line."""
    if not quote or written is None:
        return quote
    if quote.startswith("Tool: ") and (written.startswith("Tool: ") or written.startswith("## [tool_calls] ")):
        return quote[len("Tool: "):].split(" (status ")[0]
    if written.startswith("Status: "):
        return ""  # the status is referee's reading of the source, not words the source holds
    if written.startswith(_LABELS):
        return _first_line_after(source_map, file, line)
    return quote


def _first_line_after(source_map: SourceMap, file: str, line: int) -> str:
    """The first text line of the section whose heading is at ``file:line``."""
    for number in range(line + 1, line + 4):
        text = source_map.written_line(file, number)
        if text is None or text.startswith("## "):
            return ""
        if text.strip():
            text = unescape_text(text).strip()
            return text if len(text) <= _QUOTE_MAX else text[:_QUOTE_MAX - 1] + "…"
    return ""
