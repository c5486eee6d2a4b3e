"""Evidence that points into the source: a one-line JSON source is cited by JSON
Pointer and column, and a quote is text the cited source line holds."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.cli import main
from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run
from referee.engine.run.memory import memory_run

MESSAGES = [{"role": "user", "content": "Book the cheapest flight."},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "search", "arguments": '{"date": "2026-05-14"}'}},
                {"id": "b", "type": "function", "function": {"name": "book", "arguments": '{"flight": "LX2084"}'}}]},
            {"role": "tool", "tool_call_id": "a", "content": '{"flights": ["LX2084"]}'},
            {"role": "tool", "tool_call_id": "b", "content": "Booked."},
            {"role": "assistant", "content": "Booked LX2084."}]
RULES = ('eval 1\nexpect 1: first(calls to "book").args.flight == "LX2084"\n'
         'expect 2: exactly 1 calls to "book"\nexpect 3: response contains "LX2084"\n')


def _grade(tmp_path: Path, text: str, name: str = "11.json") -> list[dict]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    (found,) = conversations("openai", [tmp_path / name])
    (result,) = referee.grade(RULES, memory_run(render_run(found).files))
    return result.expectations


def _column_of(text: str, needle: str, nth: int = 0) -> int:
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return at + 1


def test_a_one_line_document_is_cited_by_pointer_and_column(tmp_path: Path):
    text = json.dumps(MESSAGES)
    first, second, _ = _grade(tmp_path, text)
    (place,) = first["evidence_location"]
    assert place["file"] == "11.json#/1/tool_calls/1/function/arguments" and place["line"] == 1
    column = _column_of(text, '"arguments"', 1)
    assert f"11.json:1:{column}#/1/tool_calls/1/function/arguments" in first["evidence"]  # the message
    assert "[at step 2, 11.json:1#/1/tool_calls/1/function/arguments: " in first["evidence"]  # the place
    (named,) = second["evidence_location"]
    assert named["file"] == "11.json#/1/tool_calls/1/function/name"


def test_a_conversation_per_line_is_cited_by_pointer_and_column(tmp_path: Path):
    line = json.dumps({"messages": MESSAGES})
    first, _, third = _grade(tmp_path, line + "\n", "batch.jsonl")
    assert first["evidence_location"][0]["file"] == "batch.jsonl#/messages/1/tool_calls/1/function/arguments"
    assert f"batch.jsonl:1:{_column_of(line, chr(34) + 'arguments', 1)}#/messages/1" in first["evidence"]
    assert third["evidence_location"][0]["file"] == "batch.jsonl#/messages/4/content"


def test_a_pretty_printed_document_is_cited_by_line_alone(tmp_path: Path):
    text = json.dumps(MESSAGES, indent=2)
    first, _, _ = _grade(tmp_path, text)
    (place,) = first["evidence_location"]
    lines = text.split("\n")
    assert place["file"] == "11.json" and '"arguments"' in lines[place["line"] - 1]


def test_a_key_is_cited_where_the_call_writes_it(tmp_path: Path):
    """The key of a call is found by where it stands in its message, not by counting
    calls: one call without arguments, or the message's own ``name``, shifts no citation."""
    messages = json.loads(json.dumps(MESSAGES))  # a copy
    messages[1] = {"role": "assistant", "name": "planner", **messages[1]}
    del messages[1]["tool_calls"][0]["function"]["arguments"]
    text = json.dumps(messages, indent=2)
    first, second, _ = _grade(tmp_path, text)
    lines = text.split("\n")
    (place,) = first["evidence_location"]  # book's arguments, after a call that has none
    assert '"arguments": "{\\"flight\\": \\"LX2084\\"}"' in lines[place["line"] - 1]
    (named,) = second["evidence_location"]  # book's name, after the message's own name
    assert '"name": "book"' in lines[named["line"] - 1]


def test_quotes_are_text_the_source_line_holds(tmp_path: Path, capsys):
    (tmp_path / "m.json").write_text(json.dumps(MESSAGES, indent=2), encoding="utf-8")
    assert main(["import", "openai", str(tmp_path / "m.json"), "--out", str(tmp_path / "ws")]) == 0
    rules = tmp_path / "r.rules"
    rules.write_text('eval "m"\nexpect 1: exactly 1 calls to "book" with status success\n'
                     'expect 2: first(calls to "book").status == "success"\n'
                     'expect 3: any harness have .text contains "cheapest"\n', encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    capsys.readouterr()
    report = json.loads((tmp_path / "ws/m/grading.json").read_text(encoding="utf-8"))
    text = (tmp_path / "m.json").read_text(encoding="utf-8")
    for item in report["expectations"]:
        assert "Tool: " not in item["evidence"] and '"harness' not in item["evidence"], item["evidence"]
        assert item["outcome"] == "pass"
    assert '"book"' in report["expectations"][0]["evidence"] and '"book"' in text
    assert '"Book the cheapest flight."' in report["expectations"][2]["evidence"]
