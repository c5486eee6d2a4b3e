"""What ``referee grade --shard i/n`` does besides grading: pick its runs, and say
what it graded in ``shard-i-of-n.json`` once they are written.

Every shard discovers the whole workspace, so each run is seen by all shards and
graded by exactly one; what a grade reads of the whole workspace (the evals'
sentences in eval_metadata.json, eval ids shared by two folders) is the same in
every shard. A shard with no run is valid: its manifest says so.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from referee.engine import __version__
from referee.engine.report.freshness import file_digest
from referee.engine.report.marker import GRADING, GROUND_TRUTH
from referee.engine.run.select import Selection
from referee.engine.run.workspace import RunList, report_path
from referee.engine.shards.manifest import FORMAT, VERSION, digest
from referee.engine.shards.part import Shard, identity_of, sorted_identities
from referee.engine.shards.tally import tally_json

if TYPE_CHECKING:
    import argparse

    from referee.engine.compile import Program
    from referee.engine.grade import RulesSource
    from referee.engine.report.stored import Stored
    from referee.engine.run.workspace import Run
    from referee.engine.shards.tally import EvalTally

NOT_SELECTED = "not selected"
NO_EVAL = "no eval of the rules matches it"


@dataclass
class ShardPart:
    """The shard's runs: the ones to grade (``runs``, in the workspace's order, a
    ``RunList`` when discovery gave one), their identities and paths, and the
    shard's runs that the selection leaves out."""

    shard: Shard
    runs: Sequence[Run]
    entries: list[dict[str, Any]] = field(default_factory=list)  # of ``runs``, in order
    left_out: list[dict[str, Any]] = field(default_factory=list)


def shard_part(runs: Sequence[Run], shard: Shard, selection: Selection) -> ShardPart:
    """The runs of ``shard`` among a discovery's ``runs`` (each built once, for its
    identity), split into those ``selection`` keeps and those it leaves out."""
    numbers: list[int] = []
    part = ShardPart(shard, [])
    for number, run in enumerate(runs):
        identity = identity_of(run.id)
        if not shard.holds(identity):
            continue
        entry = _entry(identity, report_path(run.id))
        if selection.matches(run.id.eval_id, run.id.eval_name, run.id.configuration, run.id.run_number):
            numbers.append(number)
            part.entries.append(entry)
        else:
            part.left_out.append({**entry, "reason": NOT_SELECTED})
    part.runs = runs.subset(numbers) if isinstance(runs, RunList) else [runs[n] for n in numbers]
    return part


def _entry(identity: tuple[str, str, int], path: str) -> dict[str, Any]:
    eval_id, configuration, run_number = identity
    return {"eval_id": eval_id, "configuration": configuration, "run_number": run_number, "path": path}


def rules_settings(source: RulesSource) -> tuple[list[dict[str, str]], str | None]:
    """The manifest's ``rules`` (each file's name and the SHA-256 of its text, sorted)
    and ``evals`` (the digest of evals.json, or of the sentences the evals'
    eval_metadata.json gave) for a ``grade.RulesSource``."""
    rules = sorted(({"file": shown.rpartition("@")[0] or shown, "sha256": digest(text)}
                    for shown, text in source.files), key=lambda r: (r["file"], r["sha256"]))
    if source.evals_path is not None:
        return rules, digest(Path(source.evals_path).read_bytes())
    if source.sentences:
        sentences = [asdict(one) for one in source.sentences]
        return rules, "metadata " + digest(json.dumps(sentences, ensure_ascii=False, sort_keys=True))
    return rules, None


def judge_settings(args: argparse.Namespace) -> dict[str, Any] | None:
    """The LLM grader as the manifest records it: no path (a cassette is named by its
    digest, taken after grading, when a recording has added to it), no key."""
    spec = getattr(args, "llm", None)
    if not spec:
        return None
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    found: dict[str, Any] = {"kind": kind, "per_assertion": bool(args.llm_per_assertion)}
    if kind in ("openai", "anthropic"):
        found["model"] = rest.strip()
        if kind == "openai":  # sent with each request (the Anthropic API takes none)
            found["seed"] = args.llm_seed
        found["endpoint"] = _endpoint(kind, args)
        return found
    found["backend"] = args.llm_backend
    found["cassette"] = file_digest(Path(rest.strip()))
    asks = kind != "replay" and args.llm_backend and not (args.llm_batch_export or args.llm_batch_import)
    if asks:  # record: and auto: ask the backend's server what the cassette lacks
        found["endpoint"] = _endpoint(args.llm_backend.partition(":")[0].strip().lower(), args)
    return found


def _endpoint(kind: str, args: argparse.Namespace) -> str:
    """The server a live grader asks, without user, password or query: two servers may
    serve one model name, and shards answered by two graders are ``mixed``. A manifest
    written before it was recorded has none: such shards merge only with each other."""
    from referee.llm_adapter.backends import endpoint  # --llm is given: the adapter is loaded

    return endpoint(kind, args.llm_base_url)


def inputs_settings(program: Program) -> dict[str, dict[str, str]]:
    """The manifest's ``inputs``: for each eval whose rules read input files (``input
    "x"``), the digest of each file's text as the rules were compiled with it. Read when
    each shard compiles its rules, so shards given other input files are ``mixed``."""
    return {compiled.key: dict(compiled.inputs) for compiled in program.evals if compiled.inputs}


def manifest(part: ShardPart, source: RulesSource, judge: dict[str, Any] | None, options: Mapping[str, Any],
             graded: Sequence[Stored | None], tallies: Mapping[str, EvalTally],
             extra: Mapping[str, Sequence[dict]], inputs: Mapping[str, dict[str, str]]) -> dict[str, Any]:
    """The manifest of a shard whose runs were all written: ``graded`` holds, in the
    order of ``part.runs``, each run's ``Stored`` or None (no eval matched)."""
    rules, evals = rules_settings(source)
    runs, left_out = [], list(part.left_out)
    for entry, stored in zip(part.entries, graded, strict=True):
        if stored is None:
            left_out.append({**entry, "reason": NO_EVAL})
            continue
        folder = stored.place.path
        runs.append({**entry, "grading": file_digest(folder / GRADING), "ground_truth": file_digest(folder / GROUND_TRUTH)})
    return {
        "format": FORMAT, "version": VERSION, "referee": __version__,
        "shard": part.shard.index, "shards": part.shard.count,
        "rules": rules, "evals": evals, "inputs": dict(sorted(inputs.items())), "judge": judge,
        "options": dict(options),
        "runs": sorted_identities(runs), "left_out": sorted_identities(left_out),
        "feedback": [{"key": key, "tally": tally_json(tallies[key]), "extra": list(extra.get(key, ()))}
                     for key in sorted(tallies)],
    }
