"""What ``claude -p --output-format stream-json`` prints, left in a run's ``outputs/``
under the name a shell gave it (``claude.ndjson``, ``claude.log``, ``output.txt``), is
a Claude Code log nobody imported, as ``claude.jsonl`` is: grading says so
(``unimported-transcript``) and a check over the run's calls or missing response is
an ERROR, never a pass on nothing. Text of another kind there is no log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from rm_stream import RULES, records

RECORDS = records("s-12")


def _outputs(tmp_path: Path) -> Path:
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    return outputs


@pytest.mark.parametrize("name", ["claude.ndjson", "claude.log", "output.txt"])
def test_a_log_left_in_outputs_never_lets_a_check_pass(tmp_path: Path, name):
    (_outputs(tmp_path) / name).write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert f"{name} looks like a claude-code log" in result.expectations[1]["evidence"]


def test_other_text_there_is_no_log(tmp_path: Path):
    outputs = _outputs(tmp_path)
    (outputs / "notes.txt").write_text("The build was cleaned.\n", encoding="utf-8")
    (outputs / "response.md").write_text("Cleaned the build.\n", encoding="utf-8")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert "looks like" not in result.expectations[1]["evidence"]
    assert result.expectations[1]["outcome"] == "pass"
