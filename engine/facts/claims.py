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
from decimal import Decimal
from typing import Any, Iterator

from referee.engine.facts.claim_lookup import CallLog, check_field, check_tool, decimal, number_index, quote

MAX_CLAIMS = 40
IDENT = r"[A-Za-z_][A-Za-z0-9_\-.]*[A-Za-z0-9_]|[A-Za-z_]"
_Q = r"[`\"'“”‘’]?"
COMMON_TOOLS = frozenset({
    "Bash", "Read", "Write", "Edit", "MultiEdit", "Grep", "Glob", "LS", "WebFetch",
    "WebSearch", "Task", "NotebookEdit", "TodoWrite",
})

# Each pattern with a literal it cannot match without (same flags): texts lacking
# it are skipped, since scanning every identifier of a long note for the fourth
# pattern costs more than all the rest of the claim search.
_TOOL_PATTERNS = (
    (re.compile("调用|执行|运行"),
     re.compile(rf"(?:已经?|已)?(?:调用|执行|运行)(?:了|过)?\s*{_Q}(?P<name>{IDENT})")),
    (re.compile("called|invoked|ran|executed|used|calling|invoking", re.IGNORECASE),
     re.compile(rf"\b(?:called|invoked|ran|executed|used|calling|invoking)\s+(?:the\s+)?"
                rf"(?:tool\s+)?{_Q}(?P<name>{IDENT})", re.IGNORECASE)),
    (re.compile("with|using|via", re.IGNORECASE),
     re.compile(rf"\b(?:ran|run|executed|called|invoked)\b[^.\n。；;]{{0,80}}?\b(?:with|using|via)"
                rf"\s+(?:the\s+)?{_Q}(?P<name>{IDENT})", re.IGNORECASE)),
    (re.compile("成功|succeeded|was successful"),
     re.compile(rf"(?P<name>{IDENT}){_Q}\s*(?:调用)?(?P<ok>成功|succeeded|was successful)")),
)
_FIELD_PATTERN = re.compile(
    rf"(?<![A-Za-z0-9_?&/=.])(?P<field>{IDENT})\s*(?:=|:|：|为|是|\bis\b|\bwas set to\b)\s*"
    rf"{_Q}(?P<value>[\w.\-]+)")
_STATUS_PATTERN = re.compile(
    rf"(?:状态(?:为|是|=|:|：)|\bstatus\s+(?:is|was|=|:)\s*)\s*{_Q}(?P<value>[\w.\-]+)",
    re.IGNORECASE)
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.\-/=?&#:])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                     r"(?![A-Za-z0-9_\-/:]|\.\d)")
_NAME_SEGMENTS = re.compile(r"__|[_.:/]")
_DATE_SUFFIX = re.compile(r"\s*(?:年|月|日|号|时|点|分|秒)")


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
    calls = CallLog(run.transcript.calls)
    known = _known_names(calls)
    results: list[ClaimResult] = []
    for text in _texts(run):
        results.extend(_claims_in(text, calls, known))
        if len(results) >= MAX_CLAIMS:
            return results[:MAX_CLAIMS]
    return results


def _claims_in(text: _Text, calls: CallLog, known: set[str]) -> Iterator[ClaimResult]:
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
    source = run.transcript_file if transcript.notes else None
    return source.text.splitlines() if source is not None and source.text else []


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
    for needed, pattern in _TOOL_PATTERNS:
        if needed.search(text.text) is None:
            continue
        for match in pattern.finditer(text.text):
            name = match.group("name")
            needs_success = bool(match.groupdict().get("ok"))
            if not _looks_like_tool(name, known) or (name, needs_success) in seen:
                continue
            seen.add((name, needs_success))
            said = quote(match.group(0))
            verified, detail = check_tool(name, needs_success, text.index, calls)
            evidence = f'{_where(text, match.start(), match.group(0))} says "{said}"; {detail}'
            yield match.start(), ClaimResult(f"{name} was called" + (" successfully" if needs_success else ""),
                                             "process", verified, evidence)


# ---- field and status claims ----------------------------------------------------


def _field_claims(text: _Text, calls: CallLog, known: set[str]) -> Iterator[tuple[int, int, ClaimResult]]:
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
    verified, detail = check_field(key_ok, field, value, text.index, calls, probes)
    evidence = f'{_where(text, match.start(), match.group(0))} says "{quote(match.group(0))}"; {detail}'
    claim = f"{field} is {value}"
    return match.start(), match.end(), ClaimResult(claim, "factual", verified, evidence)


def _overlapping(pattern: re.Pattern, text: str) -> Iterator[re.Match]:
    """Matches that may start inside a rejected one ("Note: fdId=1" holds "fdId=1")."""
    position = 0
    while (match := pattern.search(text, position)) is not None:
        yield match
        position = match.start() + 1


def _is_status_key(key: str) -> bool:
    return key.lower().endswith("status")


# ---- numbers in the response ----------------------------------------------------


def _number_claims(text: _Text, calls: CallLog,
                   covered: list[tuple[int, int]]) -> Iterator[tuple[int, ClaimResult]]:
    found: list[tuple[re.Match, Decimal]] = []
    seen: set[Decimal] = set()
    for match in _NUMBER.finditer(text.text):
        token = match.group(0)
        if len(token.lstrip("+-")) < 2 or _DATE_SUFFIX.match(text.text, match.end()):
            continue
        if any(start <= match.start() < end for start, end in covered):
            continue
        number = decimal(token.replace(",", ""))
        if number is not None and number not in seen:
            seen.add(number)
            found.append((match, number))
    index = number_index(calls, seen) if found else {}
    for match, number in found:
        token = match.group(0)
        where = _where(text, match.start(), token)
        source = index.get(number)
        detail = f"equals {source}" if source else "no tool call's args or return holds this number"
        yield match.start(), ClaimResult(f"the response states {token}", "factual", source is not None,
                                         f'{where} says "{token}"; {detail}')


# ---- helpers --------------------------------------------------------------------


def _known_names(calls: tuple) -> set[str]:
    """Each tool name, and its last segment ("mcp__srv__saveDoc" -> "saveDoc")."""
    names = {call.tool for call in calls if call.tool}
    return names | {_NAME_SEGMENTS.split(name)[-1] for name in names}


def _looks_like_tool(name: str, known: set[str]) -> bool:
    return name in known or name in COMMON_TOOLS or _is_code_name(name)


def _is_code_name(name: str) -> bool:
    """camelCase or snake_case: a word a person writes only when naming code."""
    return bool(re.search(r"[a-z][A-Z]", name)) or ("_" in name.strip("_") and not name.isupper())


