"""Values as text: in messages and evidence quotes (``render``, ``quote_of``), as a
check reads them (``to_text``), and numbers written out and read back
(``canonical_number``, ``parse_number``).

Printing never costs more than a value's own characters: a number too long to
write out keeps its exponent, a quote is cut to ``QUOTE_LIMIT``.
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from typing import Any

from referee.engine.run.model import Note, ToolCall
from referee.engine.value_types import as_decimal, is_number, plain_top, shown_record

QUOTE_LIMIT = 120


def render(value: Any) -> str:
    """Compact JSON-like text for a value, for a message: strings quoted, numbers as
    written, a call as its record gives it (``to_text`` is the text a check reads)."""
    if type(value) is str:  # the most common value, and plain() keeps it as it is
        return _ENCODER.encode(value)
    return _encoded(_shown_top(value), _ENCODER)


def _encoded(value: Any, encoder: json.JSONEncoder) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if is_number(value):
        return canonical_number(value)
    return encoder.encode(value)  # records inside become dicts as they are met (its default)


def _shown_top(value: Any) -> Any:
    return shown_record(value) if isinstance(value, ToolCall) else plain_top(value)


def _json_default(value: Any) -> Any:
    if isinstance(value, (ToolCall, Note)):
        return _shown_top(value)
    return _number_default(value)


def _data_default(value: Any) -> Any:
    if isinstance(value, (ToolCall, Note)):
        return plain_top(value)
    return _number_default(value)


def _number_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        if not value.is_finite():
            # json writes NaN, Infinity, -Infinity as such (float() refuses a signaling NaN)
            return float("nan") if value.is_nan() else float(value)
        if not plain_size(value):
            return canonical_number(value)  # too long for a JSON number: shown as text
        return float(value) if value != value.to_integral_value() else int(value)
    return str(value)


# What json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_json_default)
# builds on every call, built once.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_json_default)
# The same for text a check reads (``to_text``): a call in it is data (``call_record``).
_DATA_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_data_default)

# Beyond this many characters a number is printed with an exponent: written out in
# full, 1e-999999999 is a billion digits.
PLAIN_NUMBER_CHARS = 60


def canonical_number(value: Any) -> str:
    """A number as text without exponent: 168.00 stays 168.00, 1E+3 becomes 1000.

    A number too long to write out (``PLAIN_NUMBER_CHARS``) keeps its exponent
    (``1E-999999999``), and NaN and the infinities read ``NaN``, ``Infinity``,
    ``-Infinity``: printing never costs more than the number's own digits.
    """
    if isinstance(value, int):
        return str(value) if value.bit_length() < 3000 else format(Decimal(value), "E")
    dec = as_decimal(value)
    if not dec.is_finite():
        return "NaN" if dec.is_nan() else ("-Infinity" if dec < 0 else "Infinity")
    return format(dec, "f") if plain_size(dec) else str(dec)


def plain_size(dec: Decimal) -> bool:
    """True when ``dec`` written without exponent is at most ``PLAIN_NUMBER_CHARS`` long
    (never for NaN and the infinities, whose exponent is a letter)."""
    sign, digits, exponent = dec.as_tuple()
    if not isinstance(exponent, int):
        return False
    if exponent >= 0:
        width = len(digits) + exponent
    else:  # a point, and a leading "0" when every digit falls after it
        width = len(digits) + 1 if -exponent < len(digits) else -exponent + 2
    return sign + width <= PLAIN_NUMBER_CHARS


def quote_of(value: Any, source: str) -> str:
    """What evidence quotes for a value: a record's headline (a note's title, on
    its heading line), the first line of a document, or the value as it is
    written in JSON."""
    if value is None:
        return ""
    if isinstance(value, ToolCall):
        if value.tool is None:  # its record names no tool: no word of the cited line to quote
            return ""
        return f"Tool: {value.tool}" if value.tool_line is not None else f"{value.tool} call"
    if isinstance(value, Note):
        if value.title.strip():  # a note is cited at its heading, which holds its title
            return short(value.title.strip())
        return short(next((t.strip() for t in value.text.splitlines() if t.strip()), ""))
    if isinstance(value, str) and source in _DOCUMENT_SOURCES:
        return short(next((t.strip() for t in value.splitlines() if t.strip()), ""))
    return short(render(value))


_DOCUMENT_SOURCES = frozenset({"response", "outputs", "agent_notes"})


def short(text: str, limit: int = QUOTE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_text(value: Any) -> str:
    """``text(x)``: text unchanged, numbers canonical, anything else compact JSON."""
    return value if isinstance(value, str) else _encoded(plain_top(value), _DATA_ENCODER)


def parse_number(text: str) -> Decimal | None:
    """Decimal for a text that is a plain number ("168.00", "-3", "1e3"), else None."""
    stripped = text.strip()
    if not stripped or not _NUMBER_CHARS.issuperset(stripped):
        return None
    try:
        dec = Decimal(stripped)
    except InvalidOperation:
        return None
    return dec if dec.is_finite() else None


_NUMBER_CHARS = frozenset("0123456789+-.eE")
