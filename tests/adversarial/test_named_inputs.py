"""No file the user names can stall a command or fill its memory.

A rules file, evals.json, a pattern file, a release configuration, a blessed
benchmark.json or a rubric given as a FIFO used to stall the command for ever
(`grade --rules`, `suggest`, `critique`, `validate`, `aggregate`, `compare`,
`analyze`), and a symlink to /dev/zero read until memory ran out. Every one is now
read through the one reader (``dsl.named_file``): anything but a regular file is a
clear error naming it, exit 2.

Each command runs in this process; a FIFO is watched by a thread that, should a
reader ever wait on it, writes a byte and closes it, so a regression ends with a
wrong message instead of a hung suite. The device case runs in a child process
with its memory bounded and a timeout, for the same reason.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from referee.dsl.named_file import NotRegular, TooLarge, named_bytes, read_named_text
from referee.engine.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
NOT_A_FILE = "not a regular file"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@contextmanager
def unblocking(fifo: Path):
    """While inside, a reader that waits on ``fifo`` gets one byte and an end."""
    stop = threading.Event()

    def serve() -> None:
        while not stop.wait(0.05):
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # succeeds only while a reader has it open
            except OSError:
                continue
            try:
                os.write(fd, b"x")
            except OSError:
                pass
            os.close(fd)

    watcher = threading.Thread(target=serve, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()


@pytest.fixture(scope="module")
def setup(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("named")
    shutil.copytree(EXAMPLES / "booking-skill-workspace", root / "ws")
    shutil.copytree(EXAMPLES / "booking-skill", root / "skill")
    os.mkfifo(root / "fifo")
    (root / "patterns").mkdir()
    os.mkfifo(root / "patterns" / "mine.toml")
    (root / "out").mkdir()  # --output names a folder that is there
    return {"root": root, "ws": root / "ws", "rules": root / "skill" / "booking.rules",
            "evals": root / "skill" / "evals" / "evals.json", "fifo": root / "fifo",
            "patterns": root / "patterns", "out": root / "out"}


CASES = {
    "grade --rules": "grade {ws} --rules {fifo} --check",
    "grade --evals": "grade {ws} --rules {rules} --evals {fifo} --check",
    "check": "check {fifo}",
    "suggest": "suggest {fifo}",
    "suggest --patterns": "suggest {evals} --patterns {patterns}",
    "critique --rules": "critique {ws} --rules {fifo} --check",
    "critique --evals": "critique {ws} --evals {fifo} --check",
    "validate --rules": "validate {ws} --rules {fifo} --check --no-critique",
    "aggregate --evals": "aggregate {ws} --evals {fifo} --output {out}",
    "aggregate --release-config": "aggregate {ws} --release-config {fifo} --output {out}",
    "aggregate --against": "aggregate {ws} --against {fifo} --output {out}",
    "compare --rubric": "compare {ws} --rubric {fifo} --check",
    "analyze --rubric": "analyze {ws} --rubric {fifo} --check",
    "diff": "diff {fifo} {ws}",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_fifo_named_as_an_input_is_refused_not_waited_on(setup, case, capsys):
    argv = [part.format(**{k: str(v) for k, v in setup.items()}) for part in CASES[case].split()]
    with unblocking(setup["fifo"]), unblocking(setup["patterns"] / "mine.toml"):
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert NOT_A_FILE in err or "not a file" in err, err
    assert "Traceback" not in err


def test_a_link_to_a_device_given_as_rules_is_refused_not_read(tmp_path: Path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    os.symlink("/dev/zero", tmp_path / "zero.rules")

    def bounded() -> None:  # were the device read, the child would run out of memory, not the machine
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "grade", str(EXAMPLES / "booking-skill-workspace"),
                           "--rules", str(tmp_path / "zero.rules"), "--check"],
                          capture_output=True, text=True, timeout=300, preexec_fn=bounded)
    assert done.returncode == 2, done.stderr
    assert f"cannot read rules file {tmp_path / 'zero.rules'}: {NOT_A_FILE}" in done.stderr


def test_the_reader_refuses_a_folder_and_bounds_a_file(tmp_path: Path):
    with pytest.raises(NotRegular):
        named_bytes(tmp_path)
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(TooLarge, match="101 bytes is over the 100-byte limit"):
        named_bytes(tmp_path / "big", 100)
    assert named_bytes(tmp_path / "big", 10, head=True) == b"x" * 10
    with pytest.raises(FileNotFoundError):
        read_named_text(tmp_path / "missing")


def test_a_folder_given_as_an_import_source_is_an_error_naming_it(tmp_path: Path, capsys):
    (tmp_path / "session.jsonl").mkdir()
    assert main(["import", "claude-code", str(tmp_path / "session.jsonl"), "--out", str(tmp_path / "ws")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'session.jsonl'}: {NOT_A_FILE}" in err and "Is a directory" not in err
