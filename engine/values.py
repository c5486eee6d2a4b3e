"""Runtime values of the assertion language, each with the place it came from.

A ``Val`` is a value plus its provenance (``Prov``): which evidence source, file,
line and step it was read from, and a label such as ``step 3 saveExpenseDoc
args.docStatus``. Checks quote that provenance in verdict messages and evidence.
A ``Missing`` stands for a value that is not there (absent field, empty
selection); comparisons with it FAIL, they never raise. ``EvalError`` is the one
exception evaluation uses internally; every check turns it into an ERROR verdict.

The kinds of value and their data form are ``engine.value_types``; values as
text are ``engine.value_text``. Both are importable from here too, where the
checks have always found them.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from referee.dsl.frozen import frozen
from referee.dsl.json_locate import child_offset, lines_before
from referee.engine.run.model import ToolCall
from referee.engine.value_text import (
    PLAIN_NUMBER_CHARS, QUOTE_LIMIT, canonical_number, parse_number, plain_size, quote_of, render, short,
    to_text,
)
from referee.engine.value_types import (
    UnreadJson, as_decimal, call_record, fold_case, is_number, plain, plain_top, shown_record, type_name,
    unread_json,
)
from referee.engine.verdict import Evidence

__all__ = [
    "Anchor", "Claim", "EvalError", "Missing", "Prov", "Result", "Val",
    # engine.value_text
    "PLAIN_NUMBER_CHARS", "QUOTE_LIMIT", "canonical_number", "parse_number", "plain_size", "quote_of", "render",
    "short", "to_text",
    # engine.value_types
    "UnreadJson", "as_decimal", "call_record", "fold_case", "is_number", "plain", "plain_top", "shown_record",
    "type_name", "unread_json",
]


class EvalError(Exception):
    """A runtime problem that makes a check an ERROR verdict (never escapes a check)."""

    def __init__(self, message: str, evidence: tuple[Evidence, ...] = ()):
        super().__init__(message)
        self.message = message
        self.evidence = evidence


@frozen
class Anchor:
    """Where a value sits in the JSON text of its payload: ``offset`` is where the
    value starts in ``text``, whose first line is file line ``first_line``; so a
    field, however deep and however the JSON is spread, is traced to its own line."""

    text: str
    offset: int
    first_line: int


@frozen
class Prov:
    """Where a value came from. ``file`` is relative to the run directory."""

    source: str
    label: str
    file: str | None = None
    line: int | None = None
    step: int | None = None
    anchor: Anchor | None = None

    def where(self) -> str:
        """``transcript.md:22``: the file relative to ``outputs/`` and the line."""
        if not self.file:
            return self.source
        name = self.file.removeprefix("outputs/")
        return name if self.line is None else f"{name}:{self.line}"

    def evidence(self, value: Any = None, quote: str | None = None) -> Evidence:
        text = quote if quote is not None else quote_of(value, self.source)
        line = self.line
        if quote is None and isinstance(value, ToolCall) and value.tool_line is not None:
            line = value.tool_line  # a call is quoted by its Tool: line, so cite that line
        return Evidence(self.source, self.file, line, self.step, text)

    def child(self, key: str | int) -> "Prov":
        """The provenance of ``value[key]``, following the payload text when known."""
        label = f"{self.label}[{key}]" if isinstance(key, int) else _join_label(self.label, key)
        line, anchor, parent = self.line, None, self.anchor
        if parent is not None:
            found = child_offset(parent.text, parent.offset, key)
            if found is not None:
                line = parent.first_line + lines_before(parent.text, found)
                anchor = Anchor(parent.text, found, parent.first_line)
        return Prov(self.source, label, self.file, line, self.step, anchor)


def _join_label(label: str, key: str) -> str:
    simple = key.replace("_", "a").isalnum()
    if not label:
        return key
    return f"{label}.{key}" if simple else f"{label}[{json.dumps(key, ensure_ascii=False)}]"


@frozen
class Claim:
    """Agent notes that mention a tool no call record shows (for FAIL evidence)."""

    message: str
    evidence: Evidence


_NOT_YET = object()  # an attribute's value before it is computed


@frozen
class Val:
    """A present value. ``items`` holds the elements of a selection with their own
    provenance; for plain JSON lists the elements are derived on demand."""

    value: Any
    prov: Prov | None = None
    items: tuple["Val", ...] | None = None
    claims: tuple[Claim, ...] = ()
    support: tuple["Val", ...] = ()  # the elements a derived value (a count) rests on
    empty: str = ""  # for an empty selection: why nothing was selected
    _evidence: ClassVar[Any] = _NOT_YET  # not a field: its evidence, once made (see evidence)

    @property
    def label(self) -> str:
        return self.prov.label if self.prov else render(self.value)

    def evidence(self) -> Evidence | None:
        """The evidence citing this value in its file; None for a value read from no
        file. Made once per value: a run's records are cited by one check after
        another (a count, a quantifier, ...)."""
        made = self._evidence
        if made is _NOT_YET:
            prov = self.prov
            made = prov.evidence(self.value) if prov is not None and prov.file else None
            # Not a field (eq, hash and repr never see it); set past the frozen __setattr__.
            object.__setattr__(self, "_evidence", made)
        return made


@frozen
class Missing:
    """A value that is not there, and why (``reason`` is a full sentence part)."""

    reason: str
    prov: Prov | None = None
    claims: tuple[Claim, ...] = ()


Result = Val | Missing
