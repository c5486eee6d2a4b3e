"""``python -m referee`` is the ``referee`` command."""

import subprocess
import sys

from referee.engine import __version__


def test_python_dash_m_runs_the_command():
    done = subprocess.run([sys.executable, "-m", "referee", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"referee {__version__}")


def test_python_dash_m_exits_with_the_commands_code():
    done = subprocess.run([sys.executable, "-m", "referee", "grade"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "usage: referee grade" in done.stderr
