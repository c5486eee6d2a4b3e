"""A transcript whose Args JSON escapes what a path holds (``\\u00fc`` as Python's
json.dumps writes it, ``\\/`` as PHP's does, a doubled backslash) hides no read of the
skill from ``aggregate``: the raw-text prefilter never decides a run is clean on text
it did not decode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graded_runs import write_run
from referee.engine.cli import main


def _call(args_json: str) -> str:
    return f"## [tool_calls] Step 1: Read\nTool: Read\nArgs: {args_json}\nReturn: {{}}\nStatus: success\n\n"


def _contaminated(tmp_path: Path, transcript: str, skill: str) -> list[str]:
    ws = tmp_path / "ws"
    for n in (1, 2):
        write_run(ws / "eval-1" / "with_skill" / f"run-{n}", ["pass"])
        write_run(ws / "eval-1" / "without_skill" / f"run-{n}", ["fail"], transcript=transcript if n == 2 else None)
    main(["aggregate", str(ws), "--skill-path", skill])
    doc = json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))
    return [found["path"] for found in doc["contaminated_runs"]]


@pytest.mark.parametrize("args_json, skill", [
    (json.dumps({"file_path": "/x/büro-skill/SKILL.md"}), "skills/büro-skill"),  # \u00fc
    ('{"file_path": "\\/x\\/booking-skill\\/SKILL.md"}', "/x/booking-skill/"),  # PHP's \/, the path given whole
    ('{"file_path": "/x/bookin\\u0067-skill/SKILL.md"}', "skills/booking-skill"),  # any letter may be escaped
])
def test_an_escaped_read_of_the_skill_is_contamination(tmp_path: Path, args_json: str, skill: str):
    assert _contaminated(tmp_path, _call(args_json), skill) == ["eval-1/without_skill/run-2"]
