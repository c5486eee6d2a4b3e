"""What ``claude -p --output-format stream-json`` prints, one record a line, whose
first line (the ``system`` ``init`` record, listing every tool and MCP server) is
longer than the head format detection reads: still a Claude Code log, told by the
members of that record the head holds whole. So ``import auto`` and ``grade SOURCE``
read it, and one left in a run's ``outputs/`` is said to be an unimported log."""

from __future__ import annotations

import json
from pathlib import Path

from rm_stream import graded_where_it_lies, imported, left_in_outputs, records
from referee.engine.run.importers import HEAD_BYTES
from referee.engine.run.importers.source_format import detect

SESSION = "s-10"
RECORDS = records(SESSION, tools=[f"mcp__server{i}__a_tool_with_a_rather_long_name" for i in range(3000)])
INIT = RECORDS[0]


def _stream(path: Path) -> Path:
    assert len(json.dumps(INIT)) > HEAD_BYTES
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path


def test_import_auto_reads_it(tmp_path: Path):
    imported(_stream, tmp_path)


def test_graded_where_it_lies(tmp_path: Path):
    graded_where_it_lies(_stream, tmp_path)


def test_left_in_outputs_it_never_lets_a_check_pass(tmp_path: Path):
    left_in_outputs(_stream, tmp_path)


def test_a_long_first_line_of_another_kind_is_no_log(tmp_path: Path):
    source = tmp_path / "other.jsonl"
    source.write_text(json.dumps({"type": "system", "session": SESSION, "tools": ["x" * 100] * 1000}) + "\n",
                      encoding="utf-8")
    assert detect(source) is None
