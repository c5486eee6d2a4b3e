"""A check that only forbids, passed by a run that made no tool call while the eval's
other runs made some, is flagged in the eval's critique (``eval_feedback``). The merge
of a sharded grade makes that critique from the shards' tallies: it must flag the same
runs as one unsharded grade, so the merged reports are that grade's, byte for byte."""

from __future__ import annotations

import random
from pathlib import Path

from compare_workspace import build, rules
from referee.engine.cli import main
from referee.engine.facts.feedback import EvalTally, RunFacts
from referee.engine.shards.tally import fold, tally_from_json, tally_json

IDLE = "## Eval Prompt\n\nFetch the item.\n\n## [agent_notes] Step 1: plan\nI fetched it.\n"
REPORTS = ("grading.json", "ground_truth.json")


def _workspace(root: Path) -> Path:
    """Eval 1, four runs; without_skill/run-2 made no call and passes `not response contains "error"`."""
    build(root, {"with_skill": [["good", "good"]], "without_skill": [["good", "good"]]})
    outputs = root / "iteration-1" / "eval-1-task-1" / "without_skill" / "run-2" / "outputs"
    (outputs / "transcript.md").write_text(IDLE, encoding="utf-8")
    (outputs / "response.md").write_text("Done.\n", encoding="utf-8")
    return root


def _reports(workspace: Path) -> dict[str, bytes]:
    return {p.relative_to(workspace).as_posix(): p.read_bytes() for name in REPORTS for p in workspace.rglob(name)}


def test_merged_shards_flag_a_forbidding_check_passed_by_a_run_that_made_no_call(tmp_path: Path, capsys):
    rules_file = rules(tmp_path / "gen.rules", 1, negative=[1])
    whole = _workspace(tmp_path / "whole")
    assert main(["grade", str(whole), "--rules", str(rules_file)]) == 0
    expected = _reports(whole)
    assert any(b"that made no tool call" in data for data in expected.values())
    for count in (1, 2):
        sharded = _workspace(tmp_path / f"sharded-{count}")
        for index in range(1, count + 1):
            assert main(["grade", str(sharded), "--rules", str(rules_file), "--shard", f"{index}/{count}"]) == 0
        assert main(["merge", str(sharded), "--rules", str(rules_file)]) == 0
        assert _reports(sharded) == expected


def test_the_fold_keeps_the_runs_that_made_no_call():
    runs = [RunFacts(f"run-{n}", "with_skill" if n % 2 else "without_skill", () if n in (2, 5, 7) else ("fetch",),
                     ("pass", "fail" if n == 3 else "pass"), (False, False), None, True) for n in range(9)]
    whole = EvalTally(2)
    for run in runs:
        whole.add(run)
    parts = [EvalTally(2) for _ in range(3)]
    chooser = random.Random(3)
    for run in runs:
        parts[chooser.randrange(3)].add(run)
    folded = fold([tally_from_json(tally_json(part)) for part in parts], lambda path: int(path.split("-")[1]))
    assert (folded.working, folded.idle, folded.idle_count) == (whole.working, whole.idle, whole.idle_count)


def test_a_manifest_naming_other_idle_runs_than_its_reports_is_refused(tmp_path: Path, capsys):
    import json

    rules_file = rules(tmp_path / "gen.rules", 1, negative=[1])
    for edit in ({"idle": ["not/a/run"]}, {"idle_count": 7}, {"working": 9}):
        sharded = _workspace(tmp_path / f"sharded-{len(list(tmp_path.iterdir()))}")
        assert main(["grade", str(sharded), "--rules", str(rules_file), "--shard", "1/1"]) == 0
        name = sharded / "shard-1-of-1.json"
        data = json.loads(name.read_text(encoding="utf-8"))
        tally = data["feedback"][0]["tally"]
        position = tally["idle_count"].index(1)
        for field, value in edit.items():
            if field == "working":
                tally[field] = value
            else:
                tally[field][position] = value
        name.write_text(json.dumps(data), encoding="utf-8")
        capsys.readouterr()
        assert main(["merge", str(sharded), "--rules", str(rules_file)]) == 2
        err = capsys.readouterr().err
        assert "tally: shard-1-of-1.json: the reports of the runs it lists say otherwise" in err
        assert f"feedback[1].tally.{next(iter(edit)).removesuffix('_count')}" in err
