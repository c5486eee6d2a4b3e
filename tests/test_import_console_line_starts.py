"""import prints each problem of a run on a line of its own that starts with the
source's name (``session.jsonl:23: warning[...]``). A source named ``::error::x.jsonl``
made each such line a workflow command in a CI log (the runner trims the leading blanks
and reads ``::``); now that start is written ``\\x3a:``, as grade and aggregate write
theirs."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"


def test_no_problem_line_starts_a_workflow_command(tmp_path: Path, capsys):
    # Input: the fixture session (two import problems) named "::error::forged.jsonl";
    # import printed "    ::error::forged.jsonl: warning[usage-snapshot]: ...".
    source = tmp_path / "::error::forged.jsonl"
    shutil.copy(SESSION, source)
    assert main(["import", "claude-code", str(source), "--out", str(tmp_path / "ws")]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.lstrip().startswith("::")] == []
    assert "    \\x3a:error::forged.jsonl:23: warning[orphan-result]" in out
