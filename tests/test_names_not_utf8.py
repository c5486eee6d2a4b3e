"""A folder name that is not UTF-8 (a byte such as 0xff, which Python reads as the
lone surrogate "\\udcff") names a configuration like any other: every command that
reads the graded runs decides on them, and none stops with an internal error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.engine.cli import main

TRANSCRIPT = '## [tool_calls] Step 1: read\nTool: Read\nArgs: {}\nReturn: "ok"\nStatus: success\n'
BASELINE = os.fsdecode(b"without_\xffskill")


@pytest.fixture
def graded(tmp_path) -> tuple[Path, Path]:
    for configuration, reply in (("with_skill", "ok"), (BASELINE, "no")):
        for run in ("run-1", "run-2"):
            outputs = tmp_path / "ws" / "eval-1" / configuration / run / "outputs"
            outputs.mkdir(parents=True)
            (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
            (outputs / "response.md").write_text(reply + "\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "answers": response contains "ok"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    return tmp_path / "ws", rules


@pytest.mark.parametrize("command", ["aggregate", "compare", "validate"])
def test_a_configuration_named_with_a_byte_that_is_not_utf8_is_compared(graded, capsys, command):
    # Input: the baseline's folder is "without_\xffskill"; aggregate, compare and
    # validate, given --primary and --baseline, digested or blinded the runs' paths
    # as strict UTF-8 and stopped: "internal error: UnicodeEncodeError".
    workspace, rules = graded
    argv = [command, str(workspace), "--primary", "with_skill", "--baseline", BASELINE]
    argv += ["--rules", str(rules)] if command == "validate" else []
    code = main(argv)
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert code in (0, 1, 3), err
