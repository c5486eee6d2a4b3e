"""A Claude Code log left in a folder of a run's ``outputs/`` (``outputs/logs/claude.jsonl``,
where a harness that keeps its logs apart saves them) is a log nobody imported, as one
at the top of ``outputs/`` is: grading says so (``unimported-transcript``) and a check
over the run's calls or missing response is an ERROR, never a pass on nothing. The
folders are looked into a few levels deep, shallow ones first, and a bounded number of
files is read; other files there are no log."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from rm_stream import RULES, records

RECORDS = records("s-14")


def _outputs(tmp_path: Path) -> Path:
    outputs = tmp_path / "ws" / "eval-1" / "cfg" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    return outputs


def _log(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")


def test_a_log_in_a_folder_of_outputs_never_lets_a_check_pass(tmp_path: Path):
    _log(_outputs(tmp_path) / "logs" / "claude.jsonl")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]
    assert "outputs/logs/claude.jsonl looks like a claude-code log" in result.expectations[1]["evidence"]


def test_a_log_is_found_past_a_folder_of_many_other_files(tmp_path: Path):
    outputs = _outputs(tmp_path)
    for k in range(300):  # a folder whose name comes first, full of JSON that is no log
        (outputs / "a-data" / f"{k:03}").mkdir(parents=True)
        (outputs / "a-data" / f"{k:03}" / "row.json").write_text('{"id": 1}\n', encoding="utf-8")
    _log(outputs / "logs" / "claude.jsonl")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert [item["outcome"] for item in result.expectations] == ["error", "error"]


def test_other_files_in_folders_of_outputs_are_no_log(tmp_path: Path):
    outputs = _outputs(tmp_path)
    (outputs / "data").mkdir()
    (outputs / "data" / "rows.json").write_text('[{"id": 1}]\n', encoding="utf-8")
    (outputs / "data" / "notes.txt").write_text("The build was cleaned.\n", encoding="utf-8")
    (outputs / "response.md").write_text("Cleaned the build.\n", encoding="utf-8")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert "looks like" not in result.expectations[1]["evidence"]
    assert result.expectations[1]["outcome"] == "pass"


def test_a_linked_folder_is_not_followed(tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    _log(elsewhere / "claude.jsonl")
    outputs = _outputs(tmp_path)
    (outputs / "logs").symlink_to(elsewhere, target_is_directory=True)
    (outputs / "response.md").write_text("Cleaned the build.\n", encoding="utf-8")
    (result,) = referee.grade(RULES, tmp_path / "ws")
    assert "looks like" not in result.expectations[1]["evidence"]
