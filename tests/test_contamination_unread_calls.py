"""A baseline run whose calls may be incomplete (a line of its source not read) is not
shown clean of contamination: the call not read may be the read of the skill, so the
release decision cannot say that no run read it."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

PROMPT = {"role": "user", "content": "go"}
REPLY = {"role": "assistant", "content": "done"}
# a message cut short: it read the skill, and nothing of it can be read
CUT = '{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "Read", ' \
      '"arguments": "{\\"path\\": \\"skills/booking-skill/SKILL.md\\"}"}}]'


def _workspace(tmp_path: Path, baseline_lines: list[str]) -> Path:
    ws = tmp_path / "ws"
    primary, baseline = tmp_path / "primary.json", tmp_path / "baseline.jsonl"
    primary.write_text(json.dumps([PROMPT, REPLY]), encoding="utf-8")
    baseline.write_text("\n".join(baseline_lines) + "\n", encoding="utf-8")
    assert main(["import", "openai", str(primary), "--out", str(ws), "--eval", "1", "--config", "with_skill"]) == 0
    assert main(["import", "openai", str(baseline), "--out", str(ws), "--eval", "1", "--config", "without_skill"]) == 0
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "replied": response contains "done"\n', encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    return ws


def _contaminated(ws: Path, capsys) -> dict:
    main(["aggregate", str(ws), "--skill-path", "skills/booking-skill"])
    capsys.readouterr()
    doc = json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))
    return next(r for r in doc["release"]["reasons"] if r["rule"] == "contaminated")


def test_a_run_whose_calls_were_not_all_read_is_not_shown_clean(tmp_path: Path, capsys):
    ws = _workspace(tmp_path, [json.dumps(PROMPT), CUT, json.dumps(REPLY)])
    reason = _contaminated(ws, capsys)
    assert reason["status"] == "conditional", reason
    assert "eval-1/without_skill/run-1" in reason["message"] and "may be incomplete" in reason["message"]
    # report remakes the decision from the runs and finds it the same, not forged
    assert main(["report", str(ws), "--format", "markdown", "-o", str(tmp_path / "r.md")]) != 2, \
        capsys.readouterr().err


def test_a_run_whose_calls_were_all_read_is_clean(tmp_path: Path, capsys):
    ws = _workspace(tmp_path, [json.dumps(PROMPT), json.dumps(REPLY)])
    assert _contaminated(ws, capsys)["status"] == "ok"
