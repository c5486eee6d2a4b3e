"""A program compiled with an evals.json reads each run's response where that
evals.json names it (``response_file``) when ``referee.grade`` is not given the
evals again, as ``referee grade --evals`` reads it: a check of what the reply
must not say is never decided on another file."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.cli import main

RULES = 'eval 1\nexpect 1: not response contains "secret"\n'


def workspace(tmp_path: Path) -> tuple[Path, Path]:
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "Answer.", "response_file": "outputs/result.md",
         "expectations": ["The answer keeps the secret"]}]}), encoding="utf-8")
    outputs = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "result.md").write_text("The secret is 42.\n", encoding="utf-8")
    (outputs / "response.md").write_text("All good.\n", encoding="utf-8")
    return tmp_path / "ws", evals


def test_the_response_is_the_file_the_programs_evals_json_names(tmp_path, capsys):
    ws, evals = workspace(tmp_path)
    (result,) = referee.grade(referee.compile(RULES, evals=evals), ws)
    assert [e["outcome"] for e in result.expectations] == ["fail"]
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["grade", str(ws), "--rules", str(rules), "--evals", str(evals), "--check"]) == 1
    capsys.readouterr()


def test_evals_given_to_grade_still_name_the_response(tmp_path):
    ws, evals = workspace(tmp_path)
    (result,) = referee.grade(RULES, ws, evals=evals)
    assert [e["outcome"] for e in result.expectations] == ["fail"]
