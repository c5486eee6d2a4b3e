"""A Ctrl-C while a report is rendered reaches referee, never the middle of an import.

pydantic-core's encoder imports ``uuid`` on its first call; a Ctrl-C during that
import panicked the encoder (a Rust traceback, under load now and then, in
``test_write_interrupt``). Rendering a report must import nothing.
"""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
from referee.engine.report.render import render
before = set(sys.modules)
render({"expectations": [{"text": "t", "passed": True, "evidence": "x"}], "summary": {"passed": 1}})
print(sorted(set(sys.modules) - before))
"""


def test_rendering_a_report_imports_nothing():
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
