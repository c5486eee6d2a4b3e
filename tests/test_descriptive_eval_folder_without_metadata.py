"""A descriptive eval folder (skill-creator's naming, without ``eval-``) with no
eval_metadata.json, given as the workspace: it lies right below an iteration
folder, where only evals lie, so its configuration folders stay configurations of
that eval, as they are when the whole workspace is given, never evals of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.run.workspace import discover


def _workspace(root: Path, runs: bool) -> Path:
    eval_dir = root / "iteration-1" / "expense draft"
    for config in ("with_skill", "without_skill"):
        run = eval_dir / config / "run-1" if runs else eval_dir / config
        (run / "outputs").mkdir(parents=True)
        (run / "outputs" / "response.md").write_text("ok", encoding="utf-8")
    return eval_dir


def _ids(where: Path) -> list[tuple]:
    return [(r.id.eval_id, r.id.configuration, r.id.run_number) for r in discover(where).runs]


@pytest.mark.parametrize("runs", [False, True])
def test_the_eval_folder_alone_keeps_its_configurations(tmp_path, runs):
    eval_dir = _workspace(tmp_path, runs)
    expected = [("expense draft", "with_skill", 1), ("expense draft", "without_skill", 1)]
    assert _ids(tmp_path) == expected
    assert _ids(eval_dir) == expected


def test_a_folder_of_evals_below_an_iteration_is_not_taken_for_one(tmp_path):
    # iteration-1/batch/<eval>/<config>/run-1: "batch" holds evals, not configurations
    # of runs; it is read by its names as before.
    for name in ("alpha", "beta"):
        (tmp_path / "iteration-1" / "batch" / name / "with_skill" / "run-1" / "outputs").mkdir(parents=True)
    found = _ids(tmp_path / "iteration-1" / "batch")
    assert [eval_id for eval_id, _, _ in found] == ["alpha", "beta"]
