"""The installed package and its console script work from outside the checkout.

The test command installs the project before it runs the tests; this test runs
that installed ``referee`` from an empty folder, with the checkout off the import
path, so the grammar must come from the package data of the installed copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import REPO


def _installed_script() -> Path:
    found = shutil.which("referee") or str(Path(sysconfig.get_path("scripts")) / "referee")
    if not Path(found).is_file():
        pytest.skip("referee is not installed: run `python -m pip install .` first")
    return Path(found)


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _editable(tmp_path: Path) -> bool:
    """Whether referee is installed with ``pip install -e`` (PEP 610's direct_url.json).

    Asked from outside the checkout: a build's ``referee.egg-info`` in it would answer instead.
    """
    code = ("from importlib.metadata import distribution; "
            "print(distribution('referee').read_text('direct_url.json') or '{}')")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_clean_env(),
                         capture_output=True, text=True, check=True)
    return bool(json.loads(out.stdout).get("dir_info", {}).get("editable"))


def test_installed_copy_is_current(tmp_path: Path) -> None:
    code = "import importlib.resources as r; print(r.files('referee.grammars').joinpath('referee.lark'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_clean_env(),
                         capture_output=True, text=True, check=True)
    installed = Path(out.stdout.strip())
    if _editable(tmp_path):
        # An editable install maps the package onto this checkout (or a link tree of it).
        assert installed.resolve() == (REPO / "grammars" / "referee.lark").resolve()
        return
    assert REPO not in installed.parents, "the grammar was found in the checkout, not the package"
    assert installed.read_text(encoding="utf-8") == (REPO / "grammars" / "referee.lark").read_text(
        encoding="utf-8"), "the installed copy is stale: run `python -m pip install .` again"


def test_console_script_checks_rules(tmp_path: Path) -> None:
    rules = REPO / "rules" / "expense-draft.rules"
    out = subprocess.run([str(_installed_script()), "check", str(rules)], cwd=tmp_path,
                         env=_clean_env(), capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("ok:"), out.stdout


def test_console_script_reports_bad_rules(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_text('eval 1\nexpect 1: cuont(calls) == 1\n', encoding="utf-8")
    out = subprocess.run([str(_installed_script()), "check", str(bad)], cwd=tmp_path,
                         env=_clean_env(), capture_output=True, text=True)
    assert out.returncode == 1
    assert "error[unknown-function]" in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
