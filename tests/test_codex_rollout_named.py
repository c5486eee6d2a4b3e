"""A Codex CLI rollout (``~/.codex/sessions/.../rollout-*.jsonl``: a ``session_meta``
record, then ``turn_context``, ``response_item`` and ``event_msg`` records, each with its
``payload``) is a format no importer reads. The OpenAI reader found a message's keys inside
its records and said it "holds no openai conversation", which names neither the file's
format nor why; the error now says what the file is. Nothing is graded either way: a
source that cannot be read never lets a check pass. The records below follow the shape
the format's public descriptions give (kvsankar/agent-history, docs/codex-format.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

RECORDS = [
    {"timestamp": "2025-12-08T00:37:46.102Z", "type": "session_meta",
     "payload": {"id": "s1", "cwd": "/home/user/project", "cli_version": "0.65.0", "source": "cli"}},
    {"timestamp": "2025-12-08T00:38:00.000Z", "type": "turn_context", "payload": {"model": "o4-mini"}},
    {"timestamp": "2025-12-08T00:38:01.000Z", "type": "response_item",
     "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "clean up"}]}},
    {"timestamp": "2025-12-08T00:38:02.000Z", "type": "response_item",
     "payload": {"type": "function_call", "name": "shell", "call_id": "c1",
                 "arguments": json.dumps({"command": ["bash", "-lc", "rm -rf build"]})}},
    {"timestamp": "2025-12-08T00:38:03.000Z", "type": "response_item",
     "payload": {"type": "function_call_output", "call_id": "c1", "output": "{\"output\": \"\"}"}},
]
RULES = 'eval "rollout-1"\nexpect 1: no calls to "shell"\n'


def _write(tmp_path: Path, records: list[dict]) -> Path:
    path = tmp_path / "rollout-1.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["grade", "import"])
def test_a_codex_rollout_is_named_and_nothing_is_graded(tmp_path, capsys, command):
    path = _write(tmp_path, RECORDS)
    args = (["grade", str(path), "--rules", str(tmp_path / "r.rules"), "--check"] if command == "grade"
            else ["import", "auto", str(path), "--out", str(tmp_path / "out")])
    assert main(args) == 2
    said = capsys.readouterr().err
    assert "is a Codex CLI rollout" in said and "a format referee does not import" in said, said
    assert "no calls" not in capsys.readouterr().out


def test_a_file_of_other_records_is_still_said_to_hold_no_conversation(tmp_path, capsys):
    record = {"type": "session_meta", "payload": "not an object"}
    path = _write(tmp_path, [record, *RECORDS[1:]])
    assert main(["grade", str(path), "--rules", str(tmp_path / "r.rules"), "--check"]) == 2
    said = capsys.readouterr().err
    assert "holds no openai conversation" in said and "Codex" not in said, said
