"""The package type-checks clean: mypy, configured by ``[tool.mypy]`` in pyproject.toml."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO


def test_mypy_finds_no_error_in_the_package(tmp_path: Path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install '.[test]' installs it)")
    # The checkout's root is the `referee` package (pyproject's package-dir), which
    # mypy cannot find by itself: it checks a folder whose `referee` is the checkout.
    (tmp_path / "referee").symlink_to(REPO, target_is_directory=True)
    command = [sys.executable, "-m", "mypy", "-p", "referee",
               "--config-file", str(REPO / "pyproject.toml")]
    found = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert found.returncode == 0, f"mypy found errors:\n{found.stdout}{found.stderr}"
