"""Claims the agent makes that the raw tool log can confirm or refute.

Claims are read from the agent's own words only: ``[agent_notes]`` blocks and the
response. Other transcript sections (the eval prompt, user turns, text the harness
injected) are not the agent's words, and fenced code blocks are code, not claims.
Each text is read line by line, so every claim cites the line it is on. Three
kinds, each found by a narrow pattern so that a claim is reported only when it is
plainly one (precision over recall):

1. A tool was called (``process``), in agent notes:
   "已调用 X" / "调用了 X" / "执行了 X"; "called X", "invoked X", "ran X", "used X";
   "ran the ... script with X" / "using X" / "via X"; "X 成功" / "X succeeded" (a
   successful call). X must look like a tool: the name (or its last segment) of a
   tool in this transcript, a camelCase or snake_case word, or a common agent tool
   (Bash, Read, Write, ...). Verified by a ``[tool_calls]`` record of X before the note.
2. A field or status was set (``factual``), in notes and in the response:
   "docStatus=10", "docStatus: 10", "docStatus 为 10"; "状态为 10", "status is 10"
   (any key named like ``*status``). The field must be camelCase/snake_case or a key
   of some call. URL query parameters (after ``?`` or ``&``) and command-line flags
   (``-name=value``) are not claims. Verified by a call, before the note, whose
   args or return hold that key with that value (as text); failing that, for a
   value that is not a bare number, by the value appearing in a call's return (an
   id the agent read back). A value seen only in a failed call is not enough.
3. A number in the response (``factual``): a number of two or more characters that
   is not part of a word, URL, date or time ("2026 年", "2 月", "2026-01-28", "10:30",
   "14 May 2026") and not inside a claim of kind 2. Verified when a call's args or
   return hold the same number (compared as decimals: "168" equals "168.00") as the
   same quantity: see ``claim_numbers.check_number`` (a percentage, a number in a
   sentence, a count of something need a source about the same thing; the prose
   of a call's args is the agent's own words, never evidence).

A sentence that denies ("X was not called", "I did not run X", "未调用 X") claims
nothing. Evidence always names file:line of the claim and of the call, or says
that no call backs it. Order: notes in transcript order, then the response;
within a text, by line and position. At most ``MAX_CLAIMS`` claims per run.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Iterator

from referee.dsl.frozen import frozen
from referee.engine.facts.claim_lookup import ToolIndex, check_field, check_tool, decimal, quote, words_of
from referee.engine.facts.claim_numbers import NumberSource, check_number, numbers_index, show_source
from referee.engine.facts.claim_texts import ClaimText, claim_texts, note_texts
from referee.engine.facts.metrics_unread import calls_unread

if TYPE_CHECKING:
    from referee.engine.run.model import Note
    from referee.engine.run.workspace import Run

MAX_CLAIMS = 40
IDENT = r"[A-Za-z_][A-Za-z0-9_\-.]*[A-Za-z0-9_]|[A-Za-z_]"
_Q = r"[`\"'“”‘’]?"
COMMON_TOOLS = frozenset({
    "Bash", "Read", "Write", "Edit", "MultiEdit", "Grep", "Glob", "LS", "WebFetch",
    "WebSearch", "Task", "NotebookEdit", "TodoWrite",
})


class _Needs:
    """Words a pattern cannot match without: lines lacking all of them are skipped,
    since scanning every identifier of a long note for a pattern costs more than all
    the rest of the claim search.

    The test is a substring test, on the line or (for a case-insensitive pattern) on
    its ``lower()``. A case-insensitive regex also matches four letters outside ASCII
    to ASCII ones (``_FOLDS_TO_ASCII``) that ``lower()`` does not turn into them; a
    line holding one of those is tested by the regex of the words itself.
    """

    def __init__(self, words: tuple[str, ...], ignore_case: bool = False) -> None:
        self.words = words
        self.ignore_case = ignore_case
        self.regex = re.compile("|".join(words), re.IGNORECASE if ignore_case else 0)

    def found(self, line: str, folded: str | None) -> bool:
        """Does ``line`` hold one of the words? ``folded`` is ``_folded(line)``."""
        if not self.ignore_case:
            return any(map(line.__contains__, self.words))
        if folded is None:
            return self.regex.search(line) is not None
        return any(map(folded.__contains__, self.words))


# The letters outside ASCII that a case-insensitive regex matches to an ASCII letter:
# İ and ı to "i", ſ to "s", the Kelvin sign to "k".
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def _folded(line: str) -> str | None:
    """``line.lower()``, in which an ASCII word is found exactly where a case-insensitive
    regex finds it in ``line``; None when the line holds a letter of ``_FOLDS_TO_ASCII``."""
    if not line.isascii() and any(map(line.__contains__, _FOLDS_TO_ASCII)):
        return None
    return line.lower()


_TOOL_PATTERNS = (
    (_Needs(("调用", "执行", "运行")),
     re.compile(rf"(?:已经?|已)?(?:调用|执行|运行)(?:了|过)?\s*{_Q}(?P<name>{IDENT})")),
    (_Needs(("called", "invoked", "ran", "executed", "used", "calling", "invoking"), ignore_case=True),
     re.compile(rf"\b(?:called|invoked|ran|executed|used|calling|invoking)\s+(?:the\s+)?"
                rf"(?:tool\s+)?{_Q}(?P<name>{IDENT})", re.IGNORECASE)),
    (_Needs(("with", "using", "via"), ignore_case=True),
     re.compile(rf"\b(?:ran|run|executed|called|invoked)\b[^.\n。；;]{{0,80}}?\b(?:with|using|via)"
                rf"\s+(?:the\s+)?{_Q}(?P<name>{IDENT})", re.IGNORECASE)),
    (_Needs(("成功", "succeeded", "was successful")),
     re.compile(rf"(?P<name>{IDENT}){_Q}\s*(?:调用)?(?P<ok>成功|succeeded|was successful)")),
)
# A field claim needs one of these characters, or "is" / "was set to" as whole words
# (_FIELD_WORDS, the slower test, only on lines that hold the letters).
_FIELD_SIGNS = "=:：为是"
_FIELD_WORDS = re.compile(r"\bis\b|\bwas set to\b")
_FIELD_PATTERN = re.compile(
    rf"(?<![A-Za-z0-9_?&/=.\-])(?P<field>{IDENT})\s*(?:=|:|：|为|是|\bis\b|\bwas set to\b)\s*"
    rf"{_Q}(?P<value>[\w.\-]+)")
_STATUS_NEEDS = _Needs(("状态", "status"), ignore_case=True)
_STATUS_PATTERN = re.compile(
    rf"(?:状态(?:为|是|=|:|：)|\bstatus\s+(?:is|was|=|:)\s*)\s*{_Q}(?P<value>[\w.\-]+)",
    re.IGNORECASE)
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.\-/=?&#:])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                     r"(?![A-Za-z0-9_\-/:]|\.\d)")
_DIGIT = re.compile(r"\d")
_NAME_SEGMENTS = re.compile(r"__|[_.:/]")
_DATE_SUFFIX = re.compile(r"\s*(?:年|月|日|号|时|点|分|秒)")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_MONTH_AFTER = re.compile(rf"\s+{_MONTH}(?![a-z])", re.IGNORECASE)
_MONTH_BLANKS = re.compile(rf"\b{_MONTH}\s+", re.IGNORECASE)  # ends where what follows the month starts
_NOUN_AFTER = re.compile(r"\s*([A-Za-z]{2,})")
_PERCENT = re.compile(r"\s*(?:%|percent\b|per cent\b)", re.IGNORECASE)
# Units say how a number is measured, not what it counts.
_UNITS = frozenset({"eur", "usd", "gbp", "chf", "cny", "rmb", "jpy", "yuan", "kb", "mb", "gb", "ms"})
# Words that deny what follows them in the same clause.
_NEGATION = re.compile(r"\b(?:not|never|no|without|cannot|failed\s+to)\b|n't\b|未|没|不|无", re.IGNORECASE)
_NEGATED_VALUES = frozenset({"not", "no", "never", "neither", "nor"})
_CLAUSE_END = re.compile(r"[;；。!?！？:：,，]|\.(?:\s|$)")


@frozen
class ClaimResult:
    """One checked claim; ``type`` is ``process`` or ``factual``."""

    claim: str
    type: str
    verified: bool
    evidence: str


def find_claims(run: Run) -> list[ClaimResult]:
    """Every claim found in the run's notes and response, checked against its calls;
    an imported run's evidence cites its sources (``session.jsonl:42``)."""
    index = ToolIndex(run.transcript.calls)
    known = _known_names(index.calls)
    results: list[ClaimResult] = []
    for text in claim_texts(run):
        results.extend(_claims_in(text, index, known))
        if len(results) >= MAX_CLAIMS:
            results = results[:MAX_CLAIMS]
            break
    results = _unsure_where_unread(results, calls_unread(run))
    source_map = run.source_map[0]
    if source_map is None:
        return results
    from referee.engine.run.importers.citing import cite_text

    return [replace(claim, evidence=cite_text(claim.evidence, source_map)) for claim in results]


def _unsure_where_unread(results: list[ClaimResult], unread: str | None) -> list[ClaimResult]:
    """``results``, each claim not borne out saying that the calls it was looked up in
    are not all the run's (``unread``): "no record of X" is then no more than "none
    among those read", and the claim stays unverified, as one no call bears out."""
    if unread is None:
        return results
    said = f"; but not every call of the run could be read ({unread}): whether one bears the claim out cannot be told"
    return [claim if claim.verified else replace(claim, evidence=claim.evidence + said) for claim in results]


def tool_claims(run: Run) -> Iterator[tuple[Note, int, str, str]]:
    """``(note, line, tool name, line text)`` for each call the agent's notes claim,
    unverified: what ``engine.checks.trust`` shows when no call of a tool was made."""
    known = _known_names(run.transcript.calls)
    for text, note in note_texts(run):
        for number, line in text.lines:
            for _, name, _ in _tool_matches(line, known):
                yield note, number, name, line.strip()


def _claims_in(text: ClaimText, index: ToolIndex, known: set[str]) -> Iterator[ClaimResult]:
    said: set[tuple[str, bool]] = set()  # a tool claim repeated in one text is one claim
    numbers: set[Decimal] = set()
    sources = numbers_index(index.calls, _numbers_said(text.lines)) if text.kind == "response" else {}
    for number, line in text.lines:
        found: dict[tuple[int, str], ClaimResult] = {}
        folded = _folded(line)
        if text.kind == "agent_notes":
            for start, result in _tool_claims(text, number, line, index, known, said, folded):
                found.setdefault((start, result.claim), result)
        covered = []
        for start, end, result in _field_claims(text, number, line, index, known, folded):
            covered.append((start, end))
            found.setdefault((start, result.claim), result)
        if text.kind == "response":
            for start, result in _number_claims(text, number, line, sources, covered, numbers):
                found.setdefault((start, result.claim), result)
        for key in sorted(found, key=lambda key: key[0]):
            yield found[key]


def _where(text: ClaimText, line: int) -> str:
    return f"{text.file}:{line} ({text.label})"


def _negated(line: str, start: int) -> bool:
    """Does the clause before ``start`` deny what follows ("did not call X")?"""
    prefix = line[:start]
    cut = 0
    for match in _CLAUSE_END.finditer(prefix):
        cut = match.end()
    return _NEGATION.search(prefix, cut) is not None


# ---- tool-call claims -----------------------------------------------------------


def _tool_matches(line: str, known: set[str], folded: str | None = None) -> Iterator[tuple[re.Match, str, bool]]:
    """The tool claims of ``line``; ``folded`` is ``_folded(line)`` when the caller has it."""
    if folded is None:
        folded = _folded(line)
    for needed, pattern in _TOOL_PATTERNS:
        if not needed.found(line, folded):
            continue
        for match in pattern.finditer(line):
            name = match.group("name")
            if _looks_like_tool(name, known) and not _negated(line, match.start()):
                yield match, name, bool(match.groupdict().get("ok"))


def _tool_claims(text: ClaimText, number: int, line: str, index: ToolIndex, known: set[str],
                 said: set[tuple[str, bool]], folded: str | None) -> Iterator[tuple[int, ClaimResult]]:
    for match, name, needs_success in _tool_matches(line, known, folded):
        if (name, needs_success) in said:
            continue
        said.add((name, needs_success))
        verified, detail = check_tool(name, needs_success, text.index, index)
        evidence = f'{_where(text, number)} says "{quote(match.group(0))}"; {detail}'
        yield match.start(), ClaimResult(f"{name} was called" + (" successfully" if needs_success else ""),
                                         "process", verified, evidence)


# ---- field and status claims ----------------------------------------------------


def _field_claims(text: ClaimText, number: int, line: str, index: ToolIndex, known: set[str],
                  folded: str | None) -> Iterator[tuple[int, int, ClaimResult]]:
    if _has_field_sign(line):
        for match in _overlapping(_FIELD_PATTERN, line):
            field = match.group("field")
            if field in known:  # "saveExpenseDoc 为 ..." is about a tool, not a field
                continue
            if not (_is_code_name(field) or index.has_key(field)):
                continue
            yield from _field_result(text, number, line, match, (field,), field, index)
    if _STATUS_NEEDS.found(line, folded):
        for match in _STATUS_PATTERN.finditer(line):
            yield from _field_result(text, number, line, match, index.status_keys(text.index), "status", index)


def _has_field_sign(line: str) -> bool:
    """Does ``line`` hold what ``_FIELD_PATTERN`` puts between a field and its value?"""
    if any(map(line.__contains__, _FIELD_SIGNS)):
        return True
    return ("is" in line or "was set to" in line) and _FIELD_WORDS.search(line) is not None


def _field_result(text: ClaimText, number: int, line: str, match: re.Match, keys: tuple[str, ...], field: str,
                  index: ToolIndex) -> Iterator[tuple[int, int, ClaimResult]]:
    value = match.group("value").rstrip(".")
    if not value or value.lower() in _NEGATED_VALUES or _negated(line, match.start()):
        return
    verified, detail = check_field(index.leaves_with(keys, text.index), field, value, text.index, index)
    evidence = f'{_where(text, number)} says "{quote(match.group(0))}"; {detail}'
    yield match.start(), match.end(), ClaimResult(f"{field} is {value}", "factual", verified, evidence)


def _overlapping(pattern: re.Pattern, text: str) -> Iterator[re.Match]:
    """Matches that may start inside a rejected one ("Note: fdId=1" holds "fdId=1")."""
    position = 0
    while (match := pattern.search(text, position)) is not None:
        yield match
        position = match.start() + 1


# ---- numbers in the response ----------------------------------------------------


def _number_claims(text: ClaimText, number: int, line: str, sources: dict[Decimal, list[NumberSource]],
                   covered: list[tuple[int, int]], seen: set[Decimal]) -> Iterator[tuple[int, ClaimResult]]:
    stated = list(_stated(line))
    if not stated:
        return
    # Where months and clauses end, and each clause's words, found once for the line:
    # looked for again around each number, a long line of numbers was read again for
    # each of them.
    after_month = {found.end() for found in _MONTH_BLANKS.finditer(line)}
    clauses = [found.span() for found in _CLAUSE_END.finditer(line)]
    words: dict[tuple[int, int], frozenset[str]] = {}
    for match, value in stated:
        if _is_date_part(line, match, after_month) or any(start <= match.start() < end for start, end in covered):
            continue
        if value in seen:
            continue
        seen.add(value)
        span = _clause(match.start(), clauses, len(line))
        if span not in words:
            words[span] = frozenset(words_of(line[span[0]:span[1]]))
        yield match.start(), _number_result(text, number, line, match, value, sources, words[span])


def _stated(line: str) -> Iterator[tuple[re.Match, Decimal]]:
    """Each number of two digits or more that ``line`` states, with its value."""
    if _DIGIT.search(line) is None:
        return
    for match in _NUMBER.finditer(line):
        token = match.group(0)
        value = decimal(token.replace(",", "")) if len(token.lstrip("+-")) >= 2 else None
        if value is not None:
            yield match, value


def _numbers_said(lines: tuple[tuple[int, str], ...]) -> frozenset[Decimal]:
    """Every number a claim of these lines can state: the calls are searched for these only."""
    return frozenset(value for _, line in lines for _, value in _stated(line))


def _number_result(text: ClaimText, number: int, line: str, match: re.Match, value: Decimal,
                   sources: dict[Decimal, list[NumberSource]], clause_words: frozenset[str]) -> ClaimResult:
    token = match.group(0)
    noun = _NOUN_AFTER.match(line, match.end())
    counted = noun is not None and noun.group(1).lower() not in _UNITS
    percent = _PERCENT.match(line, match.end()) is not None
    source = check_number(value, counted, clause_words, sources, percent)
    if source is not None:
        detail = f"equals {show_source(source)}"
    elif noun is not None and counted and value in sources:
        detail = f'no tool call\'s args or return holds this number as a count of "{noun.group(1)}"'
    else:
        detail = "no tool call's args or return holds this number"
    return ClaimResult(f"the response states {token}", "factual", source is not None,
                       f'{_where(text, number)} says "{token}"; {detail}')


def _is_date_part(line: str, match: re.Match, after_month: set[int]) -> bool:
    """Whether the number is a part of a date: a day before 日 or a month's name, or after
    one (``after_month``: where the blanks after each month's name end)."""
    return (_DATE_SUFFIX.match(line, match.end()) is not None
            or _MONTH_AFTER.match(line, match.end()) is not None
            or match.start() in after_month)


def _clause(offset: int, clauses: list[tuple[int, int]], length: int) -> tuple[int, int]:
    """Where the part of a line between the clause ends around ``offset`` starts and
    ends (``clauses``: the spans of the line's clause ends, none of which holds the
    start of a number; ``length``: the line's)."""
    after = bisect.bisect_right(clauses, offset, key=lambda span: span[1])
    begin = clauses[after - 1][1] if after else 0
    return begin, clauses[after][0] if after < len(clauses) else length


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


