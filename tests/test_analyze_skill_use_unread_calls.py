"""``analyze`` does not say that a skill's file was never used by runs whose calls
may be incomplete (a line of the source not read, which may hold the read of it):
not in instruction_following, not in skill_coverage, and it suggests no removal."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

PROMPT = {"role": "user", "content": "go"}
REPLY = {"role": "assistant", "content": "done"}
# a message cut short: it read the skill's reference, and nothing of it can be read
CUT = '{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "Read", ' \
      '"arguments": "{\\"path\\": \\"references/forms.md\\"}"}}]'


def _analysed(tmp_path: Path, primary_lines: list[str], capsys) -> dict:
    skill = tmp_path / "skills" / "booking-skill"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text("# booking\nRead references/forms.md before booking.\n", encoding="utf-8")
    (skill / "references" / "forms.md").write_text("forms\n", encoding="utf-8")
    primary, baseline = tmp_path / "primary.jsonl", tmp_path / "baseline.json"
    primary.write_text("\n".join(primary_lines) + "\n", encoding="utf-8")
    baseline.write_text(json.dumps([PROMPT, REPLY]), encoding="utf-8")
    ws = tmp_path / "ws"
    main(["import", "openai", str(primary), "--out", str(ws), "--eval", "1", "--config", "with_skill"])
    assert main(["import", "openai", str(baseline), "--out", str(ws), "--eval", "1", "--config", "without_skill"]) == 0
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "replied": count(calls) >= 0\n', encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    capsys.readouterr()
    assert main(["analyze", str(ws), "--skill-path", str(skill), "--check"]) == 0
    return json.loads(capsys.readouterr().out)


def _said(doc: dict) -> str:
    return json.dumps([doc["instruction_following"], doc["improvement_suggestions"], doc["referee"]["skill_coverage"]])


def test_runs_whose_calls_may_be_incomplete_are_not_said_never_to_use_a_file(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), CUT, json.dumps(REPLY)], capsys)
    said = _said(doc)
    assert "with_skill never opened" not in said and "no run of with_skill opened" not in said
    assert "never opened in" not in said
    (row,) = doc["referee"]["skill_coverage"]
    assert row["configurations"]["with_skill"]["unknown"] == 1 and "could not be checked" in row["summary"]
    followed = next(side for side in doc["instruction_following"].values()
                    if any("with_skill's runs" in issue for issue in side["issues"]))
    assert followed["score"] is None


def test_runs_read_in_full_are_said_never_to_use_a_file(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), json.dumps(REPLY)], capsys)
    said = _said(doc)
    assert "with_skill never opened it (0 of 1 runs)" in said and "could not be checked" not in said
    assert any("no run of with_skill opened it" in s["suggestion"] for s in doc["improvement_suggestions"])
