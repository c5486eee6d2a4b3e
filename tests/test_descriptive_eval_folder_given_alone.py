"""A descriptive eval folder (skill-creator's naming, without ``eval-``) given as the
workspace is known by the eval_metadata.json it holds: its configurations stay
configurations of that eval, as they are when the whole workspace is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.run.workspace import discover


def _workspace(root: Path, runs: bool) -> Path:
    eval_dir = root / "iteration-1" / "summarize-report"
    for config in ("with_skill", "without_skill"):
        run = eval_dir / config / "run-1" if runs else eval_dir / config
        (run / "outputs").mkdir(parents=True)
        (run / "outputs" / "response.md").write_text("ok", encoding="utf-8")
    (eval_dir / "eval_metadata.json").write_text(json.dumps({"eval_id": 4, "eval_name": "summarize"}),
                                                 encoding="utf-8")
    return eval_dir


def _ids(where: Path) -> list[tuple]:
    return [(r.id.eval_id, r.id.eval_name, r.id.configuration, r.id.run_number) for r in discover(where).runs]


@pytest.mark.parametrize("runs", [False, True])
def test_the_eval_folder_alone_reads_as_the_whole_workspace(tmp_path, runs):
    eval_dir = _workspace(tmp_path, runs)
    expected = [("4", "summarize", "with_skill", 1), ("4", "summarize", "without_skill", 1)]
    assert _ids(tmp_path) == expected
    assert _ids(eval_dir) == expected


def test_a_configuration_folder_of_it_alone_too(tmp_path):
    eval_dir = _workspace(tmp_path, runs=True)
    assert _ids(eval_dir / "with_skill") == [("4", "summarize", "with_skill", 1)]
