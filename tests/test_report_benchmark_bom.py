"""A benchmark.json saved with a UTF-8 byte-order mark (an editor on Windows writes
one) is read by report as diff and compare read it: the same document. report refused
it ("Unexpected UTF-8 BOM"), exit 2, where diff read it."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"


def _report(workspace: Path, capsys) -> tuple[int, str]:
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    return code, capsys.readouterr().out


def test_a_benchmark_with_a_byte_order_mark_reads_as_without(tmp_path: Path, capsys):
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    plain = _report(workspace, capsys)
    path = workspace / "benchmark.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert _report(workspace, capsys) == plain
    assert plain[0] != 2
