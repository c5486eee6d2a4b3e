"""``validate --reference DIR``: every reference run must pass its eval's gate, so a
reference folder whose runs cannot be checked (no eval of the rules matches one,
the folder holds no run, or is not there) is an input error, never a vacuous
"every reference run passes"."""

from __future__ import annotations

from pathlib import Path

from compare_workspace import build, graded, rules
from referee.engine.cli import main


def _validate(tmp_path: Path, capsys, reference: Path) -> tuple[int, str]:
    workspace = graded(tmp_path, {"with_skill": [["good"]] * 2, "without_skill": [["bad"]] * 2})
    capsys.readouterr()
    code = main(["validate", str(workspace), "--rules", str(rules(tmp_path / "gen.rules", 2)),
                 "--reference", str(reference), "--check", "--no-critique"])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_reference_run_no_eval_matches_is_an_error(tmp_path: Path, capsys):
    reference = build(tmp_path / "reference", {"reference": [["good"], ["good"]]}, iteration=None)
    (reference / "eval-9-task-9" / "reference" / "run-1" / "outputs").mkdir(parents=True)
    code, out = _validate(tmp_path, capsys, reference)
    assert code == 2, out
    assert "eval-9-task-9/reference/run-1 matches no eval of the rules" in out


def test_an_empty_reference_folder_is_an_error(tmp_path: Path, capsys):
    (tmp_path / "empty").mkdir()
    code, out = _validate(tmp_path, capsys, tmp_path / "empty")
    assert code == 2 and "--reference" in out and "no run found" in out


def test_a_missing_reference_folder_is_an_error(tmp_path: Path, capsys):
    code, out = _validate(tmp_path, capsys, tmp_path / "nowhere")
    assert code == 2 and "not a folder" in out


def test_reference_runs_every_eval_matches_are_checked(tmp_path: Path, capsys):
    reference = build(tmp_path / "reference", {"reference": [["good"], ["good"]]}, iteration=None)
    code, out = _validate(tmp_path, capsys, reference)
    assert code == 0, out
