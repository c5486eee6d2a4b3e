"""An imported run folder is an ordinary folder: its mode follows the umask, as every
other folder and file referee writes does (reports, report_files/)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_an_imported_run_folder_follows_the_umask(tmp_path: Path, umask: int):
    # Input: the Claude Code fixture imported under umask 022. The run folder, built
    # under a temporary name (tempfile.mkdtemp, which makes it 0700) and moved into
    # place, stayed 0700 while the folders above it and the files in it were 0755 and
    # 0644: other users (a CI step, a web server showing the report) could not read it.
    previous = os.umask(umask)
    try:
        assert main(["import", "claude-code", str(SESSION), "--out", str(tmp_path / "ws")]) == 0
    finally:
        os.umask(previous)
    folders = [p for p in (tmp_path / "ws").rglob("*") if p.is_dir()]
    assert folders
    for folder in folders:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~umask, folder
    assert not [p.name for p in (tmp_path / "ws").rglob(".*")]  # no staging folder left
