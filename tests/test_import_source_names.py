"""A source whose file name is not UTF-8 (a byte such as 0xff, which Python reads as
the lone surrogate "\\udcff") is imported like any other: its run folder names it in
source_map.json as the JSON escape "\\udcff", and grade cites it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
RULES = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.rules"


def test_a_source_named_with_a_byte_that_is_not_utf8_is_imported(tmp_path: Path, capsys):
    # Input: the Claude Code fixture saved as b"\xff.jsonl". import stopped with
    # "internal error: UnicodeEncodeError" while writing source_map.json, which names
    # the source, as strict UTF-8; so did grade given the source.
    source = tmp_path / os.fsdecode(b"\xff.jsonl")
    shutil.copyfile(SESSION, source)
    assert main(["import", "claude-code", str(source), "--out", str(tmp_path / "ws"), "--eval", "session"]) == 0
    assert "internal error" not in capsys.readouterr().err
    (source_map,) = (tmp_path / "ws").rglob("source_map.json")
    written = source_map.read_bytes()
    assert b'"\\udcff.jsonl"' in written
    assert "\udcff.jsonl" in json.dumps(json.loads(written.decode("utf-8")), ensure_ascii=False)
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(RULES), "--check"]) in (0, 1)
    assert "internal error" not in capsys.readouterr().err
    # grade given the source itself reads it as import would, in memory: it stopped alike.
    assert main(["grade", str(source), "--rules", str(RULES), "--as-eval", "session"]) in (0, 1)
    assert "internal error" not in capsys.readouterr().err
