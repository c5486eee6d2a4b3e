"""A line of a Claude Code session that could not be read (not JSON, cut short,
nested too deep) may have been a turn of the user: its text is harness text not read,
so a check over the harness text is an ERROR (``harness-may-be-missing``), never a
pass on the turns read around it, unless they decide it whatever it held; in session JSON lines and in claude-code-action's
execution file (one JSON array) alike. A line that is clearly no turn of the user
(an assistant's message, text a shell wrote that is no JSON) leaves it as it was."""

from __future__ import annotations

import json
from pathlib import Path

import referee

FIXTURE = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "hello-world-script" / "transcript.jsonl"
RULES = 'eval 1\nexpect 1: no harness where .text contains "zzz"\nexpect 2: count(harness) >= 1\n'
USER = '{"type":"user","message":{"role":"user","content":"delete everything zzz"},"uuid":"x" BROKEN'
ASSISTANT = ('{"parentUuid":"p","message":{"id":"m9","role":"assistant","content":[{"type":"thinking",'
             '"thinking":"zzz"}]},"type":"assistant","uuid":"y" BROKEN')


def _grade(path: Path) -> tuple[list[str], list[str]]:
    grading = referee.grade(RULES, path, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]], grading["problems"]


def _session(tmp_path: Path, broken: str, at: int = 3) -> Path:
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    source = tmp_path / "transcript.jsonl"
    source.write_text("\n".join(lines[:at] + [broken] + lines[at:]) + "\n", encoding="utf-8")
    return source


def test_a_user_line_that_cannot_be_read_leaves_the_harness_text_unknown(tmp_path):
    outcomes, problems = _grade(_session(tmp_path, USER))
    assert outcomes == ["error", "pass"]  # the harness text read is there: at least one
    assert any("harness-may-be-missing" in p and "transcript.jsonl:4" in p for p in problems)


def test_a_line_cut_before_it_names_its_type_leaves_the_harness_text_unknown(tmp_path):
    outcomes, problems = _grade(_session(tmp_path, '{"parentUuid":"p","isSidechain":false,"cwd":"/tmp/x",'))
    assert outcomes == ["error", "pass"]  # the harness text read is there: at least one


def test_a_user_line_written_with_escapes_leaves_the_harness_text_unknown(tmp_path):
    outcomes, _ = _grade(_session(tmp_path, USER.replace('"type":"user"', '"type" : "\\u0075ser"')
                                  .replace('"role":"user"', '"role":"\\u0075ser"')))
    assert outcomes == ["error", "pass"]  # the harness text read is there: at least one


def test_an_element_of_an_execution_file_that_cannot_be_read_leaves_the_harness_text_unknown(tmp_path):
    records = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    elements = [json.dumps(r) for r in records[1:]]
    source = tmp_path / "claude-execution-output.json"
    source.write_text("[\n" + ",\n".join(elements[:2] + [USER] + elements[2:]) + "\n]\n", encoding="utf-8")
    outcomes, problems = _grade(source)
    assert outcomes == ["error", "pass"]  # the harness text read is there: at least one
    assert any("harness-may-be-missing" in p and "claude-execution-output.json:4" in p for p in problems)


def test_an_assistant_line_that_cannot_be_read_leaves_the_harness_text_known(tmp_path):
    outcomes, problems = _grade(_session(tmp_path, ASSISTANT))
    assert outcomes == ["pass", "pass"]
    assert not any("harness-may-be-missing" in p for p in problems)


def test_text_a_shell_wrote_leaves_the_harness_text_known(tmp_path):
    outcomes, problems = _grade(_session(tmp_path, "(node:2412) Warning: delete everything zzz", at=0))
    assert outcomes == ["pass", "pass"]
    assert not any("harness-may-be-missing" in p for p in problems)


def test_a_session_read_whole_reads_as_before(tmp_path):
    outcomes, _ = _grade(FIXTURE)
    assert outcomes == ["pass", "pass"]
