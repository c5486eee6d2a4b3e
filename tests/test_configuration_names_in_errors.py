"""The error that says which configurations there are lists their names, which are
folder names of the workspace: a line break in one is written as ``\\n``, so the rest
of the name cannot start a line of its own (one the GitHub Actions runner reads as
a workflow command) in the error every command that pairs configurations prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from named_folders import configurations
from referee.engine.cli import main

FORGED = "::add-mask::FAIL"


@pytest.mark.parametrize("command", ["aggregate", "compare", "validate", "diff"])
def test_the_configurations_listed_in_an_error_stay_on_its_line(tmp_path: Path, capsys, command: str):
    # Input: configurations "one" and f"two\n{FORGED}", whose names tell neither apart
    # as the skill under test; the error listing them printed the break as it is.
    _, rules = configurations(tmp_path, ["one", f"two\n{FORGED}"])
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
