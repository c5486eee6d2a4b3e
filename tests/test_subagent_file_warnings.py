"""A run whose calls may be incomplete because a subagent transcript the import
wrote is missing or was edited says so among its warnings, in ``show`` and in
``grade``, beside the checks over calls that it makes errors."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

SESSION = Path(__file__).parent / "fixtures" / "import" / "claude-code" / "session.jsonl"
RULES = 'eval "session"\nexpect "no shell": no calls to "Bash"\n'


def imported(tmp_path: Path, capsys) -> Path:
    assert main(["import", "claude-code", str(SESSION), "--out", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    return tmp_path / "ws"


def warnings(tmp_path: Path, ws: Path, capsys) -> tuple[list[tuple[str, str]], list[str], dict]:
    assert main(["show", str(ws / "session"), "--json"]) == 0
    (view,) = json.loads(capsys.readouterr().out)["runs"]
    rules = tmp_path / "s.rules"
    rules.write_text(RULES, encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules), "--check", "--json"])
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    (verdict,) = run["expectations"]
    return [(w["code"], w["path"]) for w in view["warnings"]], run["warnings"], verdict


def test_a_missing_subagent_transcript_is_a_warning(tmp_path, capsys):
    ws = imported(tmp_path, capsys)
    (ws / "session" / "subagents" / "step-4.md").unlink()
    shown, graded, verdict = warnings(tmp_path, ws, capsys)
    assert ("not-found", "subagents/step-4.md") in shown
    assert any("subagents/step-4.md" in w and "missing" in w for w in graded)
    assert verdict["outcome"] == "error"


def test_an_edited_subagent_transcript_is_a_warning(tmp_path, capsys):
    ws = imported(tmp_path, capsys)
    agent = ws / "session" / "subagents" / "step-4.md"
    agent.write_text(agent.read_text(encoding="utf-8").replace("WebSearch", "WebFetch"), encoding="utf-8")
    shown, graded, verdict = warnings(tmp_path, ws, capsys)
    assert ("view-changed", "subagents/step-4.md") in shown
    assert verdict["outcome"] == "error"


def test_an_intact_import_has_no_such_warning(tmp_path, capsys):
    shown, graded, verdict = warnings(tmp_path, imported(tmp_path, capsys), capsys)
    assert not [w for w in shown if w[1].startswith("subagents/")] and verdict["outcome"] == "pass"
