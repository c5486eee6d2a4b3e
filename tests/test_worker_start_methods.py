"""``--jobs`` grades alike however the platform starts a worker process: by fork (Linux
before Python 3.14), by a fork server (Linux from Python 3.14, which ``requires-python``
allows) or by spawning a new interpreter (macOS, Windows). A worker started other than
by fork inherits nothing of this process: it compiles the rules from their texts, and
each run reaches it pickled. The printed grade and every file a writing grade writes
are the same bytes whichever way."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from sharded import RULE_ARGS, fresh

# The start method is chosen before referee loads, as a program embedding it would.
_START = '''import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[1])
    from referee.engine.cli import main

    sys.exit(main(sys.argv[2:]))
'''


def _graded(where: Path, method: str) -> tuple[str, dict[str, str]]:
    """What ``grade --jobs 2`` prints with ``--check``, and the files a writing grade
    leaves in a copy of the example without its reports, with workers started by ``method``."""
    where.mkdir()
    script = where / "start.py"
    script.write_text(_START, encoding="utf-8")
    workspace = fresh(where, "workspace")
    grade = [sys.executable, str(script), method, "grade", "workspace", *RULE_ARGS, "--jobs", "2", "--json"]
    checked = subprocess.run([*grade, "--check"], cwd=where, capture_output=True, text=True, timeout=300)
    assert checked.returncode == 1, checked.stderr  # the example's runs without the skill fail
    written = subprocess.run(grade, cwd=where, capture_output=True, text=True, timeout=300)
    assert written.returncode == 1, written.stderr
    files = {path.relative_to(workspace).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
             for path in sorted(workspace.rglob("*")) if path.is_file()}
    return checked.stdout, files


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_workers_grade_alike_however_they_start(tmp_path: Path, method: str):
    forked = _graded(tmp_path / "fork", "fork")
    other = _graded(tmp_path / method, method)
    assert other[0] == forked[0]
    assert other[1] == forked[1]
    assert any(name.endswith("grading.json") for name in forked[1])
