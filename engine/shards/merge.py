"""The merge: a record of the merged reports, then every run gets the eval critique of all its eval's runs.

A shard wrote each run's ``eval_feedback`` from the runs it saw. The merge folds
the shards' tallies of each eval (``tally.fold``), makes the feedback one grade
of every run would have made, and writes it into each grading.json whose block
differs (the document read back and rendered again by ``report.run_report``, so
the bytes are the ones ``grade`` writes). Nothing else in a report depends on
other runs, so the merged reports are the unsharded grade's, byte for byte.
``shard-merge.json`` records the manifests merged and every report's digest,
for ``aggregate`` and ``report`` to check; it is written before the reports it
records, so a merge stopped half-way is completed by the next one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from referee.engine.facts.feedback import eval_feedback
from referee.engine.report.atomic import encode, write_atomic
from referee.engine.report.freshness import file_digest, folder_digest, text_digest
from referee.engine.report.marker import GRADING, GROUND_TRUTH
from referee.engine.report.run_report import RunReport, read_report
from referee.engine.shards.recount import disagreements, seen_in
from referee.engine.shards.tally import fold, tally_from_json
from referee.engine.shards.verify import MERGE_RECORD, MergeRefused, Shards, manifest_digests

if TYPE_CHECKING:
    from referee.engine.compile import Program

FORMAT = "referee-shard-merge"


@dataclass
class Merged:
    """What the merge found: runs, their gates, and how many reports it rewrote."""

    runs: int = 0
    passed_runs: int = 0
    empty_runs: int = 0  # nothing counted toward their gate: neither passed nor failed
    gate_passed: int = 0
    gate_total: int = 0
    rewritten: int = 0
    primary: str | None = None  # the shards' --primary: the gate counts its runs alone
    unread: tuple[str, ...] = ()  # run folders the gate counts that cannot be read (no outputs/)
    graded_evals: set[str] = field(default_factory=set)  # the rules' evals of the runs the gate counts
    no_runs: tuple[str, ...] = ()  # the evals the rules check that no shard graded a run by

    @property
    def exit_code(self) -> int:
        """``referee grade``'s rule over every shard's runs: 0 when every counted
        assertion passed (and some counted), no run folder it counts was left unread
        and no eval the rules check was left with no run, else 1; with
        ``--primary``, over the runs of that configuration."""
        decided = self.gate_total and self.gate_passed == self.gate_total
        return 0 if decided and not self.unread and not self.no_runs else 1


def feedbacks(shards: Shards, program: Program) -> dict[str, dict]:
    """Each eval's ``eval_feedback`` over the runs of every shard."""
    from referee.engine.grade import eval_of

    unfit = _unfit_facts(shards, program)
    if unfit:
        raise MergeRefused(unfit)
    parts: dict[str, list[Any]] = {}
    for index in sorted(shards.manifests):
        for part in shards.manifests[index][1].feedback:
            parts.setdefault(part.key, []).append(part)
    order = {path: run.order for path, run in shards.runs.items()}
    found = {}
    for key, same in parts.items():
        extras = {json.dumps(p.extra, sort_keys=True) for p in same}
        if len(extras) > 1 or len({p.tally.positions for p in same}) > 1:
            raise MergeRefused([("mixed", f"the shards' critique of eval {key} was made from different "
                                          "critique.json findings or assertions; grade every shard alike")])
        tally = fold((tally_from_json(p.tally.model_dump()) for p in same), lambda path: order.get(path, len(order)))
        found[key] = eval_feedback(eval_of(program, key).assertions, tally, same[0].extra)
    return found


def _unfit_facts(shards: Shards, program: Program) -> list[tuple[str, str]]:
    """Each manifest's critique facts of an eval the rules do not have, or of another
    number of assertions than the rules give it: the manifest was edited, or made with
    other rules (whose digest it was then given), and its facts cannot be folded."""
    assertions = {compiled.key: len(compiled.assertions) for compiled in program.evals}
    problems = []
    for index in sorted(shards.manifests):
        name, m = shards.manifests[index]
        for part in m.feedback:
            if part.key not in assertions:
                problems.append(("foreign", f"{name} holds critique facts of eval {part.key}, which the rules "
                                            "do not have: grade its shard again"))
            elif part.tally.positions != assertions[part.key]:
                problems.append(("foreign", f"{name} holds critique facts of eval {part.key} for "
                                            f"{_assertions(part.tally.positions)}, where the rules give it "
                                            f"{assertions[part.key]}: grade its shard again"))
    return problems


def _assertions(count: int) -> str:
    return f"{count} assertion{'' if count == 1 else 's'}"


def merge(workspace: Path, shards: Shards, program: Program, write: bool = True) -> Merged:
    """Give every graded run its eval's feedback over all shards (written when it
    differs, unless not ``write``), then write shard-merge.json."""
    made = feedbacks(shards, program)
    merged = Merged(primary=shards.first.options.get("primary"))
    record = []
    rewrite = []  # the runs whose grading.json gets the merged feedback
    edited = []  # runs whose files are not the ones their shard graded
    seen: dict = {}  # (manifest, eval key) -> what the reports of its runs show (``recount``)
    facts_of = {name: {part.key for part in m.feedback} for name, m in shards.manifests.values()}
    for path, name in sorted(_graded(shards).items()):
        folder = shards.runs[path].folder
        document = _report(path, folder)
        key = document["run"]["rules_eval"]
        if merged.primary is None or document["run"]["configuration"] == merged.primary:
            merged.graded_evals.add(key)
        if key not in facts_of[name]:
            # Its eval's critique would be made from the other shards' runs alone.
            edited.append(("foreign", f"{name} lists {path}, but holds no critique facts of eval {key}, which "
                                      "its shard graded it by: the manifest was edited; grade its shard again"))
            continue
        if _edited(document, folder):
            edited.append(("changed", f"{path}: its files changed since {name} graded it (edited, imported "
                                      "again, or another copy of the run); grade its shard again and merge"))
        forged = _miscounted(document)
        if forged:
            edited.append(("changed", f"{path}: {GRADING}'s counts disagree with its expectations "
                                      f"({'; '.join(forged[:3])}): it was changed after {name} graded it; "
                                      "grade its shard again and merge"))
            continue
        seen_in(seen, shards, name, key, path, document)
        grading = file_digest(folder / GRADING)
        if _give_feedback(document, made):
            merged.rewritten += 1
            rewrite.append((path, folder))
            grading = text_digest(encode(RunReport(document).grading_text()))
        _count(merged, document["gate"], document["run"]["configuration"])
        record.append({"path": path, "grading": grading, "ground_truth": file_digest(folder / GROUND_TRUTH)})
    if not edited:  # a report already refused would be counted short
        edited = disagreements(shards, seen)
    if edited:
        raise MergeRefused(edited)
    if write:
        # The record first, then the reports: a merge stopped between them (a full disk,
        # a report that cannot be replaced) leaves each report its shard's or the
        # merge's, both of which a second merge accepts. Reports rewritten before a
        # record that was never written would be neither, and no merge could follow.
        names = [name for name, _ in shards.manifests.values()]
        write_atomic(workspace / MERGE_RECORD, json.dumps(
            {"format": FORMAT, "version": 1, "shards": shards.count,
             "manifests": manifest_digests(workspace, names), "runs": record}, ensure_ascii=False, indent=2) + "\n")
        for path, folder in rewrite:  # read again, so that memory does not grow with the runs
            document = _report(path, folder)
            _give_feedback(document, made)
            write_atomic(folder / GRADING, RunReport(document).grading_text())
    return merged


def _report(path: str, folder: Path) -> dict[str, Any]:
    from referee.engine.decision.shape import grading_shape, shape_problem

    document = read_report(folder)
    if not isinstance(document, dict):
        raise MergeRefused([("changed", f"{path}/{GRADING}: {document.message}")])
    wrong = shape_problem(document, grading_shape("merge"))
    if wrong is not None:
        raise MergeRefused([("changed", f"{path}/{GRADING} is not as referee writes it ({wrong}): it was "
                                        "changed after its shard graded it; grade its shard again and merge")])
    return document


def _give_feedback(document: dict[str, Any], made: dict[str, dict]) -> bool:
    """Put its eval's merged feedback into the run's report; False when it had it."""
    feedback = made[document["run"]["rules_eval"]]
    if document["eval_feedback"] == feedback:
        return False
    document["eval_feedback"] = feedback
    return True


def _edited(document: dict[str, Any], folder: Path) -> bool:
    """Whether the run's files are not the ones its report was graded from: the merged
    decision would rest on verdicts about other evidence than the workspace holds."""
    recorded = document["run"].get("files_digest")
    return recorded is not None and folder_digest(folder) != recorded


def _miscounted(document: dict[str, Any]) -> list[str]:
    """How the report's stated counts disagree with its expectations (``decision.recount``):
    the merge's decision is counted from its gate, so a gate raised by hand (and the
    manifest's digest changed to match) would turn failed runs into passes."""
    from referee.engine.decision.recount import Item, disagreements

    try:  # its shape is checked as it is read (``_report``)
        items = [Item(str(e["key"]), e["outcome"], e["passed"], e["precision"], e["gated"])
                 for e in document["expectations"]]
        return disagreements(items, document["summary"], document["gate"])
    except (KeyError, TypeError, AttributeError) as exc:
        return [f"it lacks what its counts are checked by ({exc})"]


def _graded(shards: Shards) -> dict[str, str]:
    """The manifest that graded each run, by the run's path."""
    return {entry.path: name for name, m in shards.manifests.values() for entry in m.runs}


def _count(merged: Merged, gate: dict[str, Any], configuration: str) -> None:
    merged.runs += 1
    merged.passed_runs += 1 if gate["total"] and gate["passed"] == gate["total"] else 0
    merged.empty_runs += 0 if gate["total"] else 1
    if merged.primary is None or configuration == merged.primary:  # others are context, as in grade
        merged.gate_passed += gate["passed"]
        merged.gate_total += gate["total"]


def read_record(workspace: Path) -> dict[str, Any] | None:
    """shard-merge.json's content, or None when there is none (or it is not one)."""
    from referee.engine.run.safeio import read_named_file

    path = workspace / MERGE_RECORD
    if not path.is_file() or path.is_symlink():
        return None
    data, _ = read_named_file(path, MERGE_RECORD, 1024 * 1024 * 1024)
    try:
        value = json.loads(data or b"")
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the decoder's stack
        return None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        return None
    try:  # JSON of another shape (damaged, or edited by hand) records no merge
        _Record.model_validate(value)
    except ValidationError:
        return None
    return value


class _RecordRun(BaseModel):
    model_config = ConfigDict(strict=True)

    path: str
    grading: str | None
    ground_truth: str | None


class _Record(BaseModel):
    """The shape of shard-merge.json, as ``merge`` writes it and ``verify`` reads it."""

    model_config = ConfigDict(strict=True)

    manifests: dict[str, str | None]
    runs: list[_RecordRun]
