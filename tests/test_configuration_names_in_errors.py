"""The error that says which configurations there are lists their names, which are
folder names of the workspace: a line break in one is written as ``\\n``, so the rest
of the name cannot start a line of its own (one the GitHub Actions runner reads as
a workflow command) in the error every command that pairs configurations prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.cli import main

TRANSCRIPT = '## [tool_calls] Step 1: read\nTool: Read\nArgs: {}\nReturn: "ok"\nStatus: success\n'
FORGED = "::add-mask::FAIL"


@pytest.mark.parametrize("command", ["aggregate", "compare", "validate", "diff"])
def test_the_configurations_listed_in_an_error_stay_on_its_line(tmp_path: Path, capsys, command: str):
    # Input: configurations "one" and f"two\n{FORGED}", whose names tell neither apart
    # as the skill under test; the error listing them printed the break as it is.
    for configuration in ("one", f"two\n{FORGED}"):
        outputs = tmp_path / "ws" / "eval-1" / configuration / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
        (outputs / "response.md").write_text("ok\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "answers": response contains "ok"\n', encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    capsys.readouterr()
    workspace = str(tmp_path / "ws")
    argv = {"aggregate": [workspace], "compare": [workspace], "diff": [workspace, workspace],
            "validate": [workspace, "--rules", str(rules)]}[command]
    assert main([command, *argv]) == 2
    err = capsys.readouterr().err
    assert "cannot tell which configuration" in err
    assert [line for line in err.split("\n") if line.strip().startswith("::")] == []
    assert f"(one, two\\n{FORGED})" in err
