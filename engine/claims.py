"""Claims the agent makes that the raw tool log can confirm or refute.

Three kinds, each found by a narrow pattern so that a claim is reported only when
it is plainly one (precision over recall):

1. A tool was called (``process``), in agent notes or other agent prose:
   "已调用 X" / "调用了 X" / "执行了 X"; "called X", "invoked X", "ran X", "used X";
   "ran the ... script with X" / "using X" / "via X"; "X 成功" / "X succeeded" (a
   successful call). X must look like a tool: the name (or its last segment) of a
   tool in this transcript, a camelCase or snake_case word, or a common agent tool
   (Bash, Read, Write, ...). Verified by a ``[tool_calls]`` record of X before the note.
2. A field or status was set (``factual``), in notes and in the response:
   "docStatus=10", "docStatus: 10", "docStatus 为 10"; "状态为 10", "status is 10"
   (any key named like ``*status``). The field must be camelCase/snake_case or a key
   of some call. URL query parameters (after ``?`` or ``&``) are not claims.
   Verified by a call, before the note, whose args or return hold that key with
   that value (as text); failing that, by the value appearing in a call's return
   (an id the agent read back). A value seen only in a failed call is not enough.
3. A number in the response (``factual``): a number of two or more characters that
   is not part of a word, URL, date or time ("2026 年", "2 月", "2026-01-28", "10:30")
   and not inside a claim of kind 2. Verified when a call's args or return hold the
   same number (compared as decimals: "168" equals "168.00"), as a JSON value, a
   numeric string, or a number inside a string (a CSV a tool printed).

Evidence always names file:line of the claim and of the call, or says that no call
backs it. Order: notes in transcript order, then the response; within a text, by
position. At most ``MAX_CLAIMS`` claims per run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Iterator

MAX_CLAIMS = 40
_QUOTE_MAX = 80
IDENT = r"[A-Za-z_][A-Za-z0-9_\-.]*[A-Za-z0-9_]|[A-Za-z_]"
_Q = r"[`\"'“”‘’]?"
COMMON_TOOLS = frozenset({
    "Bash", "Read", "Write", "Edit", "MultiEdit", "Grep", "Glob", "LS", "WebFetch",
    "WebSearch", "Task", "NotebookEdit", "TodoWrite",
})

_TOOL_PATTERNS = (
    re.compile(rf"(?:已经?|已)?(?:调用|执行|运行)(?:了|过)?\s*{_Q}(?P<name>{IDENT})"),
    re.compile(rf"\b(?:called|invoked|ran|executed|used|calling|invoking)\s+(?:the\s+)?"
               rf"(?:tool\s+)?{_Q}(?P<name>{IDENT})", re.IGNORECASE),
    re.compile(rf"\b(?:ran|run|executed|called|invoked)\b[^.\n。；;]{{0,80}}?\b(?:with|using|via)"
               rf"\s+(?:the\s+)?{_Q}(?P<name>{IDENT})", re.IGNORECASE),
    re.compile(rf"(?P<name>{IDENT}){_Q}\s*(?:调用)?(?P<ok>成功|succeeded|was successful)"),
)
_FIELD_PATTERN = re.compile(
    rf"(?<![A-Za-z0-9_?&/=.])(?P<field>{IDENT})\s*(?:=|:|：|为|是|\bis\b|\bwas set to\b)\s*"
    rf"{_Q}(?P<value>[\w.\-]+)")
_STATUS_PATTERN = re.compile(
    rf"(?:状态(?:为|是|=|:|：)|\bstatus\s+(?:is|was|=|:)\s*)\s*{_Q}(?P<value>[\w.\-]+)",
    re.IGNORECASE)
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.\-/=?&#:])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                     r"(?![A-Za-z0-9_\-/:]|\.\d)")
_DATE_SUFFIX = re.compile(r"\s*(?:年|月|日|号|时|点|分|秒)")
_ANY_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass(frozen=True)
class ClaimResult:
    """One checked claim; ``type`` is ``process`` or ``factual``."""

    claim: str
    type: str
    verified: bool
    evidence: str


@dataclass(frozen=True)
class _Text:
    kind: str  # "agent_notes" or "response"
    label: str  # "agent_notes step 3", "response"
    file: str
    text: str
    index: float  # transcript position; the response comes after every call
    line_of: Any  # callable: offset in text -> line number


def find_claims(run: Any) -> list[ClaimResult]:
    """Every claim found in the run's notes and response, checked against its calls."""
    calls = _CallLog(run.transcript.calls)
    known = _known_names(calls)
    results: list[ClaimResult] = []
    for text in _texts(run):
        results.extend(_claims_in(text, calls, known))
        if len(results) >= MAX_CLAIMS:
            return results[:MAX_CLAIMS]
    return results


class _CallLog(tuple):
    """The run's calls, with the key lookup field claims need."""

    def has_key(self, name: str) -> bool:
        """Is ``name`` a key of some JSON payload? Only payloads whose text holds
        ``"name"`` are walked: long tool outputs are skipped by a substring test."""
        quoted = f'"{name}"'
        for call in self:
            for payload in (call.args, call.result):
                if payload is not None and payload.is_json and quoted in payload.text:
                    if any(path.rsplit(".", 1)[-1] == name for path, _ in _scalars(payload.value, "")):
                        return True
        return False



def _claims_in(text: _Text, calls: _CallLog, known: set[str]) -> Iterator[ClaimResult]:
    found: list[tuple[int, ClaimResult]] = []
    covered: list[tuple[int, int]] = []
    if text.kind == "agent_notes":
        found.extend(_tool_claims(text, calls, known))
    for start, end, result in _field_claims(text, calls, known):
        covered.append((start, end))
        found.append((start, result))
    if text.kind == "response":
        found.extend(_number_claims(text, calls, covered))
    found.sort(key=lambda item: item[0])
    return (result for _, result in found)


# ---- where the claims are -------------------------------------------------------


def _texts(run: Any) -> Iterator[_Text]:
    transcript = run.transcript
    raw = _raw_lines(run, transcript)
    for note in transcript.notes:
        if note.kind != "agent_notes" and note.title.strip().lower() == "eval prompt":
            continue  # the user's words, not the agent's
        where = f"{note.kind} step {note.step}" if note.step is not None else note.kind
        yield _Text("agent_notes", where, note.location.file, note.text, note.index,
                    _note_line_finder(note, raw))
    response = run.response
    if response is not None and response.text:
        body = response.text
        yield _Text("response", "response", response.path, body, float("inf"),
                    lambda offset, _t=body: _t.count("\n", 0, offset) + 1)


def _raw_lines(run: Any, transcript: Any) -> list[str]:
    if not transcript.notes or not run.exists_output("transcript.md"):
        return []
    text = run.read_output("transcript.md").text
    return text.splitlines() if text else []


def _note_line_finder(note: Any, raw: list[str]) -> Any:
    """Lines are looked up in the raw file: a note's text may be trimmed by the loader."""
    heading = note.location.line or 1

    def line_of(offset: int, needle: str = "") -> int:
        probe = needle.strip()[:40]
        for number in range(heading, len(raw) + 1):
            if probe and probe in raw[number - 1]:
                return number
        return heading + 1 + note.text.count("\n", 0, offset)

    return line_of


def _where(text: _Text, offset: int, needle: str) -> str:
    if text.kind == "agent_notes":
        line = text.line_of(offset, needle)
    else:
        line = text.line_of(offset)
    return f"{text.file}:{line} ({text.label})"


# ---- tool-call claims -----------------------------------------------------------


def _tool_claims(text: _Text, calls: tuple, known: set[str]) -> Iterator[tuple[int, ClaimResult]]:
    seen: set[str] = set()
    for pattern in _TOOL_PATTERNS:
        for match in pattern.finditer(text.text):
            name = match.group("name")
            needs_success = bool(match.groupdict().get("ok"))
            if not _looks_like_tool(name, known) or (name, needs_success) in seen:
                continue
            seen.add((name, needs_success))
            quote = _quote(match.group(0))
            verified, detail = _check_tool(name, needs_success, text.index, calls)
            evidence = f'{_where(text, match.start(), match.group(0))} says "{quote}"; {detail}'
            yield match.start(), ClaimResult(f"{name} was called" + (" successfully" if needs_success else ""),
                                             "process", verified, evidence)


def _check_tool(name: str, needs_success: bool, before: float, calls: tuple) -> tuple[bool, str]:
    matching = [call for call in calls if _tool_matches(call.tool, name)]
    earlier = [call for call in matching if call.index < before]
    good = [call for call in earlier if not needs_success or _succeeded(call)]
    if good:
        call = good[0]
        return True, f"[tool_calls] {_call_where(call)}: {call.tool}, status {call.status or 'unknown'}"
    if earlier:
        return False, (f"{name} was called ({', '.join(_call_where(c) for c in earlier)}) "
                       "but no call succeeded before the claim")
    if matching:
        return False, f"no [tool_calls] record of {name} before the claim; first call at {_call_where(matching[0])}"
    return False, f"no [tool_calls] record of {name} in the transcript"


# ---- field and status claims ----------------------------------------------------


def _field_claims(text: _Text, calls: _CallLog, known: set[str]) -> Iterator[tuple[int, int, ClaimResult]]:
    for match in _overlapping(_FIELD_PATTERN, text.text):
        field = match.group("field")
        if not (_is_code_name(field) or calls.has_key(field)):
            continue
        if field in known:  # "saveExpenseDoc 为 ..." is about a tool, not a field
            continue
        yield _field_result(text, match, field.__eq__, field, calls, (f'"{field}"',))
    for match in _STATUS_PATTERN.finditer(text.text):
        yield _field_result(text, match, _is_status_key, "status", calls, ('tatus"', 'TATUS"'))


def _field_result(text: _Text, match: re.Match, key_ok: Any, field: str, calls: tuple,
                  probes: tuple[str, ...]) -> tuple[int, int, ClaimResult]:
    value = match.group("value")
    verified, detail = _check_field(key_ok, field, value, text.index, calls, probes)
    evidence = f'{_where(text, match.start(), match.group(0))} says "{_quote(match.group(0))}"; {detail}'
    claim = f"{field} is {value}"
    return match.start(), match.end(), ClaimResult(claim, "factual", verified, evidence)


def _check_field(key_ok: Any, field: str, value: str, before: float, calls: tuple,
                 probes: tuple[str, ...]) -> tuple[bool, str]:
    earlier = [call for call in calls if call.index < before]
    seen: list[str] = []
    for call in earlier:
        for path, found in _keyed_values(call, key_ok, probes):
            if _same_text(found, value):
                if _succeeded(call):
                    return True, f"{_call_where(call)} has {path} = {_show(found)}"
                seen.append(f"{_call_where(call)} (status {call.status}) has {path} = {_show(found)}")
            else:
                seen.append(f"{_call_where(call)} has {path} = {_show(found)}")
    for call in earlier:
        if call.result is not None and _succeeded(call):
            for path, found in _scalars(call.result.value, "return"):
                if _same_text(found, value):
                    return True, (f"the value appears in {_call_where(call)} {path} (line {call.result.line})"
                                  f" = {_show(found)}")
    if seen:
        return False, "; ".join(seen[:3])
    return False, f"no tool call before the claim has {field}" + ("" if earlier else " (no tool calls at all)")


def _overlapping(pattern: re.Pattern, text: str) -> Iterator[re.Match]:
    """Matches that may start inside a rejected one ("Note: fdId=1" holds "fdId=1")."""
    position = 0
    while (match := pattern.search(text, position)) is not None:
        yield match
        position = match.start() + 1


def _is_status_key(key: str) -> bool:
    return key.lower().endswith("status")


# ---- numbers in the response ----------------------------------------------------


def _number_claims(text: _Text, calls: _CallLog,
                   covered: list[tuple[int, int]]) -> Iterator[tuple[int, ClaimResult]]:
    found: list[tuple[re.Match, Decimal]] = []
    seen: set[Decimal] = set()
    for match in _NUMBER.finditer(text.text):
        token = match.group(0)
        if len(token.lstrip("+-")) < 2 or _DATE_SUFFIX.match(text.text, match.end()):
            continue
        if any(start <= match.start() < end for start, end in covered):
            continue
        number = _decimal(token.replace(",", ""))
        if number is not None and number not in seen:
            seen.add(number)
            found.append((match, number))
    index = _number_index(calls, seen) if found else {}
    for match, number in found:
        token = match.group(0)
        where = _where(text, match.start(), token)
        source = index.get(number)
        detail = f"equals {source}" if source else "no tool call's args or return holds this number"
        yield match.start(), ClaimResult(f"the response states {token}", "factual", source is not None,
                                         f'{where} says "{token}"; {detail}')


def _number_index(calls: tuple, wanted: set[Decimal]) -> dict[Decimal, str]:
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
            for path, value in _scalars(payload.value if payload.is_json else payload.text, name):
                for number in _numbers_in(value):
                    if number in wanted:
                        index.setdefault(number, f"{_call_where(call)} {path} (line {payload.line}) = {_show(value)}")
    return index


def _digits(number: Decimal) -> str:
    """Digits every written form of ``number`` contains ("168" for 168.00 and 168)."""
    whole = str(abs(number).to_integral_value(rounding="ROUND_FLOOR"))
    return whole if whole != "0" else ""


def _numbers_in(value: Any) -> list[Decimal]:
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float, Decimal)):
        return [Decimal(str(value))]
    whole = _decimal(str(value).strip())
    if whole is not None:
        return [whole]
    return [n for n in (_decimal(t) for t in _ANY_NUMBER.findall(str(value))) if n is not None]


# ---- helpers --------------------------------------------------------------------


def _known_names(calls: tuple) -> set[str]:
    names: set[str] = set()
    for call in calls:
        if call.tool:
            names.add(call.tool)
            names.add(re.split(r"__|[_.:/]", call.tool)[-1])
    return names


def _looks_like_tool(name: str, known: set[str]) -> bool:
    return name in known or name in COMMON_TOOLS or _is_code_name(name)


def _is_code_name(name: str) -> bool:
    """camelCase or snake_case: a word a person writes only when naming code."""
    return bool(re.search(r"[a-z][A-Z]", name)) or ("_" in name.strip("_") and not name.isupper())


def _tool_matches(tool: str | None, name: str) -> bool:
    if not tool:
        return False
    if tool == name:
        return True
    return any(tool.endswith(sep + name) for sep in ("_", "__", ".", ":", "/", "-"))


def _succeeded(call: Any) -> bool:
    return (call.status or "success").lower() in ("success", "ok", "succeeded")


def _keyed_values(call: Any, key_ok: Any, probes: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    for name, payload in (("args", call.args), ("return", call.result)):
        if payload is not None and payload.is_json and any(p in payload.text for p in probes):
            for path, value in _scalars(payload.value, name):
                if key_ok(path.rsplit(".", 1)[-1]):
                    yield f"{path} (line {payload.line})", value


def _scalars(value: Any, path: str) -> Iterator[tuple[str, Any]]:
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


def _decimal(token: str) -> Decimal | None:
    try:
        number = Decimal(token)
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def _call_where(call: Any) -> str:
    if call.step is None:
        return f"the call at {call.location}"
    return f"step {call.step} ({call.location})"


def _show(value: Any) -> str:
    return _quote(value if isinstance(value, str) else str(value), '"')


def _quote(text: str, mark: str = "") -> str:
    flat = " ".join(str(text).split())
    if len(flat) > _QUOTE_MAX:
        flat = flat[: _QUOTE_MAX - 1] + "…"
    return f"{mark}{flat}{mark}"
