"""``analyze`` does not show clean a run whose calls may be incomplete (a line of its
source not read, which may hold the read of the skill), as ``aggregate`` does not."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

PROMPT = {"role": "user", "content": "go"}
REPLY = {"role": "assistant", "content": "done"}
# a message cut short: it read the skill, and nothing of it can be read
CUT = '{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "Read", ' \
      '"arguments": "{\\"path\\": \\"skills/booking-skill/SKILL.md\\"}"}}]'


def _analysed(tmp_path: Path, baseline_lines: list[str], capsys) -> dict:
    ws = tmp_path / "ws"
    primary, baseline = tmp_path / "primary.json", tmp_path / "baseline.jsonl"
    primary.write_text(json.dumps([PROMPT, REPLY]), encoding="utf-8")
    baseline.write_text("\n".join(baseline_lines) + "\n", encoding="utf-8")
    skill = tmp_path / "skills" / "booking-skill"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("# booking\n", encoding="utf-8")
    assert main(["import", "openai", str(primary), "--out", str(ws), "--eval", "1", "--config", "with_skill"]) == 0
    main(["import", "openai", str(baseline), "--out", str(ws), "--eval", "1", "--config", "without_skill"])
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "replied": response contains "done"\n', encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    capsys.readouterr()
    assert main(["analyze", str(ws), "--skill-path", str(skill), "--check"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_run_whose_calls_were_not_all_read_is_not_shown_clean_by_analyze(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), CUT, json.dumps(REPLY)], capsys)
    assert doc["referee"]["contaminated_runs"] == []
    (unchecked,) = doc["referee"]["unchecked_runs"]
    assert unchecked["path"] == "eval-1/without_skill/run-1"
    assert "may be incomplete" in unchecked["reason"] and "baseline.jsonl:2" in unchecked["reason"]
    said = [line for line in doc["loser_weaknesses"] if "could not be checked" in line]
    assert len(said) == 1 and said[0].startswith("eval-1/without_skill/run-1 ")


def test_a_run_whose_calls_were_all_read_is_clean_in_analyze(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), json.dumps(REPLY)], capsys)
    assert doc["referee"]["contaminated_runs"] == [] and doc["referee"]["unchecked_runs"] == []
    assert not any("could not be checked" in line for line in doc["loser_weaknesses"])
