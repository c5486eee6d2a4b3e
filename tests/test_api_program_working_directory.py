"""A ``Program`` compiled with an evals.json named relative to the working directory
reads that very file when it grades, wherever it is graded from: ``grade`` reads the
response file the evals.json names again, and after a ``chdir`` the relative name
failed (RulesError "cannot read evals.json") or, worse, named another evals.json,
whose response file was then read."""

from __future__ import annotations

import json
from pathlib import Path

import referee

RULES = 'eval 1\nexpect 1: not response contains "secret"\n'  # the rule of the sentence "no secret"


def evals_json(folder: Path, response_file: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "evals.json").write_text(json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "p", "response_file": response_file, "expectations": ["no secret"]}]}),
        encoding="utf-8")


def test_a_program_reads_the_evals_json_it_was_compiled_with(tmp_path: Path, monkeypatch):
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "outputs"
    run.mkdir(parents=True)
    (run / "response.md").write_text("clean\n", encoding="utf-8")
    (run / "answer.md").write_text("the secret\n", encoding="utf-8")
    evals_json(tmp_path / "skill", "outputs/answer.md")
    evals_json(tmp_path / "elsewhere", "outputs/response.md")  # another evals.json of the same name
    monkeypatch.chdir(tmp_path / "skill")
    program = referee.compile(RULES, "my.rules", evals="evals.json")
    here = referee.grade(program, tmp_path / "ws")
    assert here[0].expectations[-1]["outcome"] == "fail"
    for folder in ("elsewhere", "."):
        monkeypatch.chdir(tmp_path / folder)
        assert referee.grade(program, tmp_path / "ws") == here
