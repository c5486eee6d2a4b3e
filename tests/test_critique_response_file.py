"""critique.json records the response file --response named, and a grade adds its
findings only while it reads the same one.

A critique made with '--response outputs/result.md' critiqued that file as each
run's response; critique.json kept only the rules' digest, so a grade that reads
outputs/response.md (no --response) added findings about another text to its
eval_feedback, and nothing in critique.json said which response was critiqued."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

RULES = 'eval 1\nexpect "it says done": response contains "e"\n'


def _workspace(tmp_path: Path) -> Path:
    for config in ("with_skill", "without_skill"):
        outputs = tmp_path / "ws" / "eval-1" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "result.md").write_text("The report is done.\n", encoding="utf-8")
        (outputs / "response.md").write_text("See result.md\n", encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return tmp_path / "ws"


def _critique_suggestions(workspace: Path) -> list[dict]:
    grading = workspace / "eval-1" / "with_skill" / "run-1" / "grading.json"
    feedback = json.loads(grading.read_text(encoding="utf-8"))["eval_feedback"]
    return [s for s in feedback["suggestions"] if s.get("source") == "critique"]


def test_critique_json_says_which_response_it_critiqued(tmp_path: Path):
    workspace = _workspace(tmp_path)
    rules = str(tmp_path / "r.rules")
    main(["critique", str(workspace), "--rules", rules, "--response", "./outputs/result.md"])
    assert json.loads((workspace / "critique.json").read_text(encoding="utf-8"))["response"] == "outputs/result.md"
    main(["critique", str(workspace), "--rules", rules])
    assert json.loads((workspace / "critique.json").read_text(encoding="utf-8"))["response"] is None


def test_grade_adds_the_findings_only_with_the_same_response(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path)
    rules = str(tmp_path / "r.rules")
    assert main(["critique", str(workspace), "--rules", rules, "--response", "outputs/result.md"]) == 1
    main(["grade", str(workspace), "--rules", rules, "--response", "outputs/result.md"])
    assert _critique_suggestions(workspace)
    capsys.readouterr()
    main(["grade", str(workspace), "--rules", rules, "--force"])
    assert "another --response" in capsys.readouterr().err
    assert not _critique_suggestions(workspace)
