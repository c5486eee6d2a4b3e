"""Field access on runtime values, keeping provenance down to the line.

``call.args.docStatus`` on a multi-line ``Args:`` block points at the line where
``"docStatus"`` is written; a CSV row's column at the row's line.
"""

from __future__ import annotations

from typing import Any

from referee.engine.checks.held_json import held_json, held_json_error
from referee.engine.checks.keys import key_of
from referee.engine.checks.near_keys import near_key, near_key_error
from referee.engine.run.model import Note, Payload, ToolCall
from referee.engine.values import (Anchor, EvalError, Missing, Prov, Result, UnreadJson, Val, render, type_name,
                                   unread_json)


class UnsureError(EvalError):
    """An EvalError because the call ``call`` (labelled ``label``) cannot give
    ``fields`` for certain; a check, which has the run at hand, names the run's
    warning that says why, when there is one (``engine.checks.unsure_why``)."""

    def __init__(self, message: str, call: ToolCall, fields: str, label: str):
        super().__init__(message)
        self.call = call
        self.fields = fields
        self.label = label


CALL_FIELDS = ("tool", "step", "title", "status", "args", "return", "index", "agent")
NOTE_FIELDS = ("step", "title", "text", "kind")


def call_label(call: ToolCall) -> str:
    # The tool name is the log's own record; the heading title is free text.
    name = call.tool or call.title or "call"
    label = f"step {call.step} {name}" if call.step is not None else f"{name} call"
    return label if call.agent == "main" else f"subagent {call.agent} {label}"


def call_val(call: ToolCall) -> Val:
    """A call as a value. A suspect record (see engine.run.transcript) is evidence of
    the ``suspect_calls`` source: agent-text trust, and a PASS resting on it fails."""
    return Val(call, _call_prov(call))


def _call_prov(call: ToolCall) -> Prov:
    loc = call.location
    if call.suspect is not None:
        return Prov("suspect_calls", f"{call_label(call)} (untrusted record)", loc.file, loc.line, call.step)
    return Prov("tool_calls", call_label(call), loc.file, loc.line, call.step)


def unsure_message(val: Val, key: str) -> str:
    """Why a record cannot answer for ``key`` (an ERROR, never a guess): it is suspect,
    or (a trusted one) its source held a value the import could not show whole, or it
    gives no status while a value of it holds a Status line."""
    call = val.value
    if call.suspect is None:
        return (f"{val.label} cannot give its {key} for certain: it could not be read or shown whole (cut or "
                f"not JSON in its source, a Status line inside a value, or a tool name holding a character a "
                f"reader cannot see; see the run's warnings)")
    return f"{val.label} cannot give its {key} for certain: it is {call.suspect}"


def unsure_error(val: Val, key: str) -> UnsureError:
    """The ERROR of reading ``key`` of the call ``val`` is unsure of (``unsure_message``)."""
    return UnsureError(unsure_message(val, key), val.value, key, val.label)


def sure_of(val: Val, key: str | int) -> ToolCall:
    """The call ``val`` holds, when it can give its ``key`` for certain; an ERROR when
    it is a suspect record unsure of it. Every read of a call's field goes through
    here: a field's value, and the tool and status a selection filters on."""
    call = val.value
    if key in call.unsure:
        raise unsure_error(val, str(key))
    return call


def note_val(note: Note) -> Val:
    """A note as a value; its kind (``agent_notes`` or ``harness``) is its evidence source."""
    return Val(note, _note_prov(note))


def _note_prov(note: Note) -> Prov:
    loc = note.location
    label = f"{note.kind} step {note.step}" if note.step is not None else f"{note.kind} {note.title}"
    return Prov(note.kind, label, loc.file, loc.line, note.step)


def elements(val: Val) -> tuple[Val, ...]:
    """The elements of a list value with their provenance; () for non-lists."""
    if val.items is not None:
        return val.items
    if isinstance(val.value, (list, tuple)):
        return tuple(_child(val, i, v) for i, v in enumerate(val.value))
    return ()


def get(val: Val, key: str | int) -> Result:
    """``val.key`` / ``val[key]``: a Val, or Missing saying what is absent."""
    value = val.value
    if isinstance(value, ToolCall):
        return _call_field(val, value, key)
    if isinstance(value, Note):
        return _note_field(val, value, key)
    if isinstance(value, dict):
        try:
            written = key_of(value, key) if isinstance(key, str) else None
        except EvalError as exc:
            raise EvalError(f"{val.label}: {exc}") from None
        if written is not None:
            return _child(val, written, value[written])
        near = near_key(value, key) if isinstance(key, str) else None
        if near is not None and isinstance(key, str):
            raise near_key_error(val.label, key, near)
        return Missing(f"{val.label} has no field {render(key)}", val.prov)
    if isinstance(value, (list, tuple)):
        return _index(val, key)
    if isinstance(value, UnreadJson):
        raise EvalError(f"{val.label} looks like JSON but could not be read as JSON (see the run's "
                        f"warnings), so its field {render(key)} cannot be known")
    held = held_json(value)
    if held is not None:
        raise held_json_error(val.label, f"its field {render(key)}" if isinstance(key, str) else f"its item [{key}]",
                              held)
    return Missing(f"{val.label} is {type_name(value)}, it has no field {render(key)}", val.prov)


def _child(val: Val, key: str | int, value: Any) -> Val:
    prov = val.prov.child(key) if val.prov is not None else None
    return Val(value, prov)


def _index(val: Val, key: str | int) -> Result:
    items = elements(val)
    if not isinstance(key, int):
        return Missing(f"{val.label} is a list, it has no field {render(key)}", val.prov)
    if -len(items) <= key < len(items):
        return items[key]
    return Missing(f"{val.label} has {len(items)} items, no item [{key}]", val.prov)


def _call_field(val: Val, call: ToolCall, key: str | int) -> Result:
    prov = val.prov or _call_prov(call)
    sure_of(val if val.prov is not None else Val(call, prov), key)
    if key in ("args", "return"):
        return _payload_val(prov, key, call.args if key == "args" else call.result)
    if key not in CALL_FIELDS:
        return Missing(f"a tool call has no field {render(key)}", prov)
    value = call.result if key == "return" else getattr(call, str(key))
    if value is None:
        return Missing(f"{prov.label} has no {key}", prov)
    line = {"tool": call.tool_line, "status": call.status_line}.get(str(key), prov.line)
    return Val(value, Prov(prov.source, f"{prov.label} {key}", prov.file, line, prov.step))


def _payload_val(prov: Prov, key: str, payload: Payload | None) -> Result:
    if payload is None:
        return Missing(f"{prov.label} has no {'Args' if key == 'args' else 'Return'} line", prov)
    # A payload written on one line holds every field on that line: no field needs
    # looking up in its text to be placed (Prov.child keeps the line it has).
    anchor = Anchor(payload.text, 0, payload.line) if payload.is_json and "\n" in payload.text else None
    value = payload.value
    if unread_json(payload):
        value = UnreadJson(value)
    return Val(value, Prov(prov.source, f"{prov.label} {key}", prov.file, payload.line,
                                   prov.step, anchor))


def _note_field(val: Val, note: Note, key: str | int) -> Result:
    prov = val.prov or _note_prov(note)
    if key not in NOTE_FIELDS:
        return Missing(f"a note has no field {render(key)}", prov)
    value = getattr(note, str(key))
    if value is None:
        return Missing(f"{prov.label} has no {key}", prov)
    line = prov.line
    if key == "text" and prov.line is not None:  # where the text's first character is
        line = note.text_line if note.text_line is not None else prov.line + 1
    return Val(value, Prov(prov.source, f"{prov.label} {key}", prov.file, line, prov.step))
