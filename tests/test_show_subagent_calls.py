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


ASYNC = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-async-agent" / \
    "claude_stream_subagent_multi_result.jsonl"


def test_a_call_the_import_could_not_read_for_certain_is_shown_unsure(capsys):
    """The real stream's Agent call was run in the background: its answer only says it
    was launched, so grade reads its return and status as unknown (a check on either is
    an ERROR). show printed it as a plain success; it now says which fields are unsure,
    and a call read whole says none."""
    assert main(["show", str(ASYNC)]) == 0
    out = capsys.readouterr().out
    assert "  step 2  Agent  success (unsure)  outputs/transcript.md:33" in out
    assert "    return line 36 (unsure): \"Async agent launched successfully." in out
    assert "  step 1  ToolSearch  success  outputs/transcript.md:17" in out
    assert main(["show", str(ASYNC), "--json"]) == 0
    (view,) = json.loads(capsys.readouterr().out)["runs"]
    assert [(s["tool"], s["unsure"]) for s in view["steps"]] == [
        ("ToolSearch", []), ("Agent", ["return", "status"]), ("Bash", [])]
