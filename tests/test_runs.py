"""Workspace discovery: every layout, natural order, identity, and warnings for junk."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.run.workspace import discover, eval_from_folder, load_run, natural_key

FIXTURES = Path(__file__).parent / "fixtures" / "workspaces"


def _ids(discovery):
    return [(r.id.rel, r.id.eval_id, r.id.eval_name, r.id.configuration, r.id.run_number) for r in discovery.runs]


def test_layouts_are_found_in_natural_order():
    found = discover(FIXTURES / "layouts")
    base = "iteration-1/"
    assert _ids(found) == [
        (base + "eval-2-alpha/with_skill/run-1", "2", "alpha", "with_skill", 1),
        (base + "eval-2-alpha/with_skill/run-2", "2", "alpha", "with_skill", 2),
        (base + "eval-2-alpha/with_skill/run-10", "2", "alpha", "with_skill", 10),
        (base + "eval-2-alpha/without_skill/run-1", "2", "alpha", "without_skill", 1),
        (base + "eval-4-broken/with_skill/run-1", "4", "broken", "with_skill", 1),
        (base + "eval-3/with_skill/run-1", "7", "from-eval-level", "with_skill", 1),
        (base + "eval-3/with_skill/run-2", "7", "from-run-level", "with_skill", 2),
        (base + "eval-10-beta/old_skill", "10", "beta", "old_skill", 1),
        (base + "eval-sales/with_skill", "sales", None, "with_skill", 1),
        (base + "sales-summary/new_skill", "sales-summary", None, "new_skill", 1),
    ]
    assert {r.id.iteration for r in found.runs} == {1}


def test_layout_junk_is_warned_with_its_path_never_a_crash():
    found = discover(FIXTURES / "layouts")
    warned = {(p.code, p.path) for p in found.problems}
    assert warned == {
        ("stray-file", "iteration-1/eval-notes.txt"),
        ("stray-file", "iteration-1/eval-2-alpha/with_skill/run-1.log"),
        ("bad-run-name", "iteration-1/eval-2-alpha/with_skill/run-a"),
    }


def test_broken_metadata_is_a_problem_of_the_run_with_line():
    found = discover(FIXTURES / "layouts")
    run = next(r for r in found.runs if r.id.eval_id == "4")
    assert [(p.code, p.path, p.line) for p in run.problems] == [
        ("bad-json", "iteration-1/eval-4-broken/eval_metadata.json", 2)
    ]
    assert run.response.text == "broken metadata\n"


def test_metadata_run_level_wins_and_merges():
    found = discover(FIXTURES / "layouts")
    run = next(r for r in found.runs if r.id.rel.endswith("eval-3/with_skill/run-2"))
    assert run.metadata == {"eval_id": 7, "eval_name": "from-run-level", "prompt": "p"}


def test_flat_layout_reads_timing_in_the_config_dir():
    found = discover(FIXTURES / "layouts")
    run = next(r for r in found.runs if r.id.configuration == "old_skill")
    assert run.timing.value == {"total_tokens": 10, "duration_ms": 5}
    assert run.transcript.calls == ()


def test_skillsentry_layout():
    found = discover(FIXTURES / "skillsentry")
    assert _ids(found) == [
        ("eval-1/with_skill", "1", None, "with_skill", 1),
        ("eval-1/without_skill", "1", None, "without_skill", 1),
    ]
    assert found.problems == []


def test_legacy_runs_layout():
    found = discover(FIXTURES / "legacy")
    assert _ids(found) == [("runs/eval-1-legacy/with_skill/run-1", "1", "legacy", "with_skill", 1)]
    assert found.runs[0].id.iteration is None


def test_eval_without_config_level(tmp_path):
    (tmp_path / "iteration-2" / "eval-5-x" / "outputs").mkdir(parents=True)
    found = discover(tmp_path)
    assert _ids(found) == [("iteration-2/eval-5-x", "5", "x", "default", 1)]
    assert found.runs[0].id.iteration == 2


def test_empty_folders_and_runs_without_outputs_are_warned(tmp_path):
    (tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-1" / "outputs").mkdir(parents=True)
    (tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-2").mkdir()
    (tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-3").mkdir()
    (tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-3" / "transcript.md").write_text("x")
    (tmp_path / "iteration-1" / "eval-9").mkdir()
    (tmp_path / "iteration-1" / "eval-8" / "notes").mkdir(parents=True)
    (tmp_path / "iteration-1" / "eval-8" / "notes" / "a.txt").write_text("x")
    found = discover(tmp_path)
    assert [r.id.run_number for r in found.runs] == [1]
    assert [(p.code, p.path) for p in found.problems] == [
        ("empty-dir", "iteration-1/eval-1/with_skill/run-2"),
        ("no-outputs", "iteration-1/eval-1/with_skill/run-3"),
        ("no-runs", "iteration-1/eval-8"),
        ("empty-dir", "iteration-1/eval-9"),
    ]


def test_symlinked_folders_are_not_followed(tmp_path):
    outside = tmp_path / "outside"
    (outside / "outputs").mkdir(parents=True)
    ws = tmp_path / "ws"
    (ws / "eval-1" / "with_skill" / "outputs").mkdir(parents=True)
    (ws / "eval-1" / "linked").symlink_to(outside, target_is_directory=True)
    (ws / "eval-1" / "loop").symlink_to(ws, target_is_directory=True)
    found = discover(ws)
    assert [r.id.rel for r in found.runs] == ["eval-1/with_skill"]
    assert [(p.code, p.path) for p in found.problems] == [
        ("symlink-skipped", "eval-1/linked"),
        ("symlink-skipped", "eval-1/loop"),
    ]


def test_missing_workspace_is_a_problem(tmp_path):
    found = discover(tmp_path / "nope")
    assert found.runs == [] and [p.code for p in found.problems] == ["not-a-directory"]


def test_workspace_that_is_a_run(tmp_path):
    run_dir = tmp_path / "eval-3-solo" / "with_skill"
    (run_dir / "outputs").mkdir(parents=True)
    found = discover(run_dir)
    assert _ids(found) == [(".", "3", "solo", "with_skill", 1)]


def test_load_run_alone_names_problems_relative_to_the_run(tmp_path):
    run_dir = tmp_path / "eval-6-lone" / "cfg" / "run-4"
    (run_dir / "outputs").mkdir(parents=True)
    (run_dir.parents[1] / "eval_metadata.json").write_text("[1, 2]")
    (run_dir / "outputs" / "metrics.json").write_text("{nope")
    run = load_run(run_dir).load()
    assert (run.id.rel, run.id.eval_id, run.id.eval_name, run.id.configuration, run.id.run_number) == (
        ".", "6", "lone", "cfg", 4)
    assert [(p.code, p.path) for p in run.problems] == [
        ("bad-metadata", "../../eval_metadata.json"),
        ("bad-json", "outputs/metrics.json"),
    ]
    assert all(not Path(p.path).is_absolute() for p in run.problems)


def test_load_run_with_workspace(tmp_path):
    run_dir = tmp_path / "iteration-1" / "eval-1" / "a" / "run-1"
    (run_dir / "outputs").mkdir(parents=True)
    run = load_run(run_dir, tmp_path)
    assert run.id.rel == "iteration-1/eval-1/a/run-1" and run.id.iteration == 1


def test_eval_from_folder():
    assert eval_from_folder("eval-3-sales-summary") == ("3", "sales-summary")
    assert eval_from_folder("eval-03") == ("3", None)
    assert eval_from_folder("eval-sales") == ("sales", None)
    assert eval_from_folder("sales-summary") == ("sales-summary", None)
    assert eval_from_folder("Eval_12_x") == ("12", "x")


def test_natural_key():
    names = ["eval-10", "eval-2", "eval-1", "eval-b", "eval-a"]
    assert sorted(names, key=natural_key) == ["eval-1", "eval-2", "eval-10", "eval-a", "eval-b"]


def test_metadata_id_as_text_and_ignored_types(tmp_path):
    run_dir = tmp_path / "eval-2" / "c"
    (run_dir / "outputs").mkdir(parents=True)
    (tmp_path / "eval-2" / "eval_metadata.json").write_text(json.dumps({"eval_id": True, "eval_name": ["x"]}))
    run = discover(tmp_path).runs[0]
    assert (run.id.eval_id, run.id.eval_name) == ("2", None)
