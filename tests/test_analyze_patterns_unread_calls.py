"""``analyze``'s execution patterns do not say that a run made no tool calls, or only
those read, when its calls may be incomplete (a line of its source not read)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

PROMPT = {"role": "user", "content": "go"}
REPLY = {"role": "assistant", "content": "done"}
CUT = '{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "Bash", ' \
      '"arguments": "{\\"command\\": \\"rm -rf /\\"}"}}]'


def _patterns(tmp_path: Path, baseline_lines: list[str], capsys) -> dict:
    skill = tmp_path / "skills" / "booking-skill"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("# booking\n", encoding="utf-8")
    primary, baseline = tmp_path / "primary.json", tmp_path / "baseline.jsonl"
    primary.write_text(json.dumps([PROMPT, REPLY]), encoding="utf-8")
    baseline.write_text("\n".join(baseline_lines) + "\n", encoding="utf-8")
    ws = tmp_path / "ws"
    assert main(["import", "openai", str(primary), "--out", str(ws), "--eval", "1", "--config", "with_skill"]) == 0
    main(["import", "openai", str(baseline), "--out", str(ws), "--eval", "1", "--config", "without_skill"])
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "replied": response contains "done"\n', encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    capsys.readouterr()
    assert main(["analyze", str(ws), "--skill-path", str(skill), "--check"]) == 0
    return json.loads(capsys.readouterr().out)["transcript_insights"]


def test_a_run_whose_calls_may_be_incomplete_is_not_said_to_make_none(tmp_path: Path, capsys):
    found = _patterns(tmp_path, [json.dumps(PROMPT), CUT, json.dumps(REPLY)], capsys)
    said = [p for p in found.values() if "(1 of 1 run)" in p and "calls may be incomplete" in p]
    assert len(said) == 1 and "(no tool calls) (" not in said[0]


def test_a_run_read_in_full_without_calls_makes_none(tmp_path: Path, capsys):
    found = _patterns(tmp_path, [json.dumps(PROMPT), json.dumps(REPLY)], capsys)
    assert all(p == "eval 1: (no tool calls) (1 of 1 run)" for p in found.values())
