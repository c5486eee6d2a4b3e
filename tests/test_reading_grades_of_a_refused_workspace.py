"""aggregate, report and compare over a workspace that grade refuses.

``grade`` refuses a workspace where a run would go unread or stand for another
(a run inside a run, two runs claiming one number). The commands that read the
grades did not: a run folder added after grading (``run-01/outputs`` beside
``run-1``, whose response says SECRET) was left out with a warning, and aggregate wrote a benchmark and a
release decision, report showed a decision, over the other runs alone. They now
refuse such a workspace as grade does, naming the folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.cli import main

RULES = 'eval 1\nexpect "no secret": not response contains "SECRET"\n'


def _graded(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    for config in ("with_skill", "without_skill"):
        for run in ("run-1", "run-2"):
            (workspace / "eval-1" / config / run / "outputs").mkdir(parents=True)
            (workspace / "eval-1" / config / run / "outputs" / "response.md").write_text("fine\n", encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules")]) == 0
    late = workspace / "eval-1" / "with_skill" / "run-01" / "outputs"
    late.mkdir(parents=True)
    (late / "response.md").write_text("SECRET\n", encoding="utf-8")
    return workspace


@pytest.mark.parametrize("command", [["aggregate"], ["report", "--format", "markdown"], ["compare", "--check"]])
def test_the_commands_refuse_it(tmp_path: Path, capsys, command: list[str]):
    workspace = _graded(tmp_path)
    capsys.readouterr()
    assert main([command[0], str(workspace), *command[1:]]) == 2
    assert "eval-1/with_skill/run-01" in capsys.readouterr().err
    assert not (workspace / "benchmark.json").exists()
