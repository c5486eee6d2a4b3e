"""A Claude Code log written as UTF-16 with its byte order mark (what Windows
PowerShell's ``>`` writes of ``claude -p --output-format stream-json``) is the text
it holds, as a run's evidence in UTF-16 is: ``import auto`` and ``grade SOURCE``
read it, and one left in a run's ``outputs/`` is said to be an unimported log, so a
check over the run's calls or response is an ERROR, never a pass on nothing. Bytes
behind a UTF-16 mark that are not UTF-16 are read as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rm_stream import graded_where_it_lies, imported, left_in_outputs, records
from referee.engine.run.importers import import_sources

RECORDS = records("s-8", reply="I ran rm -rf build é")


def _utf16(encoding: str) -> bytes:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\r\n" for r in RECORDS)
    return ("\ufeff" + text).encode(encoding)


def _written(encoding: str):
    def write(path: Path) -> Path:
        path.write_bytes(_utf16(encoding))
        return path

    return write


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_import_auto_reads_it(tmp_path: Path, encoding):
    run = imported(_written(encoding), tmp_path)
    assert "I ran rm -rf build é" in (tmp_path / "out" / run.name / "outputs" / "response.md").read_text("utf-8")


def test_graded_where_it_lies(tmp_path: Path):
    graded_where_it_lies(_written("utf-16-le"), tmp_path)


def test_left_in_outputs_it_never_lets_a_check_pass(tmp_path: Path):
    left_in_outputs(_written("utf-16-le"), tmp_path)


def test_bytes_behind_a_utf16_mark_that_are_not_utf16_are_no_log(tmp_path: Path):
    source = tmp_path / "claude.jsonl"
    source.write_bytes(b"\xff\xfe" + json.dumps(RECORDS[0]).encode() + b"\n")
    result = import_sources("auto", [source], tmp_path / "out")
    assert result.written == () and len(result.errors) == 1
