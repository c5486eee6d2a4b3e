"""Without the shared examples beside the checkout, the tests that need them are left
out, said in one line of the summary: when the suite runs in one process, and when it
runs on several, as the README's test command runs it (pytest-xdist's ``-n``), where
the workers collect the tests and the controller prints the summary."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

_TESTS = '''import pytest


@pytest.mark.shared
def test_marked():
    pass


def test_with_the_fixture(shared_examples):
    pass


def test_plain():
    pass
'''


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "two workers"])
def test_the_tests_left_out_are_counted_in_one_line(tmp_path: Path, workers: list[str]):
    tests = tmp_path / "checkout" / "tests"  # no shared/ beside the checkout
    tests.mkdir(parents=True)
    for helper in ("conftest.py", "offline.py"):
        shutil.copy(Path(__file__).with_name(helper), tests / helper)
    (tests / "test_some.py").write_text(_TESTS, encoding="utf-8")
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers, str(tests)],
                          cwd=tests.parent, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout, done.stdout
    assert "2 tests need the shared examples, which are not beside the checkout" in done.stdout, done.stdout
