"""Runs named as the user laid them out, and reports that do not depend on where
the command ran (issue: runs found as laid out; nothing depends on the working dir)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main
from referee.engine.run.user_notes import parse_user_notes
from referee.engine.run.workspace import discover, load_run

EXAMPLE = REPO / "examples"


def _ids(runs):
    return [(r.id.eval_id, r.id.configuration, r.id.run_number) for r in runs]


def _run(path: Path) -> Path:
    (path / "outputs").mkdir(parents=True)
    (path / "outputs" / "response.md").write_text("ok", encoding="utf-8")
    return path


def test_run_then_configuration_nesting(tmp_path):
    _run(tmp_path / "eval-processing-005" / "run-2" / "with_skill")
    _run(tmp_path / "eval-processing-005" / "run-2" / "without_skill")
    _run(tmp_path / "eval-processing-005" / "run-10" / "with_skill")
    found = discover(tmp_path)
    assert _ids(found.runs) == [("processing-005", "with_skill", 2), ("processing-005", "with_skill", 10),
                                ("processing-005", "without_skill", 2)]
    assert "run-then-configuration" in found.runs[0].id.extra["layout"]


def test_run_ids_that_are_not_numbers_are_numbered_by_place(tmp_path):
    _run(tmp_path / "eval-7" / "run-b81f" / "with_skill")
    _run(tmp_path / "eval-7" / "run-a3c0" / "with_skill")
    found = discover(tmp_path)
    assert sorted((r.id.extra["run_label"], r.id.run_number) for r in found.runs) == [
        ("run-a3c0", 1), ("run-b81f", 2)]
    assert not found.problems


def test_one_run_of_that_layout_alone_is_not_eval_with_skill(tmp_path):
    run_dir = _run(tmp_path / "eval-processing-005" / "run-x1" / "with_skill")
    run = load_run(run_dir)
    assert (run.id.eval_id, run.id.configuration) == ("processing-005", "with_skill")
    assert run.id.extra["path"] == "eval-processing-005/run-x1/with_skill"
    assert _ids(discover(run_dir).runs) == [("processing-005", "with_skill", 1)]


@pytest.mark.parametrize("level", ["eval-3", "eval-3/with_skill", "eval-3/run-4"])
def test_any_folder_level_below_the_eval_keeps_the_eval(tmp_path, level):
    _run(tmp_path / "eval-3" / "with_skill" / "run-1")
    _run(tmp_path / "eval-3" / "run-4" / "with_skill")
    runs = discover(tmp_path / level).runs
    assert runs and {r.id.eval_id for r in runs} == {"3"}
    assert {r.id.configuration for r in runs} == {"with_skill"}
    assert all("inside eval folder 'eval-3'" in r.id.extra["layout"] for r in runs)


def test_show_says_how_an_unusual_layout_was_read(tmp_path, capsys):
    _run(tmp_path / "eval-9" / "run-1" / "with_skill")
    assert main(["show", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "eval 9  configuration with_skill  run 1" in out
    assert "read as: run-then-configuration nesting" in out


def test_grade_run_dir_gives_the_run_its_identity(tmp_path, capsys):
    shutil.copytree(EXAMPLE, tmp_path / "examples")
    run_dir = tmp_path / "examples/booking-skill-workspace/iteration-1/eval-1-book-flight/with_skill/run-1"
    main(["grade", str(run_dir), "--rules", str(tmp_path / "examples/booking-skill/booking.rules")])
    report = json.loads((run_dir / "grading.json").read_text(encoding="utf-8"))
    assert report["run"]["path"] == "eval-1-book-flight/with_skill/run-1"
    assert (report["run"]["eval_id"], report["run"]["configuration"], report["run"]["run_number"]) == (
        "1", "with_skill", 1)
    assert "PASS  eval-1-book-flight/with_skill/run-1" in capsys.readouterr().out


def _grade_from(cwd: Path, workspace: Path, rules: Path, evals: Path, monkeypatch) -> dict[str, bytes]:
    monkeypatch.chdir(cwd)
    assert main(["grade", str(workspace), "--rules", str(rules), "--evals", str(evals)]) == 1
    return {p.relative_to(workspace).as_posix(): p.read_bytes() for p in sorted(workspace.rglob("grading.json"))}


def test_byte_identical_from_three_working_directories_and_two_workspace_paths(tmp_path, monkeypatch):
    one, two = tmp_path / "a", tmp_path / "b" / "deeper"
    for root in (one, two):
        shutil.copytree(EXAMPLE, root / "examples")
    results = []
    for root in (one, two):
        ws, skill = root / "examples/booking-skill-workspace", root / "examples/booking-skill"
        rules, evals = skill / "booking.rules", skill / "evals/evals.json"
        results.append(_grade_from(root, ws.relative_to(root), rules.relative_to(root),
                                   evals.relative_to(root), monkeypatch))
        results.append(_grade_from(skill, Path("../booking-skill-workspace"), Path("booking.rules"),
                                   Path("evals/evals.json"), monkeypatch))
        results.append(_grade_from(tmp_path, ws, rules, evals, monkeypatch))
    assert len(results[0]) == 6
    assert all(found == results[0] for found in results[1:])
    locations = {e["rules_location"].rsplit(":", 2)[0] for raw in results[0].values()
                 for e in json.loads(raw)["expectations"]}
    assert len(locations) == 1 and locations.pop().startswith("booking.rules@")


def test_a_bullet_with_nested_sub_bullets_is_one_suggestion():
    notes = parse_user_notes("## Suggestions\n- add a lookup tool\n  - for fares\n  - for seats\n"
                             "    - nested deeper\n\t- tab-indented\n- second suggestion\n")
    assert notes.suggestions == ("add a lookup tool; for fares; for seats; nested deeper; tab-indented",
                                 "second suggestion")


def _show_ids(path: Path, capsys) -> list[tuple]:
    assert main(["show", str(path), "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    return [(r["run"]["eval_id"], r["run"]["configuration"], r["run"]["run_number"]) for r in runs]


def _grade_ids(path: Path, capsys) -> list[tuple]:
    rules = path.parent / "any.rules"
    rules.write_text('eval "session"\nexpect "x": response is not empty\n', encoding="utf-8")
    main(["grade", str(path), "--rules", str(rules), "--check", "--json"])
    runs = json.loads(capsys.readouterr().out)["runs"]
    return [(r["eval_id"], r["configuration"], r["run_number"]) for r in runs]


def test_an_imported_run_has_one_identity_from_its_folder_and_from_above(tmp_path, capsys):
    log = tmp_path / "logs" / "session.md"
    log.parent.mkdir()
    log.write_text("## Execution\n\n### Step 1: Read\n**Tool**: Read\n\n## Final Result\n\nDone.\n", encoding="utf-8")
    out = tmp_path / "deep" / "ws"
    assert main(["import", "skill-creator-log", str(log), "--out", str(out)]) == 0
    capsys.readouterr()
    run = out / "session"
    want = [("session", "default", 1)]
    for where in (run, out, out.parent):
        assert _show_ids(where, capsys) == want, where
        assert _grade_ids(where, capsys) == want, where


def test_eval_metadata_may_name_the_eval_with_name(tmp_path):
    _run(tmp_path / "iteration-1" / "eval-3" / "with_skill")
    (tmp_path / "iteration-1" / "eval-3" / "eval_metadata.json").write_text(
        '{"eval_id": 3, "name": "rewrite-intro", "expectations": ["Keeps the title"]}', encoding="utf-8")
    (run,) = discover(tmp_path).runs
    assert (run.id.eval_id, run.id.eval_name) == ("3", "rewrite-intro")
