"""The eval's sentences as harnesses write them into ``eval_metadata.json``.

skill-creator style harnesses write each eval's expectations beside its runs
(``eval_metadata.json``: ``expectations``, or ``assertions``, as sentences or as
``{"text": ...}`` objects; ``eval_name`` or ``name``; ``prompt``). When no evals.json
is given, these are the eval's sentences: a rules file's ``expect N`` links to the
N-th, and a sentence no rule checks is a semantic assertion, as with evals.json.
Discovery gathers them (``Discovery.expectations``), one set per eval.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the language is loaded only when the sentences are compiled
    from referee.dsl.ast import RulesFile
    from referee.dsl.evals_json import EvalsFile
    from referee.engine.run.workspace import Run

SHOWN = "eval_metadata.json"  # how the sentences' source is named


@dataclass(frozen=True)
class EvalSentences:
    """One eval's sentences, from the ``eval_metadata.json`` of its run at ``where``."""

    eval_id: str
    name: str | None
    prompt: str
    sentences: tuple[str, ...]
    where: str


def sentences_of(metadata: dict) -> tuple[str, ...]:
    """The sentences of merged metadata: ``expectations`` (or ``assertions``), each a
    string or an object with a ``text`` string; anything else is left out."""
    listed = metadata.get("expectations", metadata.get("assertions"))
    if not isinstance(listed, list):
        return ()
    found = (item.get("text") if isinstance(item, dict) else item for item in listed)
    return tuple(text for text in found if isinstance(text, str) and text.strip())


def gathered(runs: Iterable[Run]) -> tuple[EvalSentences, ...]:
    """The sentences of each eval of ``runs``, from the first of its runs whose
    metadata gives some: what ``Discovery.expectations`` holds for a workspace."""
    found: dict[str, EvalSentences] = {}
    for run in runs:
        sentences = sentences_of(run.metadata) if run.id.eval_id not in found else ()
        if sentences:
            found[run.id.eval_id] = EvalSentences(run.id.eval_id, run.id.eval_name,
                                                  text_or_none(run.metadata.get("prompt")) or "", sentences,
                                                  run.id.rel)
    return tuple(found.values())


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def evals_file(found: tuple[EvalSentences, ...], trees: list[RulesFile]) -> EvalsFile:
    """The sentences as an evals.json would give them, with every eval the rules
    name that has none (so that a rules eval without metadata stays an eval)."""
    from referee.dsl.evals_json import EvalEntry, EvalsFile

    entries = [EvalEntry(one.eval_id, one.name, one.prompt, one.sentences) for one in found]
    known = {one.eval_id for one in found} | {one.name for one in found if one.name}
    for tree in trees:
        for block in tree.evals:
            if block.key not in known:
                entries.append(EvalEntry(block.key, block.name, "", ()))
                known.add(block.key)
    return EvalsFile(SHOWN, None, tuple(entries))
