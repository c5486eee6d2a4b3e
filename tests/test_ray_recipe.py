"""The Ray recipe of docs/scale.md, run as written on a local Ray cluster over the
bundled example: its reports are byte for byte those of a plain ``referee grade``.

Marked ``ray``: the default test command leaves it out (starting Ray takes most of a
minute); ``.ci/run`` installs ``referee[ray]`` and runs ``pytest -m ray`` as a step of
its own after the main suite."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO
from sharded import SKIP, files

pytestmark = pytest.mark.ray

DOC = (REPO / "docs" / "scale.md").read_text(encoding="utf-8")


def recipe() -> str:
    section = DOC.split("## Ray", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"^```python\n(.*?)^```$", section, flags=re.S | re.M)
    return code


def test_the_ray_recipe_writes_the_reports_of_a_plain_grade(tmp_path):
    for where in ("ray", "plain"):
        shutil.copytree(REPO / "examples", tmp_path / where / "examples", ignore=shutil.ignore_patterns(*SKIP))
    done = subprocess.run([sys.executable, "-c", recipe()], cwd=tmp_path / "ray", capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    plain = tmp_path / "plain" / "examples"
    subprocess.run([sys.executable, "-m", "referee", "grade", str(plain / "booking-skill-workspace"),
                    "--rules", str(plain / "booking-skill" / "booking.rules"),
                    "--evals", str(plain / "booking-skill" / "evals" / "evals.json")], capture_output=True)
    expected = files(plain / "booking-skill-workspace")
    assert len(expected) == 12
    assert files(tmp_path / "ray" / "examples" / "booking-skill-workspace") == expected
