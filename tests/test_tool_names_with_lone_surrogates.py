"""A tool named with a lone surrogate (``"name": "Bash\\ud800"``, a JSON escape no UTF-8
text can hold) is imported, and graded given the source: metrics.json, which counts the
calls by tool, keeps the name as that escape, as the transcript does. ``import`` and
``grade SOURCE`` stopped with "internal error: UnicodeEncodeError" writing or reading
metrics.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

RULES = ('eval "chat"\nexpect 1: no calls to "Bash"\nexpect 2: exactly 1 calls to glob "Bash*"\n'
         'expect 3: metrics.total_tool_calls == 1\n')
CHAT = ('[{"role": "user", "content": "list"}, {"role": "assistant", "content": null, "tool_calls": '
        '[{"id": "c1", "type": "function", "function": {"name": "Bash\\ud800", "arguments": "{}"}}]}, '
        '{"role": "tool", "tool_call_id": "c1", "content": "a b"}, {"role": "assistant", "content": "done"}]')
SESSION = "\n".join(json.dumps(record) for record in [
    {"type": "user", "uuid": "1", "parentUuid": None, "sessionId": "s", "cwd": "/w",
     "message": {"role": "user", "content": "list"}},
    {"type": "assistant", "uuid": "2", "parentUuid": "1", "sessionId": "s", "cwd": "/w",
     "message": {"id": "m1", "role": "assistant", "model": "m", "stop_reason": "tool_use",
                 "content": [{"type": "tool_use", "id": "t1", "name": "Bash\ud800", "input": {}}]}},
    {"type": "user", "uuid": "3", "parentUuid": "2", "sessionId": "s", "cwd": "/w",
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a b"}]}},
    {"type": "assistant", "uuid": "4", "parentUuid": "3", "sessionId": "s", "cwd": "/w",
     "message": {"id": "m2", "role": "assistant", "model": "m", "stop_reason": "end_turn",
                 "content": [{"type": "text", "text": "done"}]}}]) + "\n"


@pytest.mark.parametrize("name, text", [("chat.json", CHAT), ("chat.jsonl", SESSION)])
def test_a_tool_named_with_a_lone_surrogate_is_imported_and_graded(name: str, text: str, tmp_path: Path, capsys):
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    rules = tmp_path / "chat.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["import", "auto", str(source), "--out", str(tmp_path / "ws")]) == 0
    assert "internal error" not in capsys.readouterr().err
    metrics = json.loads((tmp_path / "ws" / "chat" / "outputs" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["tool_calls"] == {"Bash\ud800": 1}
    code = main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"])
    imported = json.loads(capsys.readouterr().out)
    assert code == 0 and [e["outcome"] for e in imported["runs"][0]["expectations"]] == ["pass"] * 3
    assert main(["grade", str(source), "--rules", str(rules), "--json"]) == code
    assert json.loads(capsys.readouterr().out) == imported
