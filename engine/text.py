"""Small helpers that run facts and reports both need, kept below both.

``engine.facts`` derives facts from a run; ``engine.report`` writes them out. Facts
never import the report, so what both use lives here.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.compile import CompiledAssertion


def plain(value: Any) -> Any:
    """A copy of ``value`` holding only JSON types.

    Loaders parse JSON floats as ``Decimal`` (exact comparisons); a report writes
    them back as floats, which round-trip the same digits for ordinary values.
    Non-finite numbers and other objects become their text, so a report never
    holds something ``json.dumps`` would reject or write as ``NaN``.
    """
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, Decimal):
        number = float(value)
        return number if math.isfinite(number) else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return str(value)


def file_lines(text: str) -> list[str]:
    """The lines of a file as every place that cites one counts them (the transcript's
    parser, evidence, the viewer, an editor): ended by ``\n``, ``\r\n`` or a lone
    ``\r``, never by the other characters ``str.splitlines`` takes for line ends
    (a form feed, U+2028), which sit inside a line of the file."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def line_breaks(text: str, start: int = 0, end: int | None = None) -> int:
    """How many lines end in ``text[start:end]``, counted as ``file_lines`` counts
    them: a ``\r\n`` is one line end, a lone ``\r`` one too."""
    part = text[start:end]
    return part.count("\n") + part.count("\r") - part.count("\r\n")


def line_end(text: str, start: int) -> int:
    """Where the line of ``text`` holding offset ``start`` ends (its ``\n``, or its
    ``\r``: a lone one, or the first of a ``\r\n``), or the end of the text."""
    ends = [found for found in (text.find("\n", start), text.find("\r", start)) if found >= 0]
    return min(ends) if ends else len(text)


def surrogates_escaped(text: str) -> str:
    """``text`` with each lone surrogate written as its escape, as every report of
    referee writes it: a byte of a file name that is not UTF-8 (``caf\\udce9.txt``), or
    the JSON escape ``\\ud800`` a sentence of evals.json or a value of a run held, which is
    no text. Written so, a text encodes as UTF-8 (which has no lone surrogate), and JSON
    reads the escape back as the same value."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def ascii_digits(text: str, most: int | None = None) -> bool:
    """Whether ``text`` is a whole number written in 0-9 (at most ``most`` of them),
    which ``int()`` reads. ``str.isdigit()`` is also true of ², ① and other digits
    ``int()`` refuses, and of other scripts' digits, which ``int()`` reads (٣ is 3) though
    no one wrote 0-9; and ``int()`` refuses a run of more than 4,300 digits: text read
    from a file or a command line is asked this before ``int()`` is."""
    return text.isascii() and text.isdigit() and (most is None or len(text) <= most)


def count(number: int, word: str, plural: str | None = None) -> str:
    """``1 run``, ``2 runs``, ``1 tool call``: a number and its noun, agreeing."""
    return f"{number} {word if number == 1 else plural or word + 's'}"


def display_text(assertion: CompiledAssertion) -> str:
    """Never empty: consumers key rows by this text ("expect 8" alone, with no
    evals.json to give its sentence, falls back to its place in the rules)."""
    return assertion.text or assertion.check_source or f"assertion {assertion.key} ({assertion.rules_location})"
