"""A JSON file as its strings read.

A JSON output (``result.json``, a notebook's ``.ipynb``, a ``.jsonl`` log) writes some
characters of its strings as escapes: ``\\"``, ``\\/`` (PHP writes every ``/`` so),
``\\n``, ``\\u0065``. Words its strings hold may then be written otherwise in the
file: ``"rm -rf \\/tmp"`` holds "rm -rf /tmp", ``"print(\\"hi\\")"`` holds
'print("hi")'. A miss in the file as written that is a hit once each string is read
as its value is no miss its reader (a program, or anyone reading the values) would
grant, nor a hit the text as written holds: an ERROR naming an escape of the string
hit, never a pass of ``not (file "result.json" contains "rm -rf /tmp")``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from typing import Callable

from referee.dsl.frozen import frozen
from referee.engine.checks.markdown_seen import place_in
from referee.engine.values import EvalError, Prov, Val

# Files read as JSON text, by their name; a value read from such a file by json(...)
# holds no literal with an escape in it but in the rarest case (a miss then an ERROR).
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson", ".ipynb", ".geojson")
_SOURCES = ("outputs", "response")
# A string literal on one line (JSON writes a line break inside a string as \n), its
# escapes taken whole, each part consumed possessively; a quote never closed on its
# line takes the rest of the line (no literal), so that no quote after it starts a
# search to the line's end again: linear.
_LITERAL = re.compile(r'"(?:[^"\\\n]++|\\[^\n])*+"|"[^\n]*+')
# An escape JSON allows in a string: each reads otherwise than it is written.
_ESCAPE = re.compile(r'\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4})')


@frozen
class StringsRead:
    """The text with each string literal read as its value (quotes kept), and for
    each literal read otherwise than written: where it ends in ``text`` and where it
    starts in the text as written (``ends``, ``starts``), so an ERROR names an escape
    of the literal the words were found in."""

    text: str
    ends: tuple[int, ...]
    starts: tuple[int, ...]

    def escape_near(self, written: str, at: int) -> int:
        """Where, in the text as written, the first escape of the first literal read
        otherwise that ends after offset ``at`` of ``text`` stands (the last such
        literal when none ends after it)."""
        index = min(bisect_right(self.ends, at), len(self.ends) - 1)
        found = _ESCAPE.search(written, self.starts[index])
        return found.start() if found is not None else self.starts[index]


def is_json_text(prov: Prov | None) -> bool:
    """Whether a text is read from a JSON file of the run (an output, the response)."""
    return (prov is not None and prov.source in _SOURCES and bool(prov.file)
            and (prov.file or "").lower().endswith(JSON_SUFFIXES))


def strings_read(text: str, prov: Prov | None) -> StringsRead | None:
    """``text`` with its string literals read (``StringsRead``), or None when it is
    no JSON file's text or none of its literals reads otherwise: then it reads as
    written."""
    if "\\" not in text or not is_json_text(prov):
        return None
    pieces: list[str] = []
    ends: list[int] = []
    starts: list[int] = []
    done = length = 0  # of the text as written, of the text read
    for literal in _LITERAL.finditer(text):
        value = _read(literal.group())
        if value is None:
            continue
        pieces.append(text[done:literal.start()])
        length += literal.start() - done
        pieces.append(value)
        length += len(value)
        ends.append(length)
        starts.append(literal.start())
        done = literal.end()
    if not pieces:
        return None
    pieces.append(text[done:])
    return StringsRead("".join(pieces), tuple(ends), tuple(starts))


def _read(written: str) -> str | None:
    """A string literal as its value, between its quotes; None when it reads as
    written: no escape, or no valid JSON string (a stray backslash, a lone
    surrogate escape such as \\ud83d alone, which is no character a text holds)."""
    if "\\" not in written:
        return None
    try:
        value = json.loads(written)
    except ValueError:
        return None
    if any("\ud800" <= c <= "\udfff" for c in value):
        return None
    read = f'"{value}"'
    return None if read == written else read


def not_escaped(subject: Val, verb: str, shown: str, hit: Callable[[str], int]) -> None:
    """Raise when a miss is a hit in a JSON file once its strings are read as their
    values, naming an escape of the string hit."""
    read = strings_read(subject.value, subject.prov)
    at = hit(read.text) if read is not None else -1
    if read is None or at < 0:
        return
    first = read.escape_near(subject.value, at)
    escape = subject.value[first:first + (6 if subject.value.startswith("\\u", first) else 2)]
    raise EvalError(f"{subject.label} {verb} {shown} only as its JSON strings read (the escape {escape} at "
                    f"{place_in(subject, first)}): its strings hold what the text as written does not, so it "
                    "cannot be decided")
