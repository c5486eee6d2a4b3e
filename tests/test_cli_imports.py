"""``referee --help`` loads the command line and nothing of the engine behind it.

Every subcommand's parser is built for ``--help``; a command module that imported
the grader, the report models (pydantic) or the rules parser (lark) at its top
would make every call of ``referee`` pay for them. What is imported is checked
here, in a fresh interpreter; how long it takes is a benchmark's business.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("pydantic", "pydantic_core", "lark", "regex", "jsonpath_ng", "referee.engine.grade",
         "referee.engine.compile", "referee.dsl.parser", "referee.engine.report.models")

PROBE = """
import contextlib, io, json, sys
from referee.engine.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("argv", [["--help"], ["grade", "--help"], ["check", "--help"], ["--version"]])
def test_help_imports_nothing_heavy(argv):
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=REPO, capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "referee.engine.cli" in loaded
    assert sorted(name for name in HEAVY if name in loaded) == []
