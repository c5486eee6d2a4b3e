"""A call whose record names no tool (a source's call with ``"name": null``, a record
whose ``Tool:`` line is empty) is quoted by nothing in evidence: its quote was the word
``None``, which neither the source line nor the transcript line holds."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.memory import memory_run

RULES = 'eval 1\nexpect 1: no calls where .args.command contains "rm"\n'


def test_an_openai_call_named_null_is_not_quoted_as_none(tmp_path: Path):
    messages = [{"role": "user", "content": "go"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function",
                     "function": {"name": None, "arguments": json.dumps({"command": "rm -rf /"})}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                {"role": "assistant", "content": "done"}]
    source = tmp_path / "noname.json"
    source.write_text("[\n" + ",\n".join(json.dumps(m) for m in messages) + "\n]\n", encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    item, = result.expectations
    assert item["outcome"] == "fail"
    assert "None" not in item["evidence"], item["evidence"]


def test_a_record_with_an_empty_tool_line_is_not_quoted_as_none():
    transcript = ("## [tool_calls] Step 1: \nTool: \nArgs: {\"command\": \"rm -rf /\"}\nReturn: \"ok\"\n"
                  "Status: success\n")
    run = memory_run({"outputs/transcript.md": transcript, "outputs/response.md": "done\n"}, eval_id="1")
    result, = referee.grade(RULES, run)
    item, = result.expectations
    assert item["outcome"] == "fail"
    assert "None" not in item["evidence"], item["evidence"]
