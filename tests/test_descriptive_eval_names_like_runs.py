"""skill-creator asks for descriptive eval folder names (``run-unit-tests``,
``run_migration``): such a folder right below an iteration (or the legacy ``runs/``
level) is the eval, not a run folder of run-then-configuration nesting, which
would make its configurations the evals."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.run.workspace import discover


def _run(path: Path) -> None:
    (path / "outputs").mkdir(parents=True)
    (path / "outputs" / "response.md").write_text("ok", encoding="utf-8")


@pytest.mark.parametrize("above", ["iteration-1", "runs"])
def test_a_descriptive_eval_that_starts_like_a_run_is_the_eval(tmp_path, above):
    for config in ("with_skill", "without_skill"):
        _run(tmp_path / above / "run-unit-tests" / config)
    runs = discover(tmp_path).runs
    assert [(r.id.eval_id, r.id.configuration, r.id.run_number) for r in runs] == [
        ("run-unit-tests", "with_skill", 1), ("run-unit-tests", "without_skill", 1)]
    assert all("layout" not in r.id.extra for r in runs)


def test_run_then_configuration_nesting_below_an_eval_folder_is_kept(tmp_path):
    _run(tmp_path / "iteration-1" / "eval-3" / "run-2" / "with_skill")
    runs = discover(tmp_path).runs
    assert [(r.id.eval_id, r.id.configuration, r.id.run_number) for r in runs] == [("3", "with_skill", 2)]
