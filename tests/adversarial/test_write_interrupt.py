"""Ctrl-C at any moment: no traceback, and a message that tells what was written.

A real SIGINT is sent to a child process grading a generated workspace: while
it starts, while it grades with worker processes, and while it writes. The
message's counts are checked against the files on disk: every run either has
the new pair of reports or its old pair, never one of each.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from budget_corpus import make_run, rules_for
from referee.engine.cli import main
from referee.engine.report import write as write_module

OLD = rules_for('any calls to "save"')
NEW = rules_for('all calls have .status == "success"', 'response contains "Done"')
TOLD = re.compile(r"referee: interrupted; nothing was done\n|"
                  r"referee: interrupted (before grading|while grading|before writing|while writing|after writing); "
                  r"(nothing was written(: (\d+) runs? kept (its|their) old files|; every run kept its old files)"
                  r"|(\d+) runs? (was|were) written, (\d+) kept (its|their) old files)\n")

# The last line of a grade that wrote every run: past it, Python's own exit (which
# gives Ctrl-C back to the system) is all that is left.
FINISHED = re.compile(r"\nwrote grading\.json and ground_truth\.json in \d+ run folders? under .*\n\Z")

pytestmark = pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")


def _workspace(root: Path, runs: int, calls: int = 60) -> Path:
    for n in range(1, runs + 1):
        make_run(root, calls=[("save", '{"n": %d}' % i, "{}", "success") for i in range(calls)],
                 run=f"run-{n}")
    return root


def _rules(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _state(workspace: Path) -> tuple[int, int]:
    """(runs holding the new pair, runs holding the old pair); a mixed pair fails the test."""
    new = old = 0
    for outputs in workspace.rglob("outputs"):
        run = outputs.parent
        grading = json.loads((run / "grading.json").read_text(encoding="utf-8"))
        truth = json.loads((run / "ground_truth.json").read_text(encoding="utf-8"))
        texts = [e["text"] for e in grading["expectations"]]
        assert texts == [c["assertion"] for c in truth["checks"]], run
        new += len(texts) == 2
        old += len(texts) == 1
    return new, old


def _loaded(pid: int) -> bool:
    """True once the child has imported referee's engine (the regex extension is mapped)."""
    try:
        return "_regex" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _workers(pid: int) -> bool:
    """True once the child has started its worker processes."""
    try:
        return bool(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    except OSError:
        return False


def _interrupt(args: list[str], when, sent: signal.Signals = signal.SIGINT) -> tuple[int, str, str]:
    # With the fault handler on, SIGABRT makes a hung child print where each of its
    # threads waits, so a hang seen once says where it was.
    child = subprocess.Popen([sys.executable, "-m", "referee.engine.cli", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    while child.poll() is None and not when(child.pid):
        time.sleep(0.01)
    if child.poll() is None:
        child.send_signal(sent)
    try:
        out, err = child.communicate(timeout=120)  # a hang fails here, not the whole run of tests
    except subprocess.TimeoutExpired:
        pytest.fail(f"referee {' '.join(args[:1])} did not end in 120 s after {sent.name}; "
                    f"where its threads were:\n{_stacks_of_hung(child)}")
    return child.returncode, out.decode(), err.decode()


def _stacks_of_hung(child: subprocess.Popen) -> str:
    """The end of a hung child's stderr once SIGABRT has made it print its threads' stacks."""
    child.send_signal(signal.SIGABRT)
    try:
        err = child.communicate(timeout=30)[1]
    except subprocess.TimeoutExpired:
        child.kill()
        err = child.communicate()[1]
    return err.decode(errors="replace")[-6000:]


def _check_told(code: int, err: str, workspace: Path, runs: int, out: str = "") -> None:
    assert "Traceback" not in err and "Exception" not in err, err
    new, old = _state(workspace)
    assert new + old == runs
    assert not [p.name for p in workspace.rglob(".*") if p.name.endswith((".tmp", ".old"))]
    if code in (-signal.SIGINT, -signal.SIGTERM) and not err and new == runs and FINISHED.search(out):
        return  # the signal came as the process was ending, its work done and said
    # CPython may end a process that caught Ctrl-C by SIGINT itself when the signal
    # landed in code run by exec() (as dataclasses do while modules load): same meaning.
    code = 130 if code == -signal.SIGINT else code
    if code != 130:  # the grade ended before the signal arrived: everything was written
        assert code in (0, 1) and new == runs
        return
    told = TOLD.search(err)
    assert told, err
    written = int(told.group(6)) if told.group(6) else 0
    assert (written, runs - written) == (new, old), err


def test_interrupt_as_soon_as_referee_is_loaded(tmp_path):
    workspace = _workspace(tmp_path / "ws", 60)
    assert main(["grade", str(workspace), "--rules", _rules(tmp_path, "old.rules", OLD)]) == 0
    code, out, err = _interrupt(["grade", str(workspace), "--rules", _rules(tmp_path, "new.rules", NEW),
                                 "--force", "--jobs", "4"], _loaded)
    _check_told(code, err, workspace, 60, out)


def test_interrupt_while_workers_grade(tmp_path):
    workspace = _workspace(tmp_path / "ws", 400)  # still grading 0.3 s after the workers start
    assert main(["grade", str(workspace), "--rules", _rules(tmp_path, "old.rules", OLD)]) == 0
    started: list[float] = []

    def graded_a_while(pid: int) -> bool:
        if not started and _workers(pid):
            started.append(time.monotonic())
        return bool(started) and time.monotonic() - started[0] > 0.3

    code, out, err = _interrupt(["grade", str(workspace), "--rules", _rules(tmp_path, "new.rules", NEW),
                                 "--force", "--jobs", "4"], graded_a_while)
    _check_told(code, err, workspace, 400, out)


# Written by this process's threads, or by two processes. SIGTERM (kill, a CI job
# cancelled) ended the process at once: runs cut short kept their temporary files.
@pytest.mark.parametrize("jobs, sent", [("1", signal.SIGINT), ("2", signal.SIGINT), ("1", signal.SIGTERM),
                                        ("2", signal.SIGTERM)])
def test_interrupt_while_writing_tells_the_truth(tmp_path, jobs, sent):
    workspace = _workspace(tmp_path / "ws", 300, calls=5)
    assert main(["grade", str(workspace), "--rules", _rules(tmp_path, "old.rules", OLD)]) == 0
    first = sorted(workspace.rglob("grading.json"))

    def writing(pid: int) -> bool:
        return any(b'"response contains' in path.read_bytes() for path in first[::7])

    code, out, err = _interrupt(["grade", str(workspace), "--rules", _rules(tmp_path, "new.rules", NEW),
                                 "--force", "--jobs", jobs], writing, sent)
    _check_told(code, err, workspace, 300, out)


def test_interrupt_in_the_write_phase_counts_each_run(tmp_path, monkeypatch, capsys):
    """In process: Ctrl-C arrives once the first run is written."""
    workspace = _workspace(tmp_path / "ws", 30, calls=2)
    assert main(["grade", str(workspace), "--rules", _rules(tmp_path, "old.rules", OLD)]) == 0
    first_written = threading.Event()
    real_write_run = write_module.write_run

    def write_run(*args, **kwargs):
        """The first run written sends this process Ctrl-C, as a user would."""
        result = real_write_run(*args, **kwargs)
        if not first_written.is_set():
            first_written.set()
            os.kill(os.getpid(), signal.SIGINT)
        return result

    monkeypatch.setattr(write_module, "write_run", write_run)
    capsys.readouterr()
    code = main(["grade", str(workspace), "--rules", _rules(tmp_path, "new.rules", NEW), "--force"])
    err = capsys.readouterr().err
    assert code == 130
    assert "interrupted while writing" in err
    _check_told(code, err, workspace, 30)
    assert _state(workspace)[0] >= 1


# While the commands load, and while the console streams are set up (the first thing
# main does: a Ctrl-C there ended in a traceback through codecs).
@pytest.mark.parametrize("step", ["build_parser", "_tolerant_streams"])
def test_interrupt_while_loading_commands(monkeypatch, capsys, step):
    from referee.engine import cli

    def stopped():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, step, stopped)
    assert cli.main(["grade", "anything"]) == 130
    assert capsys.readouterr().err == "referee: interrupted; nothing was done\n"
