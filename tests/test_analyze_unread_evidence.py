"""``analyze`` says nothing of a run that rests on evidence it could not read: an
assertion that errored is not said to fail (nor the other side to pass it more often on
its account), a run whose calls may be incomplete (a line of its source not read, which
may hold a read of the skill or any call) is neither shown clean of contamination, as
``aggregate`` does not, nor said to make no tool calls."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

PROMPT = {"role": "user", "content": "go"}
REPLY = {"role": "assistant", "content": "done"}
OTHER = {"role": "assistant", "content": "gave up"}
REPLY_CUT = '{"role": "assistant", "content": "done", '  # the reply cut short: the response is unknown
# a message cut short: it read the skill, and nothing of it can be read
READ_CUT = '{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "Read", ' \
           '"arguments": "{\\"path\\": \\"skills/booking-skill/SKILL.md\\"}"}}]'
BASH_CUT = '{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "Bash", ' \
           '"arguments": "{\\"command\\": \\"rm -rf /\\"}"}}]'


def _analysed(tmp_path: Path, baseline_lines: list[str], capsys) -> dict:
    """``analyze --check`` of with_skill (a reply read whole) against without_skill (these lines)."""
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
    doc = _analysed(tmp_path, [json.dumps(PROMPT), REPLY_CUT], capsys)
    assert doc["winner_strengths"] == []  # with_skill passes it; without_skill's may have
    (weakness,) = [w for w in doc["loser_weaknesses"] if "(1#1)" in w]
    assert "could not be read in 1 of 1 run of without_skill" in weakness and "fails" not in weakness


def test_a_failed_assertion_is_said_to_fail(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), json.dumps(OTHER)], capsys)
    assert any("passes in 1 of 1 run of with_skill, 0 of 1 of without_skill" in s for s in doc["winner_strengths"])
    assert any("fails in 1 of 1 run of without_skill" in w for w in doc["loser_weaknesses"])


def test_a_run_whose_calls_were_not_all_read_is_not_shown_clean(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), READ_CUT, json.dumps(REPLY)], capsys)
    assert doc["referee"]["contaminated_runs"] == []
    (unchecked,) = doc["referee"]["unchecked_runs"]
    assert unchecked["path"] == "eval-1/without_skill/run-1"
    assert "may be incomplete" in unchecked["reason"] and "baseline.jsonl:2" in unchecked["reason"]
    said = [line for line in doc["loser_weaknesses"] if "could not be checked" in line]
    assert len(said) == 1 and said[0].startswith("eval-1/without_skill/run-1 ")


def test_a_run_whose_calls_were_all_read_is_clean(tmp_path: Path, capsys):
    doc = _analysed(tmp_path, [json.dumps(PROMPT), json.dumps(REPLY)], capsys)
    assert doc["referee"]["contaminated_runs"] == [] and doc["referee"]["unchecked_runs"] == []
    assert not any("could not be checked" in line for line in doc["loser_weaknesses"])
    assert all(p == "eval 1: (no tool calls) (1 of 1 run)" for p in doc["transcript_insights"].values())


def test_a_run_whose_calls_may_be_incomplete_is_not_said_to_make_none(tmp_path: Path, capsys):
    found = _analysed(tmp_path, [json.dumps(PROMPT), BASH_CUT, json.dumps(REPLY)], capsys)["transcript_insights"]
    said = [p for p in found.values() if "(1 of 1 run)" in p and "calls may be incomplete" in p]
    assert len(said) == 1 and "(no tool calls) (" not in said[0]
