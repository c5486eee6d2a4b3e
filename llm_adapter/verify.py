"""Turn a parsed reply into verdicts, trusting nothing the grader says without a check.

A FAIL is taken as given: the burden of proof is on the expectation. A PASS stands
only if every quote the grader gave is found in the source it named, and at least
one of them comes from tool_calls, response or outputs. A quote that proves nothing
(``substance.trivial``, or found only in a heading line) counts as no quote: it can
neither carry a PASS nor lift one that rests on agent notes. Otherwise the PASS
becomes a FAIL that says why, with whatever evidence did check out.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
import sys
from typing import Sequence

from referee.engine.judging import GraderClaim, SemanticItem
from referee.engine.verdict import Evidence, Outcome, Verdict
from referee.llm_adapter import evidence as evidence_module
from referee.llm_adapter import clusters, quote_rules, quote_sense
from referee.llm_adapter import quotes as quotes_module
from referee.llm_adapter import reply as reply_module
from referee.llm_adapter import substance
from referee.llm_adapter.evidence import PASS_SOURCES, RunEvidence, Segment
from referee.llm_adapter.quotes import Match, locate, proves_nothing
from referee.llm_adapter.reply import AssertionReply, Quote, Reply

SHOWN = 160  # characters of a quote shown in a message or an Evidence record
# Text that speaks to the grader rather than about the task. Found in the record it
# is an injection attempt: it can be quoted, but it never proves an expectation. A fake
# delimiter is found at the last two "<" before it (blanks between them allowed): found
# from each "<" of a long run, the run was read again from each, a time growing with
# the square of its length.
ADDRESSED = re.compile(
    r"ignore\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier)\s+"
    r"(?:instructions|rules|prompts?)|\"verdict\"\s*:|<\s*<(?=\s*/?\s*(?:end\s*)?run[-_ ]?data)"
    r"|(?:mark|grade|score)\s+(?:every|all|each)\s+(?:expectations?|assertions?)\s+(?:as\s+)?pass"
    r"|(?:every|all|each)\s+(?:expectations?|assertions?)\s+(?:is|are)\s+(?:\w+\s+)?"
    r"(?:pass|passed|satisfied|met)\b|\bverdict\s*[:=]\s*\"?pass\b",
    re.IGNORECASE)


def shorten(text: str, limit: int = SHOWN) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def check_quotes(quotes: Sequence[Quote], evidence: RunEvidence):
    """Sort quotes into verified matches, the ones not found in their source, and the
    ones that prove nothing (too short or generic, found only in a heading line, or
    ending at a field's name with its value left out),
    which count as no quote at all."""
    found: list[tuple[Quote, Match]] = []
    missing: list[Quote] = []
    idle: list[Quote] = []
    for quote in quotes:
        if proves_nothing(quote.quote):
            idle.append(quote)
            continue
        match = _locate_read(quote.quote, evidence.of(quote.source))
        if match is None:
            missing.append(quote)
        elif proves_nothing(quote.quote, match):
            idle.append(quote)
        else:
            found.append((quote, match))
    return found, missing, idle


def _locate_read(quote: str, segments: tuple[Segment, ...]) -> Match | None:
    """Where ``quote`` is found, preferring a segment where it lies outside any value not
    known in full: the first match (in source order) may be a preview whose words a
    later call returned whole. The first match when it is only found in such values."""
    first = None
    while True:
        match = locate(quote, segments)
        if match is None or unread(match) is None:
            return match or first
        first = first or match
        segments = tuple(s for s in segments if s is not match.segment)


def to_evidence(match: Match) -> Evidence:
    return Evidence(match.segment.source, match.segment.file, match.line,
                    match.segment.step, shorten(match.found))


def unread(match: Match) -> str | None:
    """What of a value the import could not show whole ``match`` quotes, if any."""
    return match.segment.unread_at(match.line, match.line + match.found.count("\n"))


def judge_item(entry: AssertionReply, evidence: RunEvidence) -> Verdict:
    """The verdict for one expectation, after checking the grader's quotes."""
    found, missing, idle = check_quotes(entry.evidence, evidence)
    # A quote of a value not known in full (a preview, a value cut) is no evidence of
    # what the value was: the rules make it unknown, so a PASS cannot rest on it.
    unsure = [(q, m) for q, m in found if unread(m) is not None]
    found = [(q, m) for q, m in found if unread(m) is None]
    records = tuple(to_evidence(m) for _, m in found + unsure)
    details = tuple(_detail(q, m) for q, m in found + unsure) + tuple(
        f"not found in {q.source}: \"{shorten(q.quote)}\"" for q in missing) + tuple(
        f"ignored, proves nothing: \"{shorten(q.quote, 80)}\" ({q.source})" for q in idle)
    reasoning = shorten(entry.reasoning, 400)
    if entry.verdict == "FAIL":
        return Verdict(Outcome.FAIL, f"grader: {reasoning}", records, details=details)
    if missing:
        q = missing[0]
        return Verdict(Outcome.FAIL,
                       f"grader said PASS, but its quote is not in {q.source}: "
                       f"\"{shorten(q.quote)}\"; a PASS needs evidence that exists",
                       records, details=details)
    if unsure and not any(m.segment.source in PASS_SOURCES for _, m in found):
        m = unsure[0][1]
        return Verdict(Outcome.ERROR,
                       f"grader said PASS quoting {unread(m)}, which is not known in full "
                       f"({to_evidence(m).where()}: the import could not show it whole); "
                       "a verdict cannot rest on it", records, details=details)
    if not found and idle:
        return Verdict(Outcome.FAIL,
                       f"grader said PASS quoting only text that proves nothing "
                       f"(\"{shorten(idle[0].quote, 80)}\"): {substance.RULE}, and not a "
                       "heading line nor a field's name without its value; a quote that proves "
                       "nothing counts as no quote",
                       details=details)
    if not found:
        return Verdict(Outcome.FAIL, "grader said PASS without quoting any evidence",
                       details=details)
    addressed = [m for _, m in found if addresses_the_grader(m)]
    if addressed:
        return Verdict(Outcome.FAIL,
                       f"grader said PASS quoting text addressed to the grader "
                       f"({to_evidence(addressed[0]).where()}); an injection proves nothing",
                       records, details=details)
    if not any(m.segment.source in PASS_SOURCES for _, m in found):
        where = to_evidence(found[0][1]).where()
        return Verdict(Outcome.FAIL,
                       f"grader said PASS on agent notes or harness text alone ({where}); "
                       "they are the agent's account or what was asked, not evidence", records,
                       notes_only=True,
                       details=details)
    return Verdict(Outcome.PASS, f"grader: {reasoning} {_cited(found)}", records, details=details)


# Words of an expectation that speaks of the whole record: that something is absent
# ("no", "never", "doesn't" ...) or holds throughout ("only", "every" ...). Its PASS
# rests on everything, so part of the record cannot carry it.
WHOLE = quote_rules.NEGATIONS | frozenset("""only solely exclusively every each all always avoid avoids
avoided absent free""".split())


def on_part(verdict: Verdict, item: SemanticItem, evidence: RunEvidence) -> Verdict:
    """``verdict``, unless it is a PASS for an expectation that speaks of the whole record
    (``WHOLE``) while the grader was shown only part of it (a piece cut at
    ``evidence.MAX_SHOWN``, an output file not readable as text): then an ERROR, since
    what was not shown may hold what the expectation says is not there."""
    if verdict.outcome is not Outcome.PASS or not _of_the_whole(item):
        return verdict
    missing = [f"{s.file}: {s.shown} of {len(s.text)} characters" for s in evidence.segments
               if s.shown is not None] + [f"{name}: not readable as text" for name in evidence.unreadable]
    if not missing:
        return verdict
    return Verdict(Outcome.ERROR,
                   f"grader said PASS, but it was shown only part of the record ({'; '.join(missing[:3])}); "
                   "an expectation that something is absent, or holds throughout, cannot pass on part of "
                   "it: state it as a rule, which reads the whole file", verdict.evidence,
                   details=verdict.details)


def _of_the_whole(item: SemanticItem) -> bool:
    words = re.findall(r"[a-z]+(?:['\u2019][a-z]+)?", f"{item.text} {item.rubric}".lower())
    return any(w in WHOLE or w.endswith(("n't", "n\u2019t")) for w in words)


def addresses_the_grader(match: Match) -> bool:
    """Whether the text ``match`` found speaks to the grader (``ADDRESSED``): an
    injection attempt, which proves nothing."""
    return ADDRESSED.search(substance.as_read(match.found)) is not None


def _cited(found) -> str:
    firsts = [f"\"{shorten(m.found, 80)}\" ({to_evidence(m).where()})" for _, m in found[:2]]
    return "Evidence: " + "; ".join(firsts)


def _detail(quote: Quote, match: Match) -> str:
    kind = "loosely matched (punctuation, width or how letters are composed differs)" if match.loose else "found"
    return f"{kind} in {quote.source} at {to_evidence(match).where()}"


def claims(reply: Reply, evidence: RunEvidence) -> tuple[GraderClaim, ...]:
    """Claims are verified only if the grader says so and a non-notes quote checks out
    (one that is not addressed to the grader: an injection proves no claim either)."""
    result = []
    for claim in reply.claims:
        found, missing, _ = check_quotes(claim.evidence, evidence)
        solid = [m for _, m in found if m.segment.source in PASS_SOURCES and unread(m) is None
                 and not addresses_the_grader(m)]
        verified = claim.verified and bool(solid) and not missing
        if solid:
            text = "; ".join(f"\"{shorten(m.found, 80)}\" ({to_evidence(m).where()})"
                             for m in solid[:2])
        elif missing:
            text = f"quoted text not found in {missing[0].source}"
        elif any(addresses_the_grader(m) for _, m in found):
            text = "quoted only text addressed to the grader, which proves nothing"
        else:
            text = "no evidence outside agent notes"
        result.append(GraderClaim(shorten(claim.claim, 300), claim.type, verified, text))
    return tuple(result)


def feedback(reply: Reply, ids: Sequence[str], items: Sequence[SemanticItem]) -> tuple[str, ...]:
    """One line per suggestion, naming the expectation by its text rather than its id."""
    by_id = dict(zip(ids, items))
    lines = []
    for suggestion in reply.eval_feedback.suggestions:
        item = by_id.get(suggestion.assertion or "")
        reason = shorten(suggestion.reason, 400)
        lines.append(f"{item.text}: {reason}" if item else reason)
    return tuple(lines)


@functools.lru_cache(maxsize=1)
def rules_digest() -> str:
    """A digest of the code that checks a grader's reply before it is believed: how
    the reply is read (``reply``), what text a quote is looked for in (``evidence``),
    how it is found (``quotes``, its rules ``quote_rules`` and ``quote_sense``, and
    ``clusters``), what proves nothing (``substance``) and the verdict drawn (this
    module). ``engine.report.carry`` keeps an earlier verdict only while it is the same:
    a PASS whose quote was found under other rules (one that started after a negation,
    or lay in a comment before a record's fields) might not stand now, and the grade
    without the grader has no reply to check again. Any change to that code drops
    earlier verdicts, which a grade with ``--llm`` then checks anew."""
    digest = hashlib.sha256()
    for module in (reply_module, evidence_module, quotes_module, quote_rules, quote_sense, clusters,
                   substance, sys.modules[__name__]):
        code = _code(module)
        digest.update(module.__name__.encode() + b"\0" + len(code).to_bytes(8, "big") + code)
    return digest.hexdigest()


def _code(module) -> bytes:
    """``module``'s source as its loader gives it, lines ending in LF (a checkout with
    CRLF line ends holds the same code, and the digest goes into grading.json, which
    must be the same on every machine); where there is no source to read (a frozen
    build), the version of referee, which is all that can tell its code apart."""
    try:
        return inspect.getsource(module).encode("utf-8")
    except (OSError, TypeError):
        from referee.engine import __version__

        return f"referee {__version__}".encode()
