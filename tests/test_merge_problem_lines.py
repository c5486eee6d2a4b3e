"""The problems that stop a merge are listed one a line, each naming run folders: a
line break in a folder's name is written as ``\\n``, so the rest of the name cannot
start a line of its own (one the GitHub Actions runner reads as a workflow command)
in the error merge, aggregate, report and the other readers of a sharded grade print."""

from __future__ import annotations

from pathlib import Path

import pytest

from named_folders import configurations
from referee.engine.cli import main

FORGED = "::add-mask::FAIL"


@pytest.mark.parametrize("command", ["merge", "aggregate"])
def test_a_folder_name_in_a_merge_problem_stays_on_its_line(tmp_path: Path, capsys, command: str):
    # Input: runs of configurations "with_skill" and f"without_skill\n{FORGED}", graded
    # as shard 1 of 2 alone: the runs of shard 2 are "ungraded", each named in a line
    # of the error, which printed the break in the folder's name as it is.
    _, rules = configurations(tmp_path, ["with_skill", f"without_skill\n{FORGED}"], runs=3)
    workspace = str(tmp_path / "ws")
    main(["grade", workspace, "--rules", str(rules), "--shard", "1/2"])
    capsys.readouterr()
    argv = [command, workspace] + (["--rules", str(rules)] if command == "merge" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "ungraded: eval-1/without_skill\\n" + FORGED in err
    assert [line for line in err.split("\n") if line.strip().startswith("::")] == []
