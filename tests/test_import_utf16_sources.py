"""A source written in UTF-16 behind its byte order mark (Windows PowerShell's `>`:
`claude -p ... --output-format stream-json > session.jsonl`) is imported as its
UTF-8 twin is, as a run's own files in UTF-16 are read. It was decoded as UTF-8:
"not a format referee imports", and nothing was imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

LINES = [
    {"type": "user", "sessionId": "s1", "uuid": "u1", "message": {"role": "user", "content": "Clean up"}},
    {"type": "assistant", "sessionId": "s1", "uuid": "a1", "parentUuid": "u1",
     "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                                   "input": {"command": "rm -rf build"}}]}},
    {"type": "user", "sessionId": "s1", "uuid": "u2", "parentUuid": "a1",
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    {"type": "assistant", "sessionId": "s1", "uuid": "a2", "parentUuid": "u2",
     "message": {"role": "assistant", "content": [{"type": "text", "text": "Cleaned caf\u00e9 \u6e05\u7406."}]}},
]
SESSION = "".join(json.dumps(line, ensure_ascii=False) + "\r\n" for line in LINES)
MESSAGES = json.dumps([
    {"role": "user", "content": "Clean up"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "Bash", "arguments": "{\"command\": \"rm -rf build\"}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    {"role": "assistant", "content": "Cleaned caf\u00e9 \u6e05\u7406."}], indent=2, ensure_ascii=False).replace("\n", "\r\n")


def _imported(tmp_path: Path, name: str, data: bytes) -> Path:
    tmp_path.mkdir()
    source = tmp_path / name
    source.write_bytes(data)
    assert main(["import", "auto", str(source), "--out", str(tmp_path / "ws"), "--eval", "1"]) == 0
    (run,) = sorted((tmp_path / "ws").glob("eval-1/*/run-*"))
    return run


@pytest.mark.parametrize("name, text", [("session.jsonl", SESSION), ("messages.json", MESSAGES)])
@pytest.mark.parametrize("encode", [lambda t: t.encode("utf-16"), lambda t: b"\xfe\xff" + t.encode("utf-16-be")])
def test_a_utf16_source_imports_as_its_utf8_twin(tmp_path: Path, name: str, text: str, encode):
    wide = _imported(tmp_path / "wide", name, encode(text))
    narrow = _imported(tmp_path / "narrow", name, text.encode("utf-8"))
    for rel in ("outputs/transcript.md", "outputs/response.md"):
        assert (wide / rel).read_bytes() == (narrow / rel).read_bytes()
    assert "Cleaned caf\u00e9 \u6e05\u7406." in (wide / "outputs/response.md").read_text(encoding="utf-8")


def test_a_utf16_source_holding_a_nul_is_said_to(tmp_path: Path):
    source = tmp_path / "session.jsonl"
    source.write_bytes(SESSION.replace("Clean up", "Clean\x00up").encode("utf-16"))
    main(["import", "claude-code", str(source), "--out", str(tmp_path / "ws"), "--eval", "1"])
    (run,) = sorted((tmp_path / "ws").glob("eval-1/*/run-*"))
    assert "nul-byte" in (run / "source_map.json").read_text(encoding="utf-8")
