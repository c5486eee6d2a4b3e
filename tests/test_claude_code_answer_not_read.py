"""A part of a user message that names a call by ``tool_use_id`` but is of a type the
importer does not read is the answer to that call in a shape not read. It was skipped,
and the call read as never answered: on the real coverage-test-fix session, whose last
Bash call failed (``is_error: true``), ``no calls with status error`` passed once that
answer's type was one not known. Now the call's status and return are unknown (an
ERROR naming the answer's line); an answer no call takes leaves the run's calls
unknown, and a second one makes the status of the call it names unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from real_session import REAL, with_record_changed

FIXTURE = "coverage-test-fix/transcript.jsonl"
RULES = 'eval "x"\nexpect 1: no calls with status error\nexpect 2: count(calls) >= 13\n'


def _with_answer(tmp_path: Path, change) -> tuple[Path, int]:
    """The real session with its failed answer changed by ``change`` (the record's
    content and that answer, in place)."""
    def changed(record: dict) -> None:
        content = record["message"]["content"]
        change(content, next(p for p in content if p.get("is_error") is True))
    return with_record_changed(FIXTURE, tmp_path / "transcript.jsonl", '"is_error":true', changed)


def _graded(source: Path) -> tuple[list[str], list[str], list[str]]:
    grading = referee.grade(RULES, source, as_eval="x")[0].grading
    expectations = grading["expectations"]
    return [e["outcome"] for e in expectations], [e["evidence"] for e in expectations], grading["problems"]


def test_the_real_session_reads_its_failed_call_as_one():
    outcomes, _, _ = _graded(REAL / FIXTURE)
    assert outcomes == ["fail", "pass"]


def test_an_answer_of_a_type_not_read_leaves_its_call_s_status_unknown(tmp_path: Path):
    source, line = _with_answer(tmp_path, lambda _, part: part.update(type="tool_result_v2"))
    outcomes, evidence, problems = _graded(source)
    assert outcomes == ["error", "pass"]
    assert f"transcript.jsonl:{line}" in evidence[0] and "status" in evidence[0]
    assert any("status-unknown" in p and "of type 'tool_result_v2', is not read" in p for p in problems)


def test_an_answer_of_a_type_not_read_for_no_call_held_leaves_the_calls_unknown(tmp_path: Path):
    source, line = _with_answer(tmp_path, lambda _, part: part.update(type="tool_result_v2",
                                                                         tool_use_id="toolu_other"))
    outcomes, evidence, _ = _graded(source)
    assert outcomes == ["error", "pass"]  # the 13 calls read were made, whatever else was
    assert f"transcript.jsonl:{line}" in evidence[0] and "calls may be incomplete" in evidence[0]


def test_a_second_answer_of_a_type_not_read_leaves_the_status_unknown(tmp_path: Path):
    source, _ = _with_answer(tmp_path, lambda content, part: content.append({**part, "type": "tool_result_v2",
                                                                             "is_error": False}))
    outcomes, _, _ = _graded(source)
    assert outcomes == ["error", "pass"]


def test_a_record_of_a_type_not_read_holding_the_answer_leaves_its_call_s_status_unknown(tmp_path: Path):
    def retyped(record: dict) -> None:
        record["type"] = "user_v2"  # the whole record of the failed answer, of a type not known
    source, line = with_record_changed(FIXTURE, tmp_path / "transcript.jsonl", '"is_error":true', retyped)
    outcomes, evidence, _ = _graded(source)
    assert outcomes == ["error", "pass"]
    assert f"transcript.jsonl:{line}" in evidence[0]


def test_a_background_task_s_record_naming_its_call_is_no_answer():
    source = REAL / "stream-async-agent" / "claude_stream_subagent_multi_result.jsonl"
    problems = referee.grade(RULES, source, as_eval="x")[0].grading["problems"]
    assert not any("is not read: its status" in p for p in problems)


@pytest.mark.parametrize("where, value", [("message", "zz"), ("content", None), ("content", 7)])
def test_a_user_record_not_read_while_a_call_is_open_leaves_its_status_unknown(tmp_path: Path, where: str,
                                                                               value: object):
    def broken(record: dict) -> None:
        if where == "message":
            record["message"] = value
        else:
            record["message"]["content"] = value
    source, line = with_record_changed(FIXTURE, tmp_path / "transcript.jsonl", '"is_error":true', broken)
    outcomes, evidence, _ = _graded(source)
    assert outcomes == ["error", "pass"]
    assert f"transcript.jsonl:{line}" in evidence[0] and "may hold the answer" in evidence[0]


@pytest.mark.parametrize("part", [None, 7, {"type": "tool_output", "toolUseId": "toolu_x", "content": "Exit code 1",
                                             "is_error": True}])
def test_a_part_of_no_known_shape_while_a_call_is_open_leaves_its_status_unknown(tmp_path: Path, part: object):
    """An answer of a shape not known (renamed, its id under another name), or what
    stands in its place: the call it may answer has no status for certain."""
    def replaced(content: list, answer: dict) -> None:
        content[content.index(answer)] = part
    source, line = _with_answer(tmp_path, replaced)
    outcomes, evidence, _ = _graded(source)
    assert outcomes == ["error", "pass"]
    assert f"transcript.jsonl:{line}" in evidence[0] and "may hold the answer" in evidence[0]


def test_an_image_beside_the_answers_leaves_them_as_read(tmp_path: Path):
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    source, _ = _with_answer(tmp_path, lambda content, _: content.append(image))
    outcomes, _, _ = _graded(source)
    assert outcomes == ["fail", "pass"]
