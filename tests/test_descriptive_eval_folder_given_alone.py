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


@pytest.mark.parametrize("metadata", [False, True])
def test_a_configuration_folder_of_runs_given_alone_keeps_its_eval(tmp_path, metadata):
    # No eval- name and (maybe) no metadata: the run-<n> folders right inside the folder
    # given make it a configuration, read with the folders above it as a lone run is,
    # never each run an eval of its own ("run-1", "run-2").
    eval_dir = _workspace(tmp_path, runs=True)
    (eval_dir / "with_skill" / "run-2" / "outputs").mkdir(parents=True)
    if not metadata:
        (eval_dir / "eval_metadata.json").unlink()
    eval_id, name = ("4", "summarize") if metadata else ("summarize-report", None)
    assert _ids(eval_dir / "with_skill") == [(eval_id, name, "with_skill", 1), (eval_id, name, "with_skill", 2)]
    assert _ids(tmp_path)[:2] == _ids(eval_dir / "with_skill")
