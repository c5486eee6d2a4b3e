"""The kinds of value the assertion language handles, and each value as data.

Numbers are ``int`` or ``Decimal`` and compare as Decimal; text never equals a
number (no coercion); ``True`` is never the number 1. ``type_name`` names a
value's kind in messages; ``plain`` and ``call_record`` give a record as the
JSON-like data a check takes whole; ``UnreadJson`` is a payload that looks like
JSON but could not be read as JSON, so what it holds is unknown.
"""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from typing import Any

from referee.engine.run.model import Note, Payload, ToolCall
from referee.engine.run.safejson import may_open_json


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
