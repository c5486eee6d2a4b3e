"""Runtime values of the assertion language, each with the place it came from.

A ``Val`` is a value plus its provenance (``Prov``): which evidence source, file,
line and step it was read from, and a label such as ``step 3 saveExpenseDoc
args.docStatus``. Checks quote that provenance in verdict messages and evidence.
A ``Missing`` stands for a value that is not there (absent field, empty
selection); comparisons with it FAIL, they never raise. ``EvalError`` is the one
exception evaluation uses internally; every check turns it into an ERROR verdict.

Numbers are ``int`` or ``Decimal`` and compare as Decimal; text never equals a
number (no coercion); ``True`` is never the number 1.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar

from referee.dsl.json_locate import child_offset, lines_before
from referee.engine.run.model import Note, Payload, ToolCall
from referee.engine.run.safejson import may_open_json
from referee.engine.verdict import Evidence

QUOTE_LIMIT = 120


class EvalError(Exception):
    """A runtime problem that makes a check an ERROR verdict (never escapes a check)."""

    def __init__(self, message: str, evidence: tuple[Evidence, ...] = ()):
        super().__init__(message)
        self.message = message
        self.evidence = evidence


@dataclass(frozen=True)
class Anchor:
    """Where a value sits in the JSON text of its payload: ``offset`` is where the
    value starts in ``text``, whose first line is file line ``first_line``; so a
    field, however deep and however the JSON is spread, is traced to its own line."""

    text: str
    offset: int
    first_line: int


@dataclass(frozen=True, init=False)
class Prov:
    """Where a value came from. ``file`` is relative to the run directory."""

    source: str
    label: str
    file: str | None = None
    line: int | None = None
    step: int | None = None
    anchor: Anchor | None = None

    def __init__(self, source: str, label: str, file: str | None = None, line: int | None = None,
                 step: int | None = None, anchor: Anchor | None = None) -> None:
        # see engine.verdict.FILLED
        self.__dict__.update(source=source, label=label, file=file, line=line, step=step, anchor=anchor)

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


@dataclass(frozen=True)
class Claim:
    """Agent notes that mention a tool no call record shows (for FAIL evidence)."""

    message: str
    evidence: Evidence


_NOT_YET = object()  # an attribute's value before it is computed


@dataclass(frozen=True, init=False)
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

    def __init__(self, value: Any, prov: Prov | None = None, items: tuple["Val", ...] | None = None,
                 claims: tuple[Claim, ...] = (), support: tuple["Val", ...] = (), empty: str = "") -> None:
        # see engine.verdict.FILLED
        self.__dict__.update(value=value, prov=prov, items=items, claims=claims, support=support, empty=empty)

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


@dataclass(frozen=True)
class Missing:
    """A value that is not there, and why (``reason`` is a full sentence part)."""

    reason: str
    prov: Prov | None = None
    claims: tuple[Claim, ...] = ()


Result = Val | Missing


# ----------------------------------------------------------------------------- types


def fold_case(text: str) -> str:
    """``text`` as ``ignoring case`` compares it: by Unicode's full case folding
    (``str.casefold``: ß and ss, ﬁ and fi are one), except that İ (U+0130) folds to
    i, as a regex's ``/i`` takes it: full folding gives i and a combining dot above,
    so "İSTANBUL" held no "istanbul". Each character folds on its own, and a text
    holds another only in whole characters (``checks.folding``)."""
    return text.replace("\u0130", "i").casefold()


def is_number(value: Any) -> bool:
    return isinstance(value, (int, Decimal, float)) and not isinstance(value, bool)


def as_decimal(value: Any) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


def type_name(value: Any) -> str:
    """The language's name for a value's type, as used in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, ToolCall):
        return "tool call"
    if isinstance(value, Note):
        return "note"
    return "object"


def plain(value: Any) -> Any:
    """JSON-like Python data for a value: records become dicts, tuples lists."""
    if isinstance(value, ToolCall):
        return call_record(value)
    if isinstance(value, Note):
        return {"step": value.step, "title": value.title, "text": value.text, "kind": value.kind}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def plain_top(value: Any) -> Any:
    """``plain(value)`` at the top only: a record as its dict, a tuple as a list,
    anything else as it is. For code that walks a value level by level (``equal``,
    ``includes``) and so meets each item in turn, instead of copying the whole
    value at every level."""
    if isinstance(value, ToolCall):
        return call_record(value)
    if isinstance(value, Note):
        return {"step": value.step, "title": value.title, "text": value.text, "kind": value.kind}
    if isinstance(value, tuple):
        return list(value)
    return value


def call_record(call: ToolCall) -> dict:
    """A call as data, for what takes it whole (``==``, ``in``, ``includes``,
    ``matches``, ``text(x)``, ``jsonpath``). A call unsure of a field cannot give
    it here either: its record would hold the value the import guessed (a status
    that may be an error read as "success"), so this is an EvalError, as reading
    the field is (``engine.checks.access.sure_of``)."""
    if call.unsure:
        # Loaded here: the access layer builds on values (its message names the call as checks do).
        from referee.engine.checks.access import call_val, unsure_error

        raise unsure_error(call_val(call), " and ".join(sorted(call.unsure)))
    return shown_record(call)


def shown_record(call: ToolCall) -> dict:
    """A call's fields as its record gives them, for a message (never for a decision)."""
    return {
        "tool": call.tool, "step": call.step, "title": call.title, "status": call.status,
        "args": _payload(call.args), "return": _payload(call.result), "index": call.index,
        "agent": call.agent,
    }


def _payload(payload: Payload | None) -> Any:
    if payload is None:
        return None
    return UnreadJson(payload.value) if unread_json(payload) else payload.value


class UnreadJson(str):
    """An Args or Return text that looks like a JSON object or array but could not be
    read as one (cut short, invalid, too deep, a number out of range). As text it is
    the text; what JSON value it holds cannot be known, so asking it for a field, or
    whether it equals, includes or matches a structure, is an ERROR, never "no"
    (which ``no calls where .args == {...}`` would take as a pass)."""


def unread_json(payload: Payload | None) -> bool:
    """Whether ``payload`` looks like a JSON object or array that could not be read as
    one: cut short or broken. Text that opens with a bracket no JSON document could
    open with (``[INFO] done``, ``{{name}}``) is text, as ``done`` is."""
    if payload is None or payload.is_json:
        return False
    value = payload.value
    return isinstance(value, str) and may_open_json(_visible(value))


def _visible(text: str) -> str:
    """``text`` from its first visible character: past white space and the characters
    a reader does not see (a byte order mark, a zero-width space: Unicode's format
    characters), which make JSON not JSON to the record grammar but not to a reader."""
    start = 0
    while start < len(text) and (text[start].isspace() or unicodedata.category(text[start]) == "Cf"):
        start += 1
    return text[start:]


# ------------------------------------------------------------------------- rendering


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
