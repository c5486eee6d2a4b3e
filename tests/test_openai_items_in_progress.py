"""A Responses API item's ``status`` (tests/fixtures/real/openai/nemo-gym-weather, whose
reply is a ``message`` item marked ``completed``): a ``message`` still ``in_progress`` was
recorded while the model wrote it, so its words are not the whole reply and the response is
unknown (``unread-text``, at its line), as a stream cut while the model wrote is read; one
marked ``incomplete`` (the model stopped at a token limit or a filter) was shown as it is:
its words are the reply, with a warning (``incomplete``). A ``function_call`` item marked
``completed`` is read as a call; one still ``in_progress`` or ``incomplete`` (its arguments
may be cut) is not read, and the run's calls are unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "openai"
ITEMS = json.loads((REAL / "nemo-gym-weather" / "simple-agent-weather.json").read_text(encoding="utf-8"))
RULES = (REAL / "nemo-gym-weather.rules").read_text(encoding="utf-8")
ON_CALLS = ["pass", "pass", "pass", "fail", "fail"]  # the function_call item, completed, is read as a call
NOT_READ = ["error"] * 5  # a function_call item not finished is not read


def _graded(tmp_path, items: list) -> tuple[list[str], list[str]]:
    source = tmp_path / "simple-agent-weather.json"
    source.write_text(json.dumps(items, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (result,) = referee.grade(RULES, source)
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


def _reply_marked(status: str) -> list:
    return ITEMS[:2] + [ITEMS[2] | {"status": status}]


def test_the_real_reply_marked_completed_is_the_response(tmp_path):
    outcomes, problems = _graded(tmp_path, ITEMS)
    assert outcomes == ["pass", "pass", "pass"] + ON_CALLS
    assert not [p for p in problems if "unread-text" in p or "incomplete" in p]


def test_a_reply_still_in_progress_leaves_the_response_unknown_at_its_line(tmp_path):
    outcomes, problems = _graded(tmp_path, _reply_marked("in_progress"))
    assert outcomes == ["error", "error", "error"] + ON_CALLS
    (said,) = [p for p in problems if "warning[unread-text]" in p]
    assert "simple-agent-weather.json:22" in said and "in_progress" in said


def test_a_reply_in_progress_with_no_words_yet_leaves_the_response_unknown(tmp_path):
    outcomes, _ = _graded(tmp_path, ITEMS[:2] + [ITEMS[2] | {"status": "in_progress", "content": []}])
    assert outcomes == ["error", "error", "error"] + ON_CALLS


def test_a_reply_marked_incomplete_is_read_with_a_warning(tmp_path):
    outcomes, problems = _graded(tmp_path, _reply_marked("incomplete"))
    assert outcomes == ["pass", "pass", "pass"] + ON_CALLS
    (said,) = [p for p in problems if "warning[incomplete]" in p]
    assert "simple-agent-weather.json:22" in said


@pytest.mark.parametrize("status", ["in_progress", "incomplete"])
def test_a_call_item_so_marked_is_not_read(tmp_path, status):
    outcomes, problems = _graded(tmp_path, [ITEMS[0] | {"status": status}] + ITEMS[1:])
    assert outcomes == ["pass", "pass", "pass"] + NOT_READ
    assert any("calls-may-be-missing" in p for p in problems)
