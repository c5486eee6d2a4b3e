"""A cassette is an ordinary file, committed and read by CI: its mode follows the
umask, as the reports' do."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from referee.llm_adapter.cassette import FORMAT, load, save


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def test_a_saved_cassette_follows_the_umask(tmp_path: Path):
    # Input: a cassette recorded (`--llm record:FILE`, or `--llm-batch-import`) under
    # umask 022. It was written as a tempfile.mkstemp file (0600) renamed over the
    # path: readable by its owner alone, where every report referee writes is 0644.
    path = tmp_path / "judge.cassette.jsonl"
    save(path, {"format": FORMAT, "backend": "openai", "model": "m"}, {})
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()
    assert load(path)[0]["model"] == "m"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
