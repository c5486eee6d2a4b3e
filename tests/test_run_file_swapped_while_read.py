"""A run's file is found (``safeio.locate``: a regular file inside the run) and then
read. Swapped in between (a grade of a folder another process still writes), it was
read as whatever then stood there: a symlink to a file outside the run was followed,
and a FIFO blocked the grade forever. The file is now opened without following a link
and without blocking, and checked on the open file: either is unreadable, so a check
on it is an ERROR, never a verdict on a file outside the run, never a hang."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from referee.engine.run import safeio
from referee.engine.run.workspace import discover

RUN = (Path(__file__).resolve().parent.parent / "examples" / "booking-skill-workspace" / "iteration-1"
       / "eval-1-book-flight" / "with_skill" / "run-1")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symlinks and FIFOs as POSIX makes them")


def _swapping(monkeypatch, swap) -> None:
    """``locate`` as it is, and then ``swap`` the response it found."""
    found = safeio.locate

    def locate(root, rel, report):
        where = found(root, rel, report)
        if rel == "outputs/response.md" and where.real is not None:
            swap(Path(where.real))
        return where

    monkeypatch.setattr(safeio, "locate", locate)


def _response(tmp_path: Path):
    shutil.copytree(RUN, tmp_path / "ws" / "eval-1" / "with_skill" / "run-1")
    (run,) = discover(tmp_path / "ws").runs
    return run.response


def test_a_link_swapped_in_is_not_followed(tmp_path: Path, monkeypatch):
    outside = tmp_path / "outside.md"
    outside.write_text("A refund is on its way.\n", encoding="utf-8")

    def swap(path: Path) -> None:
        path.unlink()
        path.symlink_to(outside)

    _swapping(monkeypatch, swap)
    response = _response(tmp_path)
    assert response.text is None and response.unreadable is not None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_swapped_in_does_not_block(tmp_path: Path, monkeypatch):
    def swap(path: Path) -> None:
        path.unlink()
        os.mkfifo(path)

    _swapping(monkeypatch, swap)
    response = _response(tmp_path)
    assert response.text is None and "no longer a regular file" in response.unreadable.message


def test_a_file_left_as_it_was_is_read(tmp_path: Path, monkeypatch):
    _swapping(monkeypatch, lambda path: None)
    assert "QX7K2M" in _response(tmp_path).text
