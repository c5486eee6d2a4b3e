"""``aggregate`` takes time and tokens from timing.json. A figure written as text
(``"41.3"``, ``"1_000"``) was parsed as a number, as Python's float() reads it
(``"1_000"`` is 1000), although ``grade`` leaves such a figure out of grading.json's
timing as not a number: the benchmark counted what the run's own grade said it
could not use. A figure that is not a JSON number is now left out of the figures
here too, with a warning naming the file and field."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = """## [tool_calls] Step 1: Read
Tool: Read
Args: {"path": "a"}
Return: "ok"
Status: success
"""


def _run(folder: Path, timing: str) -> None:
    (folder / "outputs").mkdir(parents=True)
    (folder / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (folder / "outputs" / "response.md").write_text("done", encoding="utf-8")
    (folder / "timing.json").write_text(timing, encoding="utf-8")


def test_figures_written_as_text_are_left_out(tmp_path, capsys):
    _run(tmp_path / "eval-1" / "with_skill" / "run-1", '{"total_duration_seconds": "41.3", "total_tokens": "1_000"}')
    _run(tmp_path / "eval-1" / "without_skill" / "run-1", '{"total_duration_seconds": 10, "total_tokens": 10}')
    (tmp_path / "r.rules").write_text('eval 1\nexpect 1: no calls to "Bash"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path), "--rules", str(tmp_path / "r.rules")]) == 0
    capsys.readouterr()
    main(["aggregate", str(tmp_path)])
    err = capsys.readouterr().err
    runs = {r["configuration"]: r["result"] for r in json.loads((tmp_path / "benchmark.json").read_text())["runs"]}
    assert runs["without_skill"]["time_seconds"] == 10 and runs["without_skill"]["tokens"] == 10
    assert runs["with_skill"]["time_seconds"] in (None, 0) and runs["with_skill"]["tokens"] in (None, 0), runs
    assert "timing.json: total_tokens" in err and "not a number" in err, err
