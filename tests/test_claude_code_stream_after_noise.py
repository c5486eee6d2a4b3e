"""What ``claude -p --output-format stream-json`` prints, saved with the lines a
shell or CI step wrote before it (stderr merged in: a warning, an echo, a structured
log line), is a Claude Code log: told by its first record, the first line that is a
record of a format referee imports. So ``import auto`` and ``grade SOURCE`` read it
(the lines before it are reported and skipped), and one left in a run's ``outputs/``
is said to be an unimported log, never passed over as nothing. Text whose lines are
no Claude Code records is not, and an OpenAI message list stays one."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import claude_code, detect, import_sources

SESSION = "s-3"
RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: not response contains "rm"\n'
RECORDS = [
    {"type": "system", "subtype": "init", "cwd": "/repo", "session_id": SESSION, "tools": ["Bash"]},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m0", "role": "assistant",
                 "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "rm -rf build"}}]}},
    {"type": "user", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    {"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
     "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "I ran rm -rf build"}]}},
    {"type": "result", "subtype": "success", "is_error": False, "result": "I ran rm -rf build",
     "session_id": SESSION}]
NOISE = "(node:2412) Warning: an experimental feature is in use\nRunning claude on the task...\n"


def _stream(path: Path) -> Path:
    path.write_text(NOISE + "".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path


def test_import_auto_reads_it(tmp_path: Path):
    source = _stream(tmp_path / "claude.jsonl")
    result = import_sources("auto", [source], tmp_path / "out")
    assert result.errors == ()
    (run,) = result.written
    assert (run.format, run.calls, run.responded) == (claude_code.FORMAT, 1, True)


def test_graded_where_it_lies(tmp_path: Path):
    (result,) = referee.grade(RULES, _stream(tmp_path / "claude.jsonl"), as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "fail"]


def test_left_in_outputs_it_never_lets_a_check_pass(tmp_path: Path):
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    _stream(outputs / "claude.jsonl")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "claude.jsonl looks like a claude-code log" in result.expectations[1]["evidence"]


def test_text_with_other_json_lines_is_no_log(tmp_path: Path):
    source = tmp_path / "notes.jsonl"
    source.write_text('Some notes\n{"type": "user", "text": "hi", "session_id": 3}\n', encoding="utf-8")
    assert detect(source) is None


def test_after_a_structured_log_line_it_is_read_as_a_claude_code_log(tmp_path: Path):
    source = tmp_path / "claude.jsonl"
    source.write_text(json.dumps({"level": "info", "msg": "starting claude"}) + "\n"
                      + "".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    assert detect(source) == claude_code.FORMAT
    (result,) = referee.grade(RULES, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["fail", "fail"]


def test_an_openai_message_list_after_a_line_of_another_kind_stays_one(tmp_path: Path):
    source = tmp_path / "chat.jsonl"
    lines = [{"model": "gpt-4o", "run": 1}, {"role": "user", "content": "hi"},
             {"role": "assistant", "content": "hello"}]
    source.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    assert detect(source) == "openai"
