"""Headless Chromium for the tests of the HTML report: the browser, and a page's DOM
or another output of it. A test skips, saying why, where no Chromium is installed
(.ci/run installs it)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium on PATH (Debian: apt-get install chromium); the browser test did not run")


def browse(url: str, tmp_path: Path, *extra: str, budget_ms: int = 3000) -> str:
    """What Chromium prints for ``url`` with the flags ``extra``, once the page's
    timers have had ``budget_ms`` of virtual time."""
    done = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={tmp_path / 'profile'}", f"--virtual-time-budget={budget_ms}", *extra, url],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def dump(page: Path, tmp_path: Path, fragment: str = "", budget_ms: int = 3000) -> str:
    """The DOM of the page at ``page`` (and ``fragment``) after its scripts ran."""
    return browse(page.as_uri() + fragment, tmp_path, "--dump-dom", budget_ms=budget_ms)
