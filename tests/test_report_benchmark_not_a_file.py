"""benchmark.json that is there but is not a regular file (a FIFO, a folder) is said
to be unread, as an unreadable one is: the report's decision is then grade's, and a
reader must know that the release decision was not shown."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_benchmark_that_is_not_a_file_is_named_as_unread(tmp_path: Path, capsys, kind: str):
    # Input: the example, whose benchmark.json decides CONDITIONAL PASS, with a FIFO
    # or a folder in its place. report skipped it without a word and decided from
    # the grades alone (FAIL, exit 1), as if aggregate had never run.
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    benchmark = workspace / "benchmark.json"
    benchmark.unlink()
    os.mkfifo(benchmark) if kind == "fifo" else benchmark.mkdir()
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    err = capsys.readouterr().err
    assert code == 1
    assert "benchmark.json: cannot read (" in err and "shown without it" in err
