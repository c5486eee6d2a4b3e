"""The eval's sentences as harnesses write them into ``eval_metadata.json``.

skill-creator style harnesses write each eval's expectations beside its runs
(``eval_metadata.json``: ``expectations``, or ``assertions``, as sentences or as
``{"text": ...}`` objects; ``eval_name`` or ``name``; ``prompt``). When no evals.json
is given, these are the eval's sentences: a rules file's ``expect N`` links to the
N-th, and a sentence no rule checks is a semantic assertion, as with evals.json.
Discovery gathers them (``Discovery.expectations``), one set per eval.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.dsl.frozen import frozen
from referee.engine.run.identity import METADATA
from referee.engine.run.safeio import join_report, read_text

if TYPE_CHECKING:  # the language is loaded only when the sentences are compiled
    from referee.dsl.ast import RulesFile
    from referee.dsl.evals_json import EvalsFile
    from referee.engine.run.workspace import Run

SHOWN = "eval_metadata.json"  # how the sentences' source is named


@frozen
class EvalSentences:
    """One eval's sentences, from the ``eval_metadata.json`` of its run at ``where``.
    ``file`` names that eval_metadata.json by its place in the workspace, and
    ``places`` holds the line and column of each sentence in it (``located``), for an
    error about a sentence; () when they could not be found again."""

    eval_id: str
    name: str | None
    prompt: str
    sentences: tuple[str, ...]
    where: str
    file: str = SHOWN
    places: tuple[tuple[int, int], ...] = ()


def sentences_of(metadata: dict) -> tuple[str, ...]:
    """The sentences of merged metadata: ``expectations`` (or ``assertions``), each a
    string or an object with a ``text`` string; anything else is left out."""
    listed = metadata.get(_listed_under(metadata))
    if not isinstance(listed, list):
        return ()
    return tuple(text for _, text in _sentence_items(listed))


def _listed_under(metadata: dict) -> str:
    return "expectations" if "expectations" in metadata else "assertions"


def _sentence_items(listed: list) -> list[tuple[int, str]]:
    """``(position in the list, text)`` of each item ``sentences_of`` keeps."""
    found = ((j, item.get("text") if isinstance(item, dict) else item) for j, item in enumerate(listed))
    return [(j, text) for j, text in found if isinstance(text, str) and text.strip()]


def located(run_dir: Path | str, rel: str, metadata: dict,
            sentences: tuple[str, ...]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The ``eval_metadata.json`` that gives the run at ``rel`` its ``sentences`` (of
    its merged ``metadata``), named by its place in the workspace (a folder above it as
    ``..``, as its problems are named), and the 1-based line and column of each
    sentence in it: an error about a sentence (``duplicate-text``) points there, as it
    does in evals.json. The run's folders are searched from its own up, the lowest level
    first, as it wins the merge, no further than an eval's metadata is read from;
    ``(SHOWN, ())`` when none of them gives these very sentences (a file changed since
    it was read)."""
    from referee.dsl.errors import line_col  # light: neither the parser nor the evals.json loader

    key = _listed_under(metadata)
    levels = [] if rel == "." else rel.split("/")
    folder = Path(run_dir)
    for up in range(len(levels) + _ABOVE):
        base = "/".join(levels[:len(levels) - up]) if up <= len(levels) else "/".join([".."] * (up - len(levels)))
        found = read_text(folder, METADATA, base, lossy=False)
        folder = folder.parent
        if found is None or found.text is None:
            continue
        text = found.text.removeprefix("\ufeff")
        offsets = _sentence_offsets(text, key)
        if offsets is None:
            continue
        places, texts = [line_col(text, at) for at, _ in offsets], tuple(said for _, said in offsets)
        if texts != sentences:
            break  # the file read now is not the one the sentences came from
        return join_report(base, METADATA), tuple(places)
    return SHOWN, ()


# The run's folder and the folders above the workspace an eval's metadata may be read
# from (a run graded on its own is named by its last few folders: ``identity``).
_ABOVE = 5


def _sentence_offsets(text: str, key: str) -> list[tuple[int, str]] | None:
    """The offset and text of each sentence listed under ``key`` in the JSON ``text``;
    None when the text is no JSON object with ``key``."""
    from referee.dsl.json_locate import child_offset

    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict) or key not in document or not isinstance(document[key], list):
        return None
    start = len(text) - len(text.lstrip(" \t\n\r"))
    listed_at = child_offset(text, start, key)
    found = []
    for j, said in _sentence_items(document[key]):
        at = child_offset(text, listed_at, j) if listed_at is not None else None
        if at is not None and isinstance(document[key][j], dict):
            at = child_offset(text, at, "text")
        if at is None:
            return None
        found.append((at, said))
    return found


def gathered(runs: Iterable[Run]) -> tuple[EvalSentences, ...]:
    """The sentences of each eval of ``runs``, from the first of its runs whose
    metadata gives some: what ``Discovery.expectations`` holds for a workspace."""
    found: dict[str, EvalSentences] = {}
    for run in runs:
        sentences = sentences_of(run.metadata) if run.id.eval_id not in found else ()
        if sentences:
            # a run held in memory (engine.run.memory) has no folder to find its file in
            folder = getattr(run, "path", None)
            file, places = (located(folder, run.id.rel, run.metadata, sentences)
                            if folder is not None and Path(folder).is_dir() else (SHOWN, ()))
            found[run.id.eval_id] = EvalSentences(run.id.eval_id, run.id.eval_name,
                                                  text_or_none(run.metadata.get("prompt")) or "", sentences,
                                                  run.id.rel, file, places)
    return tuple(found.values())


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def evals_file(found: tuple[EvalSentences, ...], trees: list[RulesFile]) -> EvalsFile:
    """The sentences as an evals.json would give them, with every eval the rules
    name that has none (so that a rules eval without metadata stays an eval)."""
    from referee.dsl.ast import Span
    from referee.dsl.evals_json import EvalEntry, EvalsFile

    entries = [EvalEntry(one.eval_id, one.name, one.prompt, one.sentences,
                         places=tuple(Span(line, column, line, column + 1) for line, column in one.places),
                         source=one.file)
               for one in found]
    known = {one.eval_id for one in found} | {one.name for one in found if one.name}
    for tree in trees:
        for block in tree.evals:
            if block.key not in known:
                entries.append(EvalEntry(block.key, block.name, "", ()))
                known.add(block.key)
    return EvalsFile(SHOWN, None, tuple(entries))
