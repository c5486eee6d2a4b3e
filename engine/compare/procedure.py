"""The comparison from flags to documents, shared by ``compare`` and ``analyze``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.dsl.frozen import frozen
from referee.engine.compare import blind, documents, load, pairs, rubric, skill
from referee.engine.compare.holistic import Holistic
from referee.engine.run.workspace import natural_key
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    import argparse


@frozen
class Setup:
    loaded: load.Loaded
    primary: str
    baseline: str
    tags: dict[str, rubric.Tag]
    skill: skill.Skill
    scrub: blind.Scrubber


@frozen
class Compared:
    decided: list[pairs.Decided]
    documents: dict[str, dict]  # file name -> comparison
    summary: dict


def setup(workspace: Path, *, iteration: int | None = None, primary: str | None = None,
          baseline: str | None = None, rubric_file: Path | None = None, skill_path: Path | None = None,
          evals: Path | None = None) -> Setup:
    """Read the graded runs and settle the roles; UsageError when there is nothing to compare."""
    from referee.engine.decision.configurations import choose

    loaded = load.load(workspace, iteration)
    choice = choose(loaded.configurations, primary, baseline)
    if choice.baseline is None:
        raise UsageError(f"only one configuration ({choice.primary}): there is nothing to compare")
    found = skill.find(skill_path, evals)
    scrub = blind.Scrubber.of(blind.secrets([(r.configuration, r.path) for r in loaded.runs], found.names))
    return Setup(loaded, choice.primary, choice.baseline, rubric.load_tags(rubric_file), found, scrub)


def setup_from(args: argparse.Namespace) -> Setup:
    """``setup`` from the flags ``compare`` and ``analyze`` share."""
    return setup(args.workspace, iteration=args.iteration, primary=args.primary, baseline=args.baseline,
                 rubric_file=args.rubric, skill_path=args.skill_path, evals=args.evals)


def compare(found: Setup, seed: int, holistic: Holistic | None = None, jobs: int = 1) -> Compared:
    """Every pair decided, its document, and the summary across evals."""
    every = pairs.pairs(found.loaded, found.primary, found.baseline, seed)
    if not every:
        raise UsageError(f"no eval has graded runs of both {found.primary} and {found.baseline}")
    decided = pairs.decide_all(every, found.tags, holistic, lambda pair: task(pair, found.skill),
                               found.scrub, jobs)
    docs = {documents.file_name(d.pair.number): documents.comparison(d, found.tags, seed, found.scrub)
            for d in decided}
    inputs = {"runs": len(found.loaded.runs), "digest": load.digest_of(found.loaded.runs)}
    usage = None if holistic is None else holistic.usage()
    roles = (found.primary, found.baseline)
    summary = documents.summary(decided, found.primary, found.baseline, seed, _evals(found.loaded, roles), inputs,
                                usage, lambda eval_id: found.loaded.unread_of(eval_id, roles),
                                lambda eval_id: _sides(found.loaded, eval_id, roles))
    return Compared(decided, docs, summary)


def _evals(loaded: load.Loaded, roles: tuple[str, str]) -> list[tuple[str, str | None]]:
    """The evals of the runs read, and those whose runs of the two sides were none of
    them read (named by their id alone), in natural order of the ids."""
    found = dict(loaded.evals())
    for eval_id, configuration, _ in loaded.unread:
        if configuration in roles:
            found.setdefault(eval_id, None)
    return sorted(found.items(), key=lambda pair: natural_key(pair[0]))


def _sides(loaded: load.Loaded, eval_id: str, roles: tuple[str, str]) -> list[str]:
    """The roles the eval has graded runs of, in the order of ``roles``."""
    found = {run.configuration for run in loaded.runs if run.eval_id == eval_id}
    return [role for role in roles if role in found]


def task(pair: pairs.Pair, found: skill.Skill) -> str:
    """The eval's prompt: evals.json's, else the run's eval_metadata.json, else its transcript's."""
    prompt = found.prompts.get(pair.eval_id) or pair.primary.source.metadata.get("prompt")
    if not isinstance(prompt, str):
        prompt = pair.primary.source.transcript.prompt
    return prompt if isinstance(prompt, str) else ""
