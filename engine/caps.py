"""What a verdict may copy from the run: bounded text, a bounded list of places.

A run can hold a 20 MB tool name or 100,000 calls; a verdict quotes labels and
values, and a report copies each verdict more than once. Past these sizes the
text is cut and says how long it was, and the list of places says how many
there were, so a hostile run cannot turn into a report a hundred times its size.
"""

from __future__ import annotations

from dataclasses import replace

from referee.engine.run.model import AGENT_SOURCES
from referee.engine.verdict import Evidence, Verdict

# A run can hold a 20 MB tool name; a verdict quotes labels and values, and a report
# copies the verdict twice. Past these sizes the text is cut, and says so (the note
# counts toward the size; every limit is far longer than a note).
MESSAGE_LIMIT = 2000
DETAIL_LIMIT = 500
DETAILS_KEPT = 20
QUOTE_LIMIT = 500
EVIDENCE_KEPT = 50


def cut(text: str, limit: int) -> str:
    """``text``, or as much of its start as fits in ``limit`` characters together with
    a note of how long it was. The result is never longer than ``limit``, so cutting
    again changes nothing: a verdict is bounded where it is made and again in its
    report, and a second cut must not report the first cut's length as the original's."""
    if len(text) <= limit:
        return text
    note = f"… [cut: {len(text):,} characters in all]"
    return text[:max(0, limit - len(note))] + note


def capped(verdict: Verdict) -> Verdict:
    """``verdict`` with its message, details, quotes and evidence list bounded.

    A verdict within the caps is returned as it is. A longer evidence list keeps
    its first places, and the message says how many there were; when the places
    kept would all be agent notes while the others are not, the first other
    place is kept too, so cutting never turns a pass into a notes-only one.
    """
    message, evidence = verdict.message, verdict.evidence
    if len(evidence) > EVIDENCE_KEPT:
        message += f" (evidence: the first {EVIDENCE_KEPT} of {len(evidence):,} places)"
        evidence = _kept_places(evidence)
    if any(len(e.quote) > QUOTE_LIMIT for e in evidence):
        evidence = tuple(replace(e, quote=cut(e.quote, QUOTE_LIMIT)) for e in evidence)
    details = verdict.details
    if len(details) > DETAILS_KEPT or any(len(d) > DETAIL_LIMIT for d in details):
        details = tuple(cut(d, DETAIL_LIMIT) for d in details[:DETAILS_KEPT])
    message = cut(message, MESSAGE_LIMIT)
    if message is verdict.message and evidence is verdict.evidence and details is verdict.details:
        return verdict
    return replace(verdict, message=message, evidence=evidence, details=details)


def _kept_places(evidence: tuple[Evidence, ...]) -> tuple[Evidence, ...]:
    kept = evidence[:EVIDENCE_KEPT]
    if {e.source for e in kept} <= AGENT_SOURCES:
        other = next((e for e in evidence[EVIDENCE_KEPT:] if e.source not in AGENT_SOURCES), None)
        if other is not None:
            kept = kept[:-1] + (other,)
    return kept
