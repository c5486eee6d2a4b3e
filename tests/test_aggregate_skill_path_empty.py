"""``aggregate --skill-path ""`` (a variable unset) was taken as a skill path: the
warning that contamination was checked against no skill went away, though nothing
was checked against any skill. An empty path is a usage error naming the flag, as
for compare's and analyze's --skill-path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("blank", ["", " "])
def test_an_empty_skill_path_is_a_usage_error(tmp_path, capsys, blank):
    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", workspace)
    with pytest.raises(SystemExit) as stopped:
        main(["aggregate", str(workspace), "--check", "--skill-path", blank])
    assert stopped.value.code == 2
    assert "argument --skill-path: an empty path" in capsys.readouterr().err
