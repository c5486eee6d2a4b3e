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

from rm_stream import graded_where_it_lies, imported, left_in_outputs, records
from referee.engine.run.importers import claude_format
from referee.engine.run.importers.source_format import detect

SESSION = "s-3"
RECORDS = records(SESSION)
NOISE = "(node:2412) Warning: an experimental feature is in use\nRunning claude on the task...\n"


def _stream(path: Path) -> Path:
    path.write_text(NOISE + "".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path


def test_import_auto_reads_it(tmp_path: Path):
    imported(_stream, tmp_path)


def test_graded_where_it_lies(tmp_path: Path):
    graded_where_it_lies(_stream, tmp_path)


def test_left_in_outputs_it_never_lets_a_check_pass(tmp_path: Path):
    left_in_outputs(_stream, tmp_path)


def test_text_with_other_json_lines_is_no_log(tmp_path: Path):
    source = tmp_path / "notes.jsonl"
    source.write_text('Some notes\n{"type": "user", "text": "hi", "session_id": 3}\n', encoding="utf-8")
    assert detect(source) is None


def test_after_a_structured_log_line_it_is_read_as_a_claude_code_log(tmp_path: Path):
    def write(path: Path) -> Path:
        path.write_text(json.dumps({"level": "info", "msg": "starting claude"}) + "\n"
                        + "".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
        return path

    assert detect(write(tmp_path / "claude.jsonl")) == claude_format.FORMAT
    graded_where_it_lies(write, tmp_path)


def test_an_openai_message_list_after_a_line_of_another_kind_stays_one(tmp_path: Path):
    source = tmp_path / "chat.jsonl"
    lines = [{"model": "gpt-4o", "run": 1}, {"role": "user", "content": "hi"},
             {"role": "assistant", "content": "hello"}]
    source.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    assert detect(source) == "openai"
