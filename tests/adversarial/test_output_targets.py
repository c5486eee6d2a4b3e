"""What an output path points at is never destroyed.

``report -o X`` and ``suggest -o X`` used to replace X with a regular file whatever
X was: as root, ``-o /dev/null`` replaced the system's /dev/null. Now a path the
user named that is not a regular file is written through, as the shell's ``>``
would (a FIFO is written to, a link is followed: ``-o /dev/stdout`` prints), and
a file referee names itself in a workspace (report.html, benchmark.json,
benchmark.md, critique.json) is replaced only when it is a regular file, and
refused otherwise.

No test here names a system file: a link of the test's own to /dev/null stands in
for a character device, and one to /proc/self/fd/1 for /dev/stdout, so a broken
writer could only ever replace the stand-in. Each test asserts the file type
afterwards.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from budget_corpus import make_run, rules_for
from referee.engine.cli import main
from referee.engine.report.atomic import NotReplaceable, replace_together, write_atomic, write_output

RULES = rules_for('any calls to "save"', 'response contains "Done"')


def _graded(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    make_run(workspace, calls=[("save", '{"n": 1}', '{"ok": true}', "success")])
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules)]) == 0
    return workspace


def _evals(tmp_path: Path) -> Path:
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "p", "expectations": ["The response contains \"Done\""]}]}), encoding="utf-8")
    return evals


def _kind(path: Path) -> str:
    mode = os.lstat(path).st_mode
    return next(name for test, name in ((stat.S_ISLNK, "link"), (stat.S_ISFIFO, "fifo"),
                                        (stat.S_ISCHR, "chr"), (stat.S_ISREG, "file")) if test(mode))


def _null_link(tmp_path: Path) -> Path:
    link = tmp_path / "null"
    link.symlink_to("/dev/null")
    return link


def _still_null(link: Path) -> None:
    assert _kind(link) == "link" and os.readlink(link) == "/dev/null"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def _read_fifo_after(fifo: Path, command: list[str]) -> tuple[int, bytes]:
    """Run ``command`` (in this process) with a reader already on ``fifo``, so the
    writer never waits; returns the exit code and what came through the FIFO. The
    texts written here are far smaller than a pipe's buffer."""
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        code = main(command)
        chunks = []
        while chunk := os.read(reader, 65536):
            chunks.append(chunk)
        return code, b"".join(chunks)
    finally:
        os.close(reader)


@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_report_to_a_link_to_a_device_writes_through_it(tmp_path, fmt):
    workspace, link = _graded(tmp_path), _null_link(tmp_path)
    assert main(["report", str(workspace), "--format", fmt, "-o", str(link)]) == 0
    _still_null(link)
    assert not (workspace / "report.html").exists()


def test_report_to_a_fifo_writes_into_it(tmp_path):
    workspace, fifo = _graded(tmp_path), tmp_path / "pipe"
    os.mkfifo(fifo)
    code, data = _read_fifo_after(fifo, ["report", str(workspace), "--format", "markdown", "-o", str(fifo)])
    assert code == 0 and _kind(fifo) == "fifo"
    assert data.decode("utf-8").startswith("<!-- referee report -->\n## referee: PASS")


def test_report_to_standard_output_through_a_link_prints(tmp_path):
    # /dev/stdout is a link to /proc/self/fd/1; a link of the test's own stands in for
    # it, so that a broken writer could only ever replace the stand-in.
    workspace, stdout = _graded(tmp_path), tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")
    done = subprocess.run([sys.executable, "-m", "referee", "report", str(workspace), "--format", "markdown",
                           "-o", str(stdout)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<!-- referee report -->\n## referee: PASS") and f"wrote {stdout}" in done.stderr
    assert _kind(stdout) == "link" and os.readlink(stdout) == "/proc/self/fd/1"


def test_report_through_a_link_to_a_file_keeps_the_link(tmp_path):
    workspace = _graded(tmp_path)
    target, link = tmp_path / "kept.md", tmp_path / "latest.md"
    target.write_text("old", encoding="utf-8")
    link.symlink_to(target.name)
    assert main(["report", str(workspace), "--format", "markdown", "-o", str(link)]) == 0
    assert _kind(link) == "link" and _kind(target) == "file"
    assert "PASS" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize("planted", ["link", "fifo"])
def test_the_default_report_file_is_never_replaced(tmp_path, planted, capsys):
    workspace = _graded(tmp_path)
    place = workspace / "report.html"
    if planted == "link":
        place.symlink_to("/dev/null")
    else:
        os.mkfifo(place)
    assert main(["report", str(workspace)]) == 2  # never opened: a FIFO cannot stall it
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert f"report.html is a {'symbolic link' if planted == 'link' else 'FIFO'}, not a regular file" in err
    assert _kind(place) == planted
    if planted == "link":
        _still_null(place)


def test_a_files_folder_holding_what_referee_did_not_write_is_left_as_it_is(tmp_path, capsys):
    workspace = _graded(tmp_path)
    (workspace / "report_files").mkdir()
    (workspace / "report_files" / "notes.txt").write_text("mine\n", encoding="utf-8")
    (workspace / "report_files" / "run-1.js").symlink_to("/dev/null")
    assert main(["report", str(workspace)]) == 2
    err = capsys.readouterr().err
    assert "report_files holds what referee did not write (notes.txt, run-1.js); left as it is: move it " \
           "away; give another place with -o" in err and err.count("with -o") == 1
    assert _kind(workspace / "report_files" / "run-1.js") == "link" and not (workspace / "report.html").exists()
    _still_null(workspace / "report_files" / "run-1.js")


def test_suggest_to_a_link_to_a_device_and_to_a_fifo(tmp_path):
    evals, link, fifo = _evals(tmp_path), _null_link(tmp_path), tmp_path / "pipe"
    assert main(["suggest", str(evals), "-o", str(link)]) == 0
    _still_null(link)
    os.mkfifo(fifo)
    code, data = _read_fifo_after(fifo, ["suggest", str(evals), "-o", str(fifo)])
    assert code == 0 and _kind(fifo) == "fifo"
    assert 'response contains "Done"' in data.decode("utf-8")


def test_suggest_to_a_folder_is_a_clear_error(tmp_path, capsys):
    assert main(["suggest", str(_evals(tmp_path)), "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "is a directory" in err
    assert tmp_path.is_dir()


@pytest.mark.parametrize("name", ["benchmark.json", "benchmark.md"])
def test_aggregate_refuses_a_link_where_its_files_go(tmp_path, name, capsys):
    workspace = _graded(tmp_path)
    target = tmp_path / "elsewhere.txt"
    target.write_text("precious", encoding="utf-8")
    (workspace / name).symlink_to(target)
    assert main(["aggregate", str(workspace)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "neither was changed" in err
    assert _kind(workspace / name) == "link" and target.read_text(encoding="utf-8") == "precious"
    other = ({"benchmark.json", "benchmark.md"} - {name}).pop()
    assert not (workspace / other).exists()  # both or neither


def test_critique_refuses_a_fifo_where_critique_json_goes(tmp_path, capsys):
    workspace = _graded(tmp_path)
    os.mkfifo(workspace / "critique.json")
    rules = tmp_path / "r.rules"
    assert main(["critique", str(workspace), "--rules", str(rules)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "critique.json is a FIFO, not a regular file" in err
    assert _kind(workspace / "critique.json") == "fifo"


@pytest.mark.parametrize("planted", ["link", "fifo", "dir"])
def test_atomic_writes_refuse_what_is_not_a_regular_file(tmp_path, planted):
    place = tmp_path / "out.json"
    if planted == "link":
        place.symlink_to("/dev/null")
    elif planted == "fifo":
        os.mkfifo(place)
    else:
        place.mkdir()
    with pytest.raises(NotReplaceable):
        write_atomic(place, "x")
    with pytest.raises(NotReplaceable):
        replace_together({tmp_path / "first.json": "1", place: "2"})
    assert not (tmp_path / "first.json").exists()  # refused before anything was written
    assert _kind(place) == planted if planted != "dir" else place.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary left


def test_write_output_replaces_a_regular_file_and_creates_a_new_one(tmp_path):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("old", encoding="utf-8")
    write_output(old, "fresh")
    write_output(new, "made")
    assert old.read_text(encoding="utf-8") == "fresh" and new.read_text(encoding="utf-8") == "made"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt", "old.txt"]
