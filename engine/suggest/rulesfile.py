"""A whole rules file from evals.json: one ``eval`` block per eval, one ``expect`` per sentence."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace

from referee.dsl.evals_json import EvalEntry, EvalsFile
from referee.engine.suggest.draft import Draft, draft_sentence
from referee.engine.suggest.facts import RunFacts
from referee.engine.suggest.patterns import load
from referee.engine.text import ascii_digits

HEADER = """\
# Drafted by `referee suggest` from {source}.
# Each draft names the pattern that made it and how sure it is; review them before use.
# Sentences no pattern covers are left to the LLM grader (`expect N` with no check).
# A check ending in `and semantic "<the sentence>"` fails on its rule part alone;
# when that part holds, the LLM grader decides the sentence.
"""


def draft_evals(evals: EvalsFile, facts: Mapping[str, RunFacts], extra: tuple[str, ...] = (),
                bundled: bool = True) -> dict[str, list[Draft]]:
    """Drafts per eval id, in evals.json order; ``facts`` by eval id (may be empty),
    with the files each eval lists added (a draft may read them as ``input "..."``).

    ``extra`` folders of patterns are tried before the bundled ones (see ``patterns.load``)."""
    parts, patterns = load(None, tuple(str(folder) for folder in extra), bundled)
    drafts = {}
    for entry in evals.evals:
        known = replace(facts.get(entry.id, RunFacts()), inputs=entry.files)
        drafts[entry.id] = [draft_sentence(i, sentence, known, parts, patterns)
                            for i, sentence in enumerate(entry.expectations, 1)]
    return drafts


def rules_text(evals: EvalsFile, drafts: Mapping[str, list[Draft]], source: str) -> str:
    """The drafts as a rules file that ``referee check`` accepts as written."""
    blocks = [HEADER.format(source=source)]
    for entry in evals.evals:
        blocks.append(_block(entry, drafts[entry.id]))
    return "\n".join(blocks)


def repeated_sentences(entry: EvalEntry) -> dict[int, int]:
    """Each expectation (1-based) whose sentence an earlier one of the eval has, and
    that earlier one's number: such evals.json does not compile (``duplicate-text``,
    since skill-creator's viewer would show one verdict for both), and no draft mends it."""
    first: dict[str, int] = {}
    found = {}
    for index, sentence in enumerate(entry.expectations, start=1):
        earlier = first.setdefault(sentence, index)
        if earlier != index:
            found[index] = earlier
    return found


def _block(entry: EvalEntry, drafts: list[Draft]) -> str:
    eval_id = entry.id if ascii_digits(entry.id, most=15) else json.dumps(entry.id, ensure_ascii=False)
    name = f" {json.dumps(entry.name, ensure_ascii=False)}" if entry.name else ""
    lines = [f"eval {eval_id}{name}", ""]
    repeated = repeated_sentences(entry)
    for draft in drafts:
        lines.append(f"# {draft.index}. {_one_line(draft.sentence)}")
        if draft.index in repeated:
            lines.append(f"#    the same sentence as {repeated[draft.index]}: these rules do not compile "
                         "(duplicate-text) until evals.json gives it a sentence of its own")
        if draft.check is None:
            why = "; ".join(draft.notes) or "no pattern covers this sentence"
            lines.append(f"#    {_one_line(why)}: semantic, for the LLM grader")
            lines.append(f"expect {draft.index}")
        else:
            notes = "".join(f"; {note}" for note in draft.notes)
            lines.append(f"#    pattern {draft.pattern} (sure: {draft.sure}){_one_line(notes)}")
            lines.append(f"expect {draft.index}: {draft.check}")
        lines.append("")
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def drafts_json(drafts: Mapping[str, list[Draft]]) -> list[dict]:
    return [{"eval": eval_id, "index": d.index, "sentence": d.sentence, "check": d.check,
             "pattern": d.pattern, "sure": d.sure, "notes": list(d.notes),
             "precision": "semantic" if d.check is None else "drafted"}
            for eval_id, items in drafts.items() for d in items]
