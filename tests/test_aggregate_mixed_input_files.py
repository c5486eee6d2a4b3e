"""Runs graded with different input files (``input "expected.txt"``, changed between a
grade of the workspace and a grade of one of its folders) are graded by different rules:
``aggregate`` refuses them and ``report`` says so, as for a rules file with two digests."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

RULES = 'eval 1\nexpect "matches": response contains input "expected.txt"\n'
EVALS = {"skill_name": "s", "evals": [{"id": 1, "prompt": "go", "expected_output": "x",
                                       "files": ["evals/files/expected.txt"], "expectations": []}]}


def _workspace(tmp_path: Path, second: str) -> tuple[Path, Path]:
    """Both runs graded with expected.txt saying "done", then without_skill again with ``second``."""
    (tmp_path / "skill" / "evals" / "files").mkdir(parents=True)
    evals = tmp_path / "skill" / "evals" / "evals.json"
    evals.write_text(json.dumps(EVALS), encoding="utf-8")
    expected = evals.parent / "files" / "expected.txt"
    expected.write_text("done\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "go"}, {"role": "assistant", "content": "done"}]),
                    encoding="utf-8")
    ws = tmp_path / "ws"
    for config in ("with_skill", "without_skill"):
        assert main(["import", "openai", str(chat), "--out", str(ws), "--eval", "1", "--config", config]) == 0
    main(["grade", str(ws), "--rules", str(rules), "--evals", str(evals)])
    expected.write_text(second, encoding="utf-8")
    main(["grade", str(ws / "eval-1" / "without_skill"), "--rules", str(rules), "--evals", str(evals), "--force"])
    return ws, evals


def test_runs_graded_with_different_input_files_are_a_mix(tmp_path: Path, capsys):
    ws, evals = _workspace(tmp_path, "finished\n")
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--evals", str(evals)]) == 2
    assert "graded by different rules: eval 1: expected.txt: @" in capsys.readouterr().err
    assert not (ws / "benchmark.json").exists()
    main(["report", str(ws), "--format", "markdown", "-o", "-"])
    assert "graded by different rules: eval 1: expected.txt: @" in capsys.readouterr().out


def test_runs_graded_with_the_same_input_files_are_no_mix(tmp_path: Path, capsys):
    ws, evals = _workspace(tmp_path, "done\n")
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--evals", str(evals)]) != 2
    assert "different rules" not in capsys.readouterr().err
