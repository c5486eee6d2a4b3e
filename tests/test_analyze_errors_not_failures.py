"""In ``analyze``, an assertion that errored (its evidence could not be read) is not said
to fail: it is no weakness of that side's skill, and the other side is not said to
pass it more often on its account."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

PROMPT = {"role": "user", "content": "go"}
REPLY = {"role": "assistant", "content": "done"}
OTHER = {"role": "assistant", "content": "gave up"}
CUT = '{"role": "assistant", "content": "done", '  # the reply cut short: the response is unknown


def _analysed(tmp_path: Path, baseline_lines: list[str], capsys) -> dict:
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
    return json.loads(capsys.readouterr().out)


def test_an_errored_assertion_is_not_said_to_fail(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), CUT], capsys)
    assert doc["winner_strengths"] == []  # with_skill passes it; without_skill's may have
    (weakness,) = [w for w in doc["loser_weaknesses"] if "(1#1)" in w]
    assert "could not be read in 1 of 1 run of without_skill" in weakness and "fails" not in weakness


def test_a_failed_assertion_is_said_to_fail(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), json.dumps(OTHER)], capsys)
    assert any("passes in 1 of 1 run of with_skill, 0 of 1 of without_skill" in s for s in doc["winner_strengths"])
    assert any("fails in 1 of 1 run of without_skill" in w for w in doc["loser_weaknesses"])
