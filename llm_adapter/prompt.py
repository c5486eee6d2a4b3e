"""The rendering of one run into a request, under the grader's page (its
instructions and standards: ``engine.grader_page``).

The run's text is untrusted data. It goes between two delimiter lines carrying a
boundary derived from a hash of that very text: the same run always gets the same
boundary (so recorded cassettes replay), and no text can contain the hash of
itself, so the data cannot close its own block. Any delimiter-looking line inside
the data is defused as well, so a fake closing line is plainly part of the data.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Sequence

from referee.dsl.frozen import frozen
from referee.engine.grader_page import INSTRUCTIONS, MARK, RETRY, STANDARDS
from referee.engine.judging import SemanticItem
from referee.engine.text import surrogates_escaped
from referee.llm_adapter.backends import ChatRequest
from referee.llm_adapter.evidence import SOURCE_ORDER, RunEvidence, Segment, collect

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

# Tried only at the first "<" of a run (the lookbehind): tried at each one, a long run
# of "<" in a run's text was scanned again from each, a time growing with its square.
FAKE_MARK = re.compile(r"(?<!<)<{2,}(\s*/?\s*(?:END\s*)?RUN[-_ ]?DATA)", re.IGNORECASE)


@frozen
class Rendered:
    request: ChatRequest
    ids: tuple[str, ...]  # "A1".."An", in the order of the items


def item_ids(items: Sequence[SemanticItem]) -> tuple[str, ...]:
    return tuple(f"A{n}" for n in range(1, len(items) + 1))


def render(evidence: RunEvidence, items: Sequence[SemanticItem]) -> Rendered:
    """The first request for ``items``: expectations, then the run's record as data."""
    ids = item_ids(items)
    data = _data_block(evidence)
    boundary = hashlib.sha256(("referee-boundary\0" + data).encode("utf-8")).hexdigest()[:32]
    data = data.replace(boundary, "[boundary text removed]")
    lines = [f"Skill type: {evidence.skill_type}. {STANDARDS[evidence.skill_type]}", "",
             "Expectations to grade:"]
    for ident, item in zip(ids, items):
        lines.append(f"{ident}: {surrogates_escaped(item.text)}")
        if item.rubric and item.rubric.strip() != item.text.strip():
            lines.append(f"    decide: {surrogates_escaped(item.rubric)}")
    lines += ["", f"BOUNDARY is {boundary}. The record of the run:",
              f"<<<{MARK}-{boundary}>>>", data, f"<<<END {MARK}-{boundary}>>>", "",
              f"Grade {', '.join(ids)} now. Reply with the JSON object only."]
    return Rendered(ChatRequest(INSTRUCTIONS, (("user", "\n".join(lines)),)), ids)


def request_digest(run: Run, items: Sequence[SemanticItem]) -> str:
    """A digest of the request that asks about ``items`` of ``run`` all at once (as the
    judge does by default), as it would be sent: its page and its text. Whatever
    changes what the grader is shown (the layout rendered here, what ``evidence``
    collects, ``MAX_SHOWN``) gives another; ``engine.report.carry`` keys an earlier
    verdict on it."""
    request = render(collect(run), items).request
    text = json.dumps([request.system, [list(turn) for turn in request.turns]], ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def retry(first: Rendered, reply: str, problem: str) -> Rendered:
    """The follow-up after an unusable reply: the same conversation, plus the reason."""
    note = RETRY.format(problem=problem, ids=", ".join(first.ids))
    turns = first.request.turns + (("assistant", reply or "(empty)"), ("user", note))
    return Rendered(ChatRequest(first.request.system, turns), first.ids)


def _data_block(evidence: RunEvidence) -> str:
    parts: list[str] = []
    for source in SOURCE_ORDER:
        segments = evidence.of(source)
        parts.append(f"=== source: {source} ===")
        if not segments:
            parts.append("(nothing)")
        parts += [_segment_text(s) for s in segments]
    if evidence.unreadable:
        parts.append("=== not readable as text: " + ", ".join(map(surrogates_escaped, evidence.unreadable)) + " ===")
    return defuse("\n".join(parts))


def _segment_text(segment: Segment) -> str:
    where = f"{surrogates_escaped(segment.file)} line {segment.line}"
    if segment.step is not None:
        where += f", step {segment.step}"
    text = segment.text
    if segment.shown is not None:  # evidence.MAX_SHOWN
        hidden = len(text) - segment.shown
        text = text[:segment.shown] + f"\n[... {hidden} more characters not shown]"
    for first, _, what in segment.unread:  # the rules make it unknown: so must the grader
        where += f"; {what} is not known in full (line {first}: only part of it, or not as it was)"
    return f"--- {where} ---\n{text}"


def defuse(text: str) -> str:
    """Break anything in the data that looks like one of our delimiter lines."""
    return FAKE_MARK.sub(lambda m: "< <" + m.group(1), text)
