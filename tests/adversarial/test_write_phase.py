"""The write phase under hostile conditions ends with a summary that tells the truth.

Non-UTF-8 names, a console that is not UTF-8, a full disk, a read-only
workspace, two grades at once, and temporary files left by a killed grade:
each ends with the runs written and the runs that kept their old files named,
never with "internal error", and a run's two reports always belong together.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from budget_corpus import make_run, rules_for
from held_lock import held_elsewhere
from referee.engine.cli import main
from referee.engine.report import atomic, lock
from referee.engine.report.atomic import replace_together
from referee.engine.report.lock import workspace_lock

RULES_A = rules_for('any calls to "save"', 'response contains "Done"')
RULES_B = rules_for('no calls to "delete"', 'response contains "Done"', 'count(calls) == 1')


def _workspace(root: Path, runs: int = 3) -> Path:
    for n in range(1, runs + 1):
        make_run(root, calls=[("save", '{"n": %d}' % n, '{"ok": true}', "success")], run=f"run-{n}")
    return root


def _rules(tmp_path: Path, text: str, name: str = "r.rules") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _runs(workspace: Path) -> list[Path]:
    return sorted(p.parent for p in workspace.rglob("outputs"))


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.engine.cli", *args], capture_output=True,
                          env={**os.environ, **(env or {})})


def _pair(run: Path) -> tuple[list[str], list[str]]:
    grading = json.loads((run / "grading.json").read_text(encoding="utf-8"))
    truth = json.loads((run / "ground_truth.json").read_text(encoding="utf-8"))
    return [e["text"] for e in grading["expectations"]], [c["assertion"] for c in truth["checks"]]


def test_non_utf8_names_are_written_and_printed(tmp_path):
    workspace = _workspace(tmp_path / "ws", 2)
    outputs = os.fsencode(_runs(workspace)[1] / "outputs")
    with open(outputs + b"/r\xe9sum\xff.txt", "wb") as handle:
        handle.write(b"text")
    rules = _rules(tmp_path, rules_for('any outputs where . contains "sum"'))
    done = _cli("grade", str(workspace), "--rules", rules)
    assert done.returncode == 1, done.stderr
    assert b"internal error" not in done.stderr
    assert b"wrote grading.json and ground_truth.json in 2 run folders" in done.stdout
    for run in _runs(workspace):
        assert _pair(run)[0] == ['any outputs where . contains "sum"']


def test_a_latin1_console_prints_the_summary(tmp_path):
    workspace = tmp_path / "ws"
    make_run(workspace, calls=[("予約", '{"name": "Müller ✓"}', "{}", "success")])
    rules = _rules(tmp_path, rules_for('first(calls).args.name == "x"'))
    done = _cli("grade", str(workspace), "--rules", rules, env={"PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 1, done.stderr
    assert b"internal error" not in done.stderr
    assert b"\\u4e88\\u7d04" in done.stdout and "Müller".encode("latin-1") in done.stdout
    assert b"total: 1 run" in done.stdout


def _grade(tmp_path: Path, workspace: Path, text: str, *extra: str) -> int:
    return main(["grade", str(workspace), "--rules", _rules(tmp_path, text), *extra])


def _fail_for(monkeypatch, when, code: int) -> None:
    """Make writing a temporary file fail with ``code`` where ``when(path)`` holds."""
    real = atomic._temporary

    def failing(path, payload):
        if when(path):
            raise OSError(code, os.strerror(code))
        return real(path, payload)

    monkeypatch.setattr(atomic, "_temporary", failing)


def test_disk_full_keeps_old_files_and_says_which(tmp_path, monkeypatch, capsys):
    workspace = _workspace(tmp_path / "ws", 3)
    assert _grade(tmp_path, workspace, RULES_A) == 0
    before = {run: (run / "grading.json").read_bytes() for run in _runs(workspace)}
    full = _runs(workspace)[1]
    _fail_for(monkeypatch, lambda path: path.parent == full and path.name == "ground_truth.json",
              errno.ENOSPC)
    capsys.readouterr()
    assert _grade(tmp_path, workspace, RULES_B, "--force") == 2
    out, err = capsys.readouterr()
    assert "internal error" not in err
    assert "wrote grading.json and ground_truth.json in 2 run folders" in out
    assert "1 run could not be written and kept its old files" in out
    assert "run-2: cannot write: No space left on device; this run kept its old files" in err
    assert (full / "grading.json").read_bytes() == before[full]  # the pair stays old, both files
    assert _pair(full)[0] == _pair(full)[1] == [line.split(": ", 1)[1] for line in RULES_A.splitlines()[2:]]
    for run in _runs(workspace):
        assert _pair(run)[0] == _pair(run)[1]
        assert sorted(os.listdir(run)) == ["grading.json", "ground_truth.json", "outputs"]


def test_read_only_workspace_writes_nothing_and_says_so(tmp_path, monkeypatch, capsys):
    workspace = _workspace(tmp_path / "ws", 2)
    _fail_for(monkeypatch, lambda path: True, errno.EROFS)
    assert _grade(tmp_path, workspace, RULES_A) == 2
    out, err = capsys.readouterr()
    assert "nothing was written: 2 runs could not be written and kept their old files" in out
    assert err.count("cannot write: Read-only file system") == 2
    assert "internal error" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="permissions do not bind the superuser")
def test_read_only_folders_on_disk(tmp_path, capsys):
    workspace = _workspace(tmp_path / "ws", 2)
    for run in _runs(workspace):
        run.chmod(0o555)
    try:
        assert _grade(tmp_path, workspace, RULES_A) == 2
    finally:
        for run in _runs(workspace):
            run.chmod(0o755)
    out, err = capsys.readouterr()
    assert "nothing was written: 2 runs could not be written" in out and "internal error" not in err


def test_a_pair_is_replaced_together_or_not_at_all(tmp_path, monkeypatch):
    grading, truth = tmp_path / "grading.json", tmp_path / "ground_truth.json"
    grading.write_text("old grading")
    truth.write_text("old truth")
    real = os.replace

    def refuse_second(src, dst, *args, **kwargs):
        if str(dst).endswith("ground_truth.json"):
            raise OSError(errno.EIO, "I/O error")
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "replace", refuse_second)
    with pytest.raises(OSError):
        replace_together({grading: "new grading", truth: "new truth"})
    monkeypatch.setattr(atomic.os, "replace", real)
    assert (grading.read_text(), truth.read_text()) == ("old grading", "old truth")
    assert sorted(os.listdir(tmp_path)) == ["grading.json", "ground_truth.json"]



def test_a_second_grade_refuses_while_the_workspace_is_locked(tmp_path, monkeypatch, capsys):
    workspace = _workspace(tmp_path / "ws", 1)
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.0)
    with held_elsewhere(workspace):
        assert _grade(tmp_path, workspace, RULES_A) == 2
    err = capsys.readouterr().err
    assert "another referee is writing reports into" in err
    assert "Nothing was written: every run kept its old files" in err
    assert not (_runs(workspace)[0] / "grading.json").exists()
    assert _grade(tmp_path, workspace, RULES_A) == 0  # released with the with-block


def test_a_run_being_written_by_a_grader_of_another_folder_is_left_alone(tmp_path, monkeypatch, capsys):
    workspace = _workspace(tmp_path / "ws", 3)
    busy = _runs(workspace)[1]
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.0)
    with held_elsewhere(busy):
        assert _grade(tmp_path, workspace, RULES_A) == 2
    out, err = capsys.readouterr()
    assert "1 run could not be written and kept its old files" in out
    assert "run-2: cannot write: another referee is writing this run folder" in err
    assert not (busy / "grading.json").exists()
    assert all((run / "grading.json").exists() for run in _runs(workspace) if run != busy)


def test_a_single_run_folder_is_its_own_workspace(tmp_path, monkeypatch):
    run = _runs(_workspace(tmp_path / "ws", 1))[0]
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.0)  # locking it twice would wait on itself
    with workspace_lock(run):
        with workspace_lock(run) as again:
            assert again
    assert _grade(tmp_path, run, RULES_A) == 0
    assert _pair(run)[0] == _pair(run)[1]


def test_concurrent_forced_grades_never_mix_a_pair(tmp_path):
    workspace = _workspace(tmp_path / "ws", 40)
    rules = [_rules(tmp_path, RULES_A, "a.rules"), _rules(tmp_path, RULES_B, "b.rules")]
    for _ in range(3):
        children = [subprocess.Popen([sys.executable, "-m", "referee.engine.cli", "grade", str(workspace),
                                      "--rules", r, "--force"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    for r in rules]
        for child in children:
            out, err = child.communicate()
            assert b"internal error" not in err and b"Traceback" not in err
            assert child.returncode in (0, 1) or b"another referee is writing" in err
        for run in _runs(workspace):
            texts, checks = _pair(run)
            assert texts == checks, run


def test_stale_temporary_files_are_removed_on_the_next_grade(tmp_path):
    workspace = _workspace(tmp_path / "ws", 1)
    run = _runs(workspace)[0]
    stale = [".grading.json.a1b2c3d4.tmp", ".ground_truth.json.zz_9xy12.tmp", ".grading.json.k2j3h4g5.old"]
    kept = [".grading.json.notours", "notes.tmp", ".other.json.a1b2c3d4.tmp"]
    for name in stale + kept:
        (run / name).write_text("left behind")
    assert _grade(tmp_path, workspace, RULES_A) == 0
    assert sorted(os.listdir(run)) == sorted(kept + ["grading.json", "ground_truth.json", "outputs"])
