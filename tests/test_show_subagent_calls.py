"""``referee show`` lists the calls the rules' ``calls`` holds: a subagent's calls
too, each after the call that started it and named by its agent, as ``grade``
reads them; a rule about a subagent's WebSearch is written from what show shows."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

SESSION = Path(__file__).parent / "fixtures" / "import" / "claude-code" / "session.jsonl"


def imported(tmp_path: Path, capsys) -> Path:
    assert main(["import", "claude-code", str(SESSION), "--out", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    return tmp_path / "ws" / "session"


def test_the_json_view_holds_the_subagents_calls(tmp_path, capsys):
    run = imported(tmp_path, capsys)
    assert main(["show", str(run), "--json"]) == 0
    (view,) = json.loads(capsys.readouterr().out)["runs"]
    steps = [(s["agent"], s["step"], s["tool"], s["file"]) for s in view["steps"]]
    task = steps.index(("main", 4, "Task", "outputs/transcript.md"))
    assert steps[task + 1] == ("step-4", 1, "WebSearch", "subagents/step-4.md")
    assert [s[2] for s in steps if s[0] == "main"] == [
        "Read", "mcp__travel__searchFlights", "mcp__travel__searchFlights", "Task",
        "mcp__travel__bookReservation", "mcp__mail__send"]


def test_the_text_view_names_the_subagent(tmp_path, capsys):
    run = imported(tmp_path, capsys)
    assert main(["show", str(run)]) == 0
    out = capsys.readouterr().out
    assert "steps: 7 tool call(s)" in out
    assert "  step 1  WebSearch  success  subagents/step-4.md:5  (subagent step-4)" in out
