"""Put reports on disk without losing anything that was there.

A grading.json or ground_truth.json that referee did not write (it lacks the
``grader.name == "referee"`` marker, or is not JSON at all) belongs to someone
else: without ``force`` the run is refused and nothing of it is written; with
``force`` the old file is first renamed to ``<name>.bak`` (or ``.bak.1``, ...).
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from referee.engine.report.atomic import move_aside, write_atomic
from referee.engine.report.models import GRADER_NAME

GRADING = "grading.json"
GROUND_TRUTH = "ground_truth.json"
# fsync waits on the disk, not the CPU: a few threads overlap those waits.
WRITER_THREADS = 8


@dataclass
class WriteResult:
    """What happened to one run's files. ``refused`` names the foreign files."""

    written: bool = False
    refused: list[str] = field(default_factory=list)
    kept_aside: list[tuple[str, str]] = field(default_factory=list)  # (file, backup)


def written_by_referee(path: Path) -> bool:
    """True when ``path`` holds a report with referee's marker."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    grader = document.get("grader") if isinstance(document, dict) else None
    return isinstance(grader, dict) and grader.get("name") == GRADER_NAME


def foreign_files(run_dir: Path) -> list[str]:
    """The report files in ``run_dir`` that referee may not overwrite on its own."""
    found = []
    for name in (GRADING, GROUND_TRUTH):
        path = run_dir / name
        if path.is_symlink() or (path.exists() and not (path.is_file() and written_by_referee(path))):
            found.append(name)
    return found


def write_run(run_dir: Path, files: dict[str, str], force: bool) -> WriteResult:
    """Write ``{name: text}`` into ``run_dir``, guarding files referee did not write."""
    result = WriteResult()
    foreign = foreign_files(run_dir)
    if foreign and not force:
        result.refused = foreign
        return result
    for name in foreign:
        backup = move_aside(run_dir / name)
        result.kept_aside.append((name, backup.name))
    for name, text in files.items():
        write_atomic(run_dir / name, text)
    result.written = True
    return result


def write_all(jobs: Sequence[tuple[Path, dict[str, str]]], force: bool) -> list[WriteResult]:
    """``write_run`` for many runs, results in the order given."""
    if len(jobs) < 2:
        return [write_run(path, files, force) for path, files in jobs]
    with ThreadPoolExecutor(max_workers=WRITER_THREADS) as pool:
        return list(pool.map(lambda job: write_run(job[0], job[1], force), jobs))
