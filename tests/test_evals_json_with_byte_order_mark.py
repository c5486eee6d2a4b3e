"""An evals.json saved with a UTF-8 byte order mark (Windows Notepad, PowerShell's
Out-File -Encoding utf8) is read by every command that takes one, as grade reads
it ("a leading byte order mark is ignored"): aggregate --evals refused it with
"Unexpected UTF-8 BOM", so a workspace graded with that file could not be
aggregated with it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"


def test_aggregate_reads_an_evals_json_with_a_byte_order_mark(tmp_path: Path):
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    evals = tmp_path / "evals.json"
    evals.write_bytes(b"\xef\xbb\xbf" + EVALS.read_bytes().replace(b"\n", b"\r\n"))
    assert main(["grade", str(workspace), "--rules", str(RULES), "--evals", str(evals)]) == 1
    assert main(["aggregate", str(workspace), "--evals", str(evals)]) in (0, 1, 3)
    benchmark = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    assert benchmark["metadata"]["skill_name"] == json.loads(EVALS.read_text(encoding="utf-8"))["skill_name"]
