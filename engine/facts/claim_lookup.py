"""Looking a claim up in the run's tool calls: the checking half of ``engine.facts.claims``.

``engine.facts.claims`` finds claims in the agent's words; the functions here say whether
the raw tool log backs each one, and where. Every lookup first tests the raw
payload text for a cheap substring (a quoted key, the digits of a number) before
walking the parsed JSON, because tool outputs are long and claims are few.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any, Iterator

QUOTE_MAX = 80
_ANY_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


class CallLog(tuple):
    """The run's calls, with the key lookup field claims need."""

    def __new__(cls, calls: Any) -> "CallLog":
        log = super().__new__(cls, calls)
        log._keys = {}  # name -> has_key(name): prose repeats words, the answer does not change
        return log

    def has_key(self, name: str) -> bool:
        """Is ``name`` a key of some JSON payload? Only payloads whose text holds
        ``"name"`` are walked: long tool outputs are skipped by a substring test."""
        known = self._keys.get(name)
        if known is None:
            known = self._keys[name] = self._find_key(name)
        return known

    def _find_key(self, name: str) -> bool:
        quoted = f'"{name}"'
        for call in self:
            for payload in (call.args, call.result):
                if payload is not None and payload.is_json and quoted in payload.text:
                    if any(path.rsplit(".", 1)[-1] == name for path, _ in scalars(payload.value, "")):
                        return True
        return False


def check_tool(name: str, needs_success: bool, before: float, calls: tuple) -> tuple[bool, str]:
    matching = [call for call in calls if _tool_matches(call.tool, name)]
    earlier = [call for call in matching if call.index < before]
    good = [call for call in earlier if not needs_success or succeeded(call)]
    if good:
        call = good[0]
        return True, f"[tool_calls] {call_where(call)}: {call.tool}, status {call.status or 'unknown'}"
    if earlier:
        return False, (f"{name} was called ({', '.join(call_where(c) for c in earlier)}) "
                       "but no call succeeded before the claim")
    if matching:
        return False, f"no [tool_calls] record of {name} before the claim; first call at {call_where(matching[0])}"
    return False, f"no [tool_calls] record of {name} in the transcript"


def check_field(key_ok: Any, field: str, value: str, before: float, calls: tuple,
                 probes: tuple[str, ...]) -> tuple[bool, str]:
    earlier = [call for call in calls if call.index < before]
    seen: list[str] = []
    for call in earlier:
        for path, found in _keyed_values(call, key_ok, probes):
            if _same_text(found, value):
                if succeeded(call):
                    return True, f"{call_where(call)} has {path} = {_show(found)}"
                seen.append(f"{call_where(call)} (status {call.status}) has {path} = {_show(found)}")
            else:
                seen.append(f"{call_where(call)} has {path} = {_show(found)}")
    for call in earlier:
        if call.result is not None and succeeded(call):
            for path, found in scalars(call.result.value, "return"):
                if _same_text(found, value):
                    return True, (f"the value appears in {call_where(call)} {path} (line {call.result.line})"
                                  f" = {_show(found)}")
    if seen:
        return False, "; ".join(seen[:3])
    return False, f"no tool call before the claim has {field}" + ("" if earlier else " (no tool calls at all)")


def number_index(calls: tuple, wanted: set[Decimal]) -> dict[Decimal, str]:
    """Where each wanted number first appears in a call's args or return.

    A payload is searched only when its raw text holds the digits of a wanted
    number (a plain substring test): long tool outputs are skipped cheaply.
    """
    probes = {_digits(number) for number in wanted}
    index: dict[Decimal, str] = {}
    for call in calls:
        for name, payload in (("args", call.args), ("return", call.result)):
            if payload is None or not any(probe in payload.text for probe in probes):
                continue
            for path, value in scalars(payload.value if payload.is_json else payload.text, name):
                for number in numbers_in(value):
                    if number in wanted:
                        index.setdefault(number, f"{call_where(call)} {path} (line {payload.line}) = {_show(value)}")
    return index


def _digits(number: Decimal) -> str:
    """Digits every written form of ``number`` contains ("168" for 168.00 and 168)."""
    whole = str(abs(number).to_integral_value(rounding="ROUND_FLOOR"))
    return whole if whole != "0" else ""


def numbers_in(value: Any) -> list[Decimal]:
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float, Decimal)):
        return [Decimal(str(value))]
    whole = decimal(str(value).strip())
    if whole is not None:
        return [whole]
    return [n for n in (decimal(t) for t in _ANY_NUMBER.findall(str(value))) if n is not None]


def _tool_matches(tool: str | None, name: str) -> bool:
    if not tool:
        return False
    if tool == name:
        return True
    return any(tool.endswith(sep + name) for sep in ("_", "__", ".", ":", "/", "-"))


def succeeded(call: Any) -> bool:
    return (call.status or "success").lower() in ("success", "ok", "succeeded")


def _keyed_values(call: Any, key_ok: Any, probes: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    for name, payload in (("args", call.args), ("return", call.result)):
        if payload is not None and payload.is_json and any(p in payload.text for p in probes):
            for path, value in scalars(payload.value, name):
                if key_ok(path.rsplit(".", 1)[-1]):
                    yield f"{path} (line {payload.line})", value


def scalars(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(dotted path, scalar) for every leaf of a JSON value, in document order."""
    stack = [(path, value)]
    while stack:
        here, item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed([(f"{here}.{k}" if here else str(k), v) for k, v in item.items()]))
        elif isinstance(item, list):
            stack.extend(reversed([(f"{here}[{i}]", v) for i, v in enumerate(item)]))
        else:
            yield here, item


def _same_text(found: Any, value: str) -> bool:
    if isinstance(found, bool):
        return str(found).lower() == value.lower()
    return found is not None and str(found) == value


def decimal(token: str) -> Decimal | None:
    try:
        number = Decimal(token)
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def call_where(call: Any) -> str:
    if call.step is None:
        return f"the call at {call.location}"
    return f"step {call.step} ({call.location})"


def _show(value: Any) -> str:
    return quote(value if isinstance(value, str) else str(value), '"')


def quote(text: str, mark: str = "") -> str:
    flat = " ".join(str(text).split())
    if len(flat) > QUOTE_MAX:
        flat = flat[: QUOTE_MAX - 1] + "…"
    return f"{mark}{flat}{mark}"
