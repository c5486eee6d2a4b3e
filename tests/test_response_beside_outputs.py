"""The response is outputs/response.md (formats.md 1.2), or the file a harness names.
A run that has no outputs/response.md but a response.md in the run folder, beside
outputs/, holds an answer referee did not read: 'not response contains "SECRET"'
passed vacuously on it, with no word about the file. Which file is the response
cannot be told, so the response is unusable (a check on it is an ERROR, saying
where the file lies); naming it with --response reads it."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = """## [tool_calls] Step 1: Read
Tool: Read
Args: {"path": "a"}
Return: "ok"
Status: success
"""

RULES = 'eval 1\nexpect 1: not response contains "SECRET"\nexpect 2: no calls to "Bash"\n'


def _graded(tmp_path: Path, *extra: str, inside: str | None = None) -> dict:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "response.md").write_text("the SECRET is 42\n", encoding="utf-8")
    if inside is not None:
        (run / "outputs" / "response.md").write_text(inside, encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    main(["grade", str(tmp_path / "eval-1"), "--rules", str(tmp_path / "r.rules"), *extra])
    return json.loads((run / "grading.json").read_text(encoding="utf-8"))


def test_a_response_beside_outputs_is_no_vacuous_pass(tmp_path):
    report = _graded(tmp_path)
    first, second = report["expectations"]
    assert first["outcome"] == "error", first
    assert "response.md" in first["evidence"] and "outputs/" in first["evidence"], first
    assert second["outcome"] == "pass"
    assert [p for p in report["problems"] if p.startswith("with_skill/run-1/response.md")], report["problems"]


def test_an_empty_response_in_outputs_does_not_hide_it(tmp_path):
    report = _graded(tmp_path, inside="")
    assert report["expectations"][0]["outcome"] == "error", report["expectations"][0]


def test_the_response_in_outputs_is_the_response(tmp_path):
    report = _graded(tmp_path, inside="all done\n")
    assert report["expectations"][0]["outcome"] == "pass", report["expectations"][0]


def test_named_with_the_response_flag_it_is_read(tmp_path):
    report = _graded(tmp_path, "--response", "response.md")
    assert report["expectations"][0]["outcome"] == "fail", report["expectations"][0]
