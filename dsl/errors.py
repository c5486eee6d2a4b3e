"""Diagnostics of the assertion language: what went wrong, where, and a hint.

Every static problem in a rules file (syntax, a bad string, an unknown function, ...)
becomes a ``Diagnostic`` with a stable ``code``. Parsing and compiling collect all of
them before giving up and raise one ``RulesError`` carrying the list, so an author
sees every mistake of a file at once.

Codes reported by the parser: ``syntax``, ``bad-string``, ``bad-number``,
``bad-flag``, ``bad-format``, ``bad-status``, ``bad-index``, ``reserved-word``,
``unknown-source``, ``no-eval``, ``duplicate-let``, ``duplicate-expect``,
``duplicate-eval``, ``duplicate-key``, ``bad-evals``, ``too-deep``. Codes reported by the compiler:
``unknown-function``, ``wrong-arity``, ``unknown-name``, ``name-cycle``,
``unknown-field``, ``bad-regex``, ``bad-glob``, ``bad-jsonpath``, ``jsonpath-regex``,
``bad-operand``, ``bad-step``, ``bad-path``, ``unknown-eval``, ``ambiguous-eval``, ``unknown-input``,
``bad-input``, ``too-large``, ``duplicate-text`` (and ``unknown-source``
for a quantifier over a name that is neither a source nor a let). Warnings
(``severity`` "warning", from ``referee check --workspace``): ``unseen-tool``,
``unseen-field``, ``unseen-file``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Iterable

PARSER_CODES = (
    "syntax", "bad-string", "bad-number", "bad-flag", "bad-format", "bad-status",
    "bad-index", "reserved-word", "unknown-source", "no-eval", "duplicate-let",
    "duplicate-expect", "duplicate-eval", "duplicate-key", "bad-evals", "too-deep",
)
# Warnings of ``referee check --workspace``: what the rules read that no run has.
WARNING_CODES = ("unseen-tool", "unseen-field", "unseen-file")
COMPILER_CODES = (
    "unknown-function", "wrong-arity", "unknown-name", "name-cycle", "unknown-field",
    "bad-regex", "bad-glob", "bad-jsonpath", "jsonpath-regex", "bad-operand", "bad-step", "bad-path", "unknown-eval",
    "ambiguous-eval", "unknown-input", "bad-input", "too-large", "duplicate-text",
)


@dataclass
class Diagnostic:
    """One static error. ``line``/``column`` are 1-based; ``end_column`` is exclusive
    and on the same line (0 or less than ``column`` means a single caret).
    ``source_line`` is the text of ``line`` (without its newline), for the caret."""

    code: str
    message: str
    path: str
    line: int
    column: int
    end_column: int = 0
    hint: str | None = None
    source_line: str = ""
    severity: str = "error"  # or "warning": reported, but the rules are usable

    def location(self) -> str:
        """``path:line:col``, the prefix editors and terminals make clickable."""
        return f"{self.path}:{self.line}:{self.column}"


class RulesError(Exception):
    """Raised when a rules file (or an evals.json) has static errors; holds all of them."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=_order)
        first = self.diagnostics[0] if self.diagnostics else None
        summary = f"{first.location()}: error[{first.code}]: {first.message}" if first else ""
        more = len(self.diagnostics) - 1
        super().__init__(summary + (f" (and {more} more)" if more > 0 else ""))


def _order(d: Diagnostic) -> tuple:
    return (d.path, d.line, d.column, d.code, d.message)


def render(d: Diagnostic, color: bool = False) -> str:
    """The diagnostic as a person reads it::

        rules/x.rules:3:12: error[unknown-function]: unknown function 'cuont'
          expect 1: cuont(calls) == 1
                    ^^^^^
          = help: did you mean 'count'?
    """
    red, bold, reset = ("\x1b[31m", "\x1b[1m", "\x1b[0m") if color else ("", "", "")
    lines = [f"{bold}{d.location()}: {red}{d.severity}[{d.code}]{reset}{bold}: {d.message}{reset}"]
    if d.source_line and d.line > 0:
        shown = d.source_line.expandtabs(1)
        lines.append(f"  {shown}")
        width = max(1, d.end_column - d.column) if d.end_column > d.column else 1
        width = min(width, max(1, len(shown) - d.column + 1))
        before = shown[:max(0, d.column - 1)]
        span = shown[len(before):len(before) + width]
        lines.append("  " + " " * _cells(before) + red + "^" * max(1, _cells(span)) + reset)
    if d.hint:
        lines.append(f"  = help: {d.hint}")
    return "\n".join(lines)


def _cells(text: str) -> int:
    """The columns ``text`` takes in a terminal, so a caret stands under its span: two
    for a wide character (CJK, most emoji), none for a combining mark or an invisible
    format character (a zero-width space), one for the rest. Columns in locations
    still count characters, as editors do."""
    total = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def render_all(diagnostics: Iterable[Diagnostic], color: bool = False,
               texts: dict[str, str] | None = None) -> str:
    """Every diagnostic rendered, separated by a blank line, in file order. ``texts``
    (path -> file text) gives the source line to a diagnostic that came without one,
    as the compiler's do."""
    filled = (_with_source(d, texts or {}) for d in diagnostics)
    return "\n\n".join(render(d, color) for d in sorted(filled, key=_order))


def erring_files(diagnostics: Iterable[Diagnostic]) -> str:
    """Which files the errors stand in, as a clause (``evals.json has errors``): an
    evals.json is read as rules too, and "the rules" sent its author to the wrong file."""
    paths = list(dict.fromkeys(d.path for d in diagnostics))
    if not paths:
        return "the rules have errors"
    if len(paths) == 1:
        return f"{paths[0]} has errors"
    return f"{', '.join(paths[:-1])} and {paths[-1]} have errors"


def _with_source(d: Diagnostic, texts: dict[str, str]) -> Diagnostic:
    if d.source_line or d.line < 1 or d.path not in texts:
        return d
    return replace(d, source_line=line_of(texts[d.path], d.line))


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt ``word``, or None when nothing is close.

    Case differences count as close (``Count`` → ``count``)."""
    pool = sorted(set(candidates))
    lowered = {c.lower(): c for c in pool}
    if word.lower() in lowered and lowered[word.lower()] != word:
        return lowered[word.lower()]
    import difflib  # only a misspelling needs it, so a clean file never loads it

    found = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A ready-made hint ``did you mean 'x'?``, or None."""
    best = suggest(word, candidates)
    return f"did you mean '{best}'?" if best else None


_LONE_CR = re.compile(r"\r(?!\n)")


def line_of(text: str, line: int) -> str:
    """The text of the 1-based ``line`` of ``text`` without its line end ('' if none)."""
    if line < 1:
        return ""
    # Lines end as the parser counts them: at "\n", and at a lone "\r", which it reads
    # as a "\n" (dsl.parser); so does this, or carets would drift.
    parts = lone_cr_ended(text).split("\n")
    return parts[line - 1].rstrip("\r") if line <= len(parts) else ""


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of the character offset ``pos`` in ``text`` (a lone
    ``\r`` ends a line, as in ``line_of``)."""
    pos = max(0, min(pos, len(text)))
    head = lone_cr_ended(text[:pos + 1])  # one more: a "\r" right before pos may open a "\r\n"
    line = head.count("\n", 0, pos) + 1
    return line, pos - (head.rfind("\n", 0, pos) + 1) + 1


def lone_cr_ended(text: str) -> str:
    """``text`` with each lone ``\r`` a ``\n``: one character for another."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


__all__ = [
    "Diagnostic", "RulesError", "render", "render_all", "suggest", "did_you_mean",
    "line_of", "line_col", "PARSER_CODES", "COMPILER_CODES", "WARNING_CODES",
]


def unique(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, in order: one mistake seen by two passes (the parser and
    the compiler, or a file checked against several others) is reported once."""
    seen: set[tuple] = set()
    kept = []
    for d in diagnostics:
        key = (d.path, d.line, d.column, d.code)
        if key not in seen:
            seen.add(key)
            kept.append(d)
    return kept
