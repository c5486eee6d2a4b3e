"""A source whose line ends are lone CRs (as classic Mac OS wrote them) is read as the
same lines as with LF or CRLF ends, each cited at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run

_SESSION = [
    {"type": "user", "sessionId": "s", "uuid": "u", "cwd": "/srv/p", "message": {"role": "user", "content": "go"}},
    {"type": "assistant", "sessionId": "s", "uuid": "a", "parentUuid": "u", "cwd": "/srv/p",
     "message": {"id": "m1", "role": "assistant",
                 "content": [{"type": "tool_use", "id": "c1", "name": "Bash", "input": {"command": "rm -rf /"}}]}},
    {"type": "user", "sessionId": "s", "uuid": "r", "parentUuid": "a", "cwd": "/srv/p",
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "ok"}]}},
    {"type": "assistant", "sessionId": "s", "uuid": "b", "parentUuid": "r", "cwd": "/srv/p",
     "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "done"}],
                 "stop_reason": "end_turn"}},
]
_CHAT = [
    {"role": "user", "content": "go"},
    {"role": "assistant", "content": None,
     "tool_calls": [{"id": "1", "type": "function", "function": {"name": "Bash", "arguments": "{\"command\": \"rm\"}"}}]},
    {"role": "tool", "tool_call_id": "1", "content": "ok", "status": "success"},
    {"role": "assistant", "content": "done"},
]


def _files(tmp_path: Path, fmt: str, name: str, text: str) -> dict[str, str]:
    source = tmp_path / name
    source.write_bytes(text.encode("utf-8"))
    (found,) = conversations(fmt, [source])
    return render_run(found).files


@pytest.mark.parametrize("fmt, records", [("claude-code", _SESSION), ("openai", _CHAT)])
def test_json_lines_with_lone_cr_ends_read_as_with_lf(tmp_path: Path, fmt: str, records: list):
    lines = [json.dumps(r) for r in records]
    with_lf = _files(tmp_path, fmt, "lf.jsonl", "\n".join(lines) + "\n")
    (tmp_path / "cr").mkdir()
    with_cr = _files(tmp_path / "cr", fmt, "lf.jsonl", "\r".join(lines) + "\r")
    assert with_cr["outputs/transcript.md"] == with_lf["outputs/transcript.md"]
    assert "Tool: Bash" in with_cr["outputs/transcript.md"]
    assert with_cr["outputs/response.md"] == with_lf["outputs/response.md"] == "done\n"
    lf_map, cr_map = json.loads(with_lf["source_map.json"]), json.loads(with_cr["source_map.json"])
    assert cr_map["lines"] == lf_map["lines"] and cr_map["problems"] == lf_map["problems"]


def test_a_document_with_lone_cr_ends_is_cited_at_its_lines(tmp_path: Path):
    text = json.dumps(_CHAT, indent=1)
    with_lf = _files(tmp_path, "openai", "chat.json", text)
    (tmp_path / "cr").mkdir()
    with_cr = _files(tmp_path / "cr", "openai", "chat.json", text.replace("\n", "\r"))
    assert json.loads(with_cr["source_map.json"])["lines"] == json.loads(with_lf["source_map.json"])["lines"]
