"""In JSON lines of one conversation per line, a line that cannot be read (not JSON, cut
short) is a conversation lost. It was left out of the count, so the conversation after
it took its number: with line 2 broken, line 3 was imported as ``chats-2`` and graded
with the rules of the second conversation, and the import exited 0 with a warning on
another run. It now keeps its place: the others are ``chats-1`` and ``chats-3``, and
the lost one is an error naming the source, its number and its line (exit 1; grading
the source in memory grades nothing, as for a message document's conversation that
cannot be read). A line that is JSON but no conversation is skipped as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.cli import main


def _conversation(word: str) -> str:
    return json.dumps({"messages": [{"role": "user", "content": word}, {"role": "assistant", "content": f"ok {word}"}]})


def test_a_lost_line_keeps_its_conversation_s_number(tmp_path: Path, capsys):
    source = tmp_path / "chats.jsonl"
    source.write_text(f'{_conversation("a")}\n{{"messages": [oops]}}\n{_conversation("c")}\n', encoding="utf-8")
    assert main(["import", "openai", str(source), "--out", str(tmp_path / "ws")]) == 1
    err = capsys.readouterr().err
    assert "chats.jsonl: conversation 2 (line 2) holds no message referee could read" in err
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["chats-1", "chats-3"]
    assert (tmp_path / "ws" / "chats-3" / "outputs" / "response.md").read_text(encoding="utf-8").startswith("ok c")


def test_grading_such_a_source_in_memory_grades_nothing(tmp_path: Path):
    source = tmp_path / "chats.jsonl"
    source.write_text(f'{_conversation("a")}\n{{"messages": [oops]}}\n{_conversation("c")}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="conversation 2 \\(line 2\\)"):
        referee.grade('eval "chats-2"\nexpect 1: response contains "ok"\n', source)


def test_a_line_of_json_that_is_no_conversation_is_skipped_as_before(tmp_path: Path, capsys):
    source = tmp_path / "chats.jsonl"
    source.write_text(f'{_conversation("a")}\n{{"total": 2}}\n{_conversation("c")}\n', encoding="utf-8")
    assert main(["import", "openai", str(source), "--out", str(tmp_path / "ws")]) == 0
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["chats-1", "chats-2"]


def test_a_lost_line_after_a_message_on_a_line_of_its_own(tmp_path: Path, capsys):
    # a line of its own holding a call (said of the conversation before it), then a lost line
    call = json.dumps({"type": "function_call", "name": "rm", "arguments": "{}", "call_id": "c"})
    source = tmp_path / "chats.jsonl"
    source.write_text(f'{_conversation("a")}\n{call}\n{{"messages": [oops]}}\n{_conversation("c")}\n', encoding="utf-8")
    assert main(["import", "openai", str(source), "--out", str(tmp_path / "ws")]) == 1
    assert "conversation 2 (line 3) holds no message referee could read" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["chats-1", "chats-3"]
