"""A run whose answer sits in ``outputs/`` under another name than ``response.md``.

Harnesses save the agent's text answer as ``outputs/response.txt`` (one documented
layout: "the agent's text response to <run>/outputs/response.txt"), or as
``outputs/Response.md``, or with a word before it (``outputs/actual_response.md``,
one real harness's name for the baseline's answer). Nothing named the response and there was no
``outputs/response.md``, so the response was missing, and 'not response contains
"SECRET"' passed (vacuously) on a run whose response.txt says SECRET. Such a file
may be the response: a check on the response is now an ERROR naming it, and
``--response outputs/response.txt`` reads it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from referee.engine.run.discovery import discover

RULES = 'eval 1\nexpect "no secret": not response contains "SECRET"\n'


def _run(tmp_path: Path, name: str, text: str = "The SECRET is here\n") -> Path:
    outputs = tmp_path / "ws" / "iteration-1" / "eval-1" / "with_skill" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / name).write_text(text, encoding="utf-8")
    return tmp_path / "ws"


def _verdict(workspace: Path, response: str | None = None) -> tuple[str, str]:
    (result,) = referee.grade(RULES, workspace, response=response) if response else referee.grade(RULES, workspace)
    (item,) = result.expectations
    return item["outcome"], item["evidence"]


@pytest.mark.parametrize("name", ["response.txt", "response.json", "Response.md", "RESPONSE.MD",
                                  "actual_response.md", "final-response.txt", "Agent Response.md",
                                  # saved in parts, or again: each part may hold what a check looks for
                                  "response-part1.md", "response_2.md", "response (1).md", "response1.md",
                                  "final_answer_part_2.txt", "reply copy.md"])
def test_a_check_on_the_response_is_an_error(tmp_path: Path, name: str):
    status, message = _verdict(_run(tmp_path, name))
    assert status == "error" and f"outputs/{name}" in message and "--response" in message


def test_an_empty_response_md_beside_it_does_not_hide_it(tmp_path: Path):
    workspace = _run(tmp_path, "response.txt")
    (workspace / "iteration-1" / "eval-1" / "with_skill" / "outputs" / "response.md").write_text("", encoding="utf-8")
    assert _verdict(workspace)[0] == "error"


def test_named_it_is_read(tmp_path: Path):
    assert _verdict(_run(tmp_path, "response.txt"), "outputs/response.txt")[0] == "fail"


def test_a_response_md_is_the_response_whatever_lies_beside_it(tmp_path: Path):
    workspace = _run(tmp_path, "response.txt")
    (workspace / "iteration-1" / "eval-1" / "with_skill" / "outputs" / "response.md").write_text("fine\n",
                                                                                               encoding="utf-8")
    assert _verdict(workspace)[0] == "pass"


@pytest.mark.parametrize("name", ["responses.txt", "report.md", "sub/response.txt", "response_schema.json",
                                  "irresponse.md"])
def test_other_files_leave_the_response_missing(tmp_path: Path, name: str):
    outputs = tmp_path / "ws" / "eval-1" / "with_skill" / "outputs"
    (outputs / name).parent.mkdir(parents=True, exist_ok=True)
    (outputs / name).write_text("SECRET\n", encoding="utf-8")
    (run,) = discover(tmp_path / "ws").runs
    assert run.response is None
