"""Writing reports: atomic, and never over a file referee did not write."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from referee.engine.report.atomic import move_aside, write_atomic
from referee.engine.report.write import foreign_files, write_all, write_run, written_by_referee

OURS = json.dumps({"expectations": [], "grader": {"name": "referee", "version": "1"}})


def test_write_atomic_replaces_and_leaves_no_temp(tmp_path):
    target = tmp_path / "grading.json"
    target.write_text("old")
    write_atomic(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert os.listdir(tmp_path) == ["grading.json"]


def test_write_atomic_keeps_old_file_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "grading.json"
    target.write_text("old")

    def broken(*_):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError):
        write_atomic(target, "new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["grading.json"]


def test_move_aside_never_overwrites_a_backup(tmp_path):
    for text in ("first", "second"):
        (tmp_path / "grading.json").write_text(text)
        move_aside(tmp_path / "grading.json")
    assert (tmp_path / "grading.json.bak").read_text() == "first"
    assert (tmp_path / "grading.json.bak.1").read_text() == "second"


def test_marker_detection(tmp_path):
    path = tmp_path / "grading.json"
    path.write_text(OURS)
    assert written_by_referee(path)
    for other in ('{"expectations": []}', "not json", '{"grader": "referee"}', "[]"):
        path.write_text(other)
        assert not written_by_referee(path)


def test_foreign_file_refuses_the_whole_run(tmp_path):
    (tmp_path / "grading.json").write_text('{"expectations": [], "summary": {}}')
    result = write_run(tmp_path, {"grading.json": "A", "ground_truth.json": "B"}, force=False)
    assert result.refused == ["grading.json"] and not result.written
    assert (tmp_path / "grading.json").read_text() == '{"expectations": [], "summary": {}}'
    assert not (tmp_path / "ground_truth.json").exists()


def test_force_keeps_the_foreign_file_aside(tmp_path):
    (tmp_path / "grading.json").write_text("theirs")
    result = write_run(tmp_path, {"grading.json": OURS}, force=True)
    assert result.written and result.kept_aside == [("grading.json", "grading.json.bak")]
    assert (tmp_path / "grading.json.bak").read_text() == "theirs"
    assert written_by_referee(tmp_path / "grading.json")


def test_own_file_is_overwritten_without_force(tmp_path):
    (tmp_path / "grading.json").write_text(OURS)
    assert foreign_files(tmp_path) == []
    assert write_run(tmp_path, {"grading.json": OURS.replace('"1"', '"2"')}, force=False).written
    assert not (tmp_path / "grading.json.bak").exists()


def test_symlinked_report_is_foreign(tmp_path):
    (tmp_path / "elsewhere.json").write_text(OURS)
    (tmp_path / "grading.json").symlink_to(tmp_path / "elsewhere.json")
    assert foreign_files(tmp_path) == ["grading.json"]


def test_write_all_keeps_order(tmp_path):
    dirs = []
    for number in range(5):
        folder = tmp_path / f"run-{number}"
        folder.mkdir()
        dirs.append((folder, {"grading.json": OURS}))
    (tmp_path / "run-3" / "grading.json").write_text("theirs")
    results = write_all(dirs, force=False)
    assert [bool(r.refused) for r in results] == [False, False, False, True, False]


def test_the_link_to_an_old_report_has_a_name_remove_stale_knows(tmp_path, monkeypatch):
    from referee.engine.report import atomic

    report = tmp_path / "grading.json"
    report.write_text("old", encoding="utf-8")
    draws = iter(["taken000", "taken000", "fresh_01"])
    monkeypatch.setattr(atomic, "_random_part", lambda: next(draws))
    first = atomic._link_old(report)
    second = atomic._link_old(report)  # its first name is taken: it draws again
    assert (Path(first).name, Path(second).name) == (".grading.json.taken000.old", ".grading.json.fresh_01.old")
    assert Path(second).read_text(encoding="utf-8") == "old"
    assert atomic.remove_stale(tmp_path, ["grading.json"]) == sorted([Path(first).name, Path(second).name])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grading.json"]
