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
    assert result.refused == ("grading.json",) and not result.written
    assert (tmp_path / "grading.json").read_text() == '{"expectations": [], "summary": {}}'
    assert not (tmp_path / "ground_truth.json").exists()


def test_force_keeps_the_foreign_file_aside(tmp_path):
    (tmp_path / "grading.json").write_text("theirs")
    result = write_run(tmp_path, {"grading.json": OURS}, force=True)
    assert result.written and result.kept_aside == (("grading.json", "grading.json.bak"),)
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


def _runs_to_write(root: Path, count: int) -> list[tuple[Path, dict[str, str]]]:
    jobs = []
    for number in range(count):
        folder = root / f"run-{number}"
        folder.mkdir()
        text = json.dumps({"expectations": [number], "grader": {"name": "referee", "version": "1"}})
        jobs.append((folder, {"grading.json": text, "ground_truth.json": text}))
    return jobs


def test_written_by_several_processes_as_by_one(tmp_path):
    jobs = _runs_to_write(tmp_path, 45)
    (tmp_path / "run-17" / "grading.json").write_text("theirs")
    results = write_all(jobs, force=False, processes=3)
    assert [r.written for r in results] == [n != 17 for n in range(45)]
    assert results[17].refused == ("grading.json",)
    for folder, texts in jobs[:17] + jobs[18:]:
        assert {name: (folder / name).read_text() for name in texts} == texts
        assert sorted(os.listdir(folder)) == ["grading.json", "ground_truth.json"]


def test_a_stop_while_processes_write_leaves_each_run_whole(tmp_path, monkeypatch):
    import threading

    from referee.engine.report import write as write_module

    jobs = _runs_to_write(tmp_path, 200)
    stop = threading.Event()
    real = write_module.write_run

    def write_run(*args, **kwargs):  # in this process: the first run written is Ctrl-C's cue
        result = real(*args, **kwargs)
        stop.set()
        return result

    monkeypatch.setattr(write_module, "write_run", write_run)
    results = write_all(jobs, force=False, stop=stop, processes=2)
    written = [r.written for r in results]
    assert any(written) and not all(written)
    assert all(r.written != r.interrupted for r in results)
    for (folder, _), result in zip(jobs, results):
        assert sorted(os.listdir(folder)) == ([] if result.interrupted else ["grading.json", "ground_truth.json"])
