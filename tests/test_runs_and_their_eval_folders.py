"""Run folders right in the workspace (``run-1/``, ``run-2/``): the workspace is their
eval folder (or their configuration's), so they are runs of one eval. Each was read
as an eval of its own: with an eval_metadata.json in each naming one eval, the runs
were kept apart as if two eval folders gave that id (``run-1/3``, ``run-2/3``);
without one, each was an eval named after its folder, without a word.

When only ``run-1`` of an eval folder had its own eval_metadata.json naming
another eval, ``run-1`` and ``run-2`` landed in different evals without a word: each
eval had one run, and the aggregate compared and counted them as two. Discovery now
says so, naming both runs.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.discovery import discover

TRANSCRIPT = """## [tool_calls] Step 1: Read
Tool: Read
Args: {"path": "a"}
Return: "ok"
Status: success
"""


def _run(folder: Path, metadata: dict | None = None) -> None:
    (folder / "outputs").mkdir(parents=True)
    (folder / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (folder / "outputs" / "response.md").write_text("done", encoding="utf-8")
    if metadata is not None:
        (folder / "eval_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")


def _warnings(workspace: Path) -> list[str]:
    return [str(p) for p in discover(workspace).problems]


def test_run_folders_right_in_the_workspace_are_said(tmp_path):
    _run(tmp_path / "run-1")
    _run(tmp_path / "run-2")
    found = _warnings(tmp_path)
    assert [w for w in found if w.startswith("run-1:") and "eval folder" in w], found
    assert [w for w in found if w.startswith("run-2:") and "eval folder" in w], found


def test_run_folders_in_the_workspace_with_metadata_are_one_eval(tmp_path):
    for name in ("run-1", "run-2"):
        _run(tmp_path / name, {"eval_id": 3, "prompt": "p"})
    assert _warnings(tmp_path) == []
    assert {run.id.eval_id for run in discover(tmp_path).runs} == {"3"}


def test_one_run_with_its_own_eval_is_said(tmp_path, capsys):
    config = tmp_path / "eval-1" / "with_skill"
    _run(config / "run-1", {"eval_id": 7, "prompt": "p"})
    _run(config / "run-2")
    found = _warnings(tmp_path)
    split = [w for w in found if "eval-1/with_skill/run-1" in w and "eval-1/with_skill/run-2" in w]
    assert split and "7" in split[0], found
    (tmp_path / "r.rules").write_text('eval 1\nexpect 1: no calls to "Bash"\n\neval 7\nexpect 1: no calls to "Bash"\n',
                                      encoding="utf-8")
    main(["grade", str(tmp_path), "--rules", str(tmp_path / "r.rules"), "--check"])
    assert "eval-1/with_skill/run-2" in capsys.readouterr().err


def test_runs_of_one_eval_that_agree_are_not_said(tmp_path):
    config = tmp_path / "eval-1" / "with_skill"
    _run(config / "run-1", {"eval_id": 7, "prompt": "p"})
    _run(config / "run-2", {"eval_id": "7", "prompt": "p"})
    _run(tmp_path / "eval-1" / "without_skill" / "run-1")
    (tmp_path / "eval-1" / "eval_metadata.json").write_text('{"eval_id": 7}', encoding="utf-8")
    assert _warnings(tmp_path) == []
    assert {run.id.eval_id for run in discover(tmp_path).runs} == {"7"}
