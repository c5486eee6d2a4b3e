"""JSON lines of one message per line mark no end: a file cut between two lines (a log
copied while the agent works, written one message at a time) reads as a conversation
that ends there. Where the agent is at work at that line (its last step a call, or a
tool's answer no assistant message follows), the calls made after it are not in the
file: every check over the run's calls is an ERROR (``calls-may-be-missing``), never a
pass on the calls read, as for a Claude Code session log that ends so. A JSON document
marks its end (its closing bracket), so one that ends so holds all its calls (a run
stopped at its step limit); and a cut where the agent has replied reads as a
conversation that ended there.

Built on the real LangGraph run (``fixtures/real/openai/langgraph-weather``), its
messages written one per line: two questions, each answered after one
``_find_weather`` call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

REAL = Path(__file__).parent / "fixtures" / "real" / "openai" / "langgraph-weather" / "weather_sf_and_nyc.json"
MESSAGES = json.loads(REAL.read_text(encoding="utf-8"))
RULES = ('eval 1\nexpect 1: count(calls) <= 1\nexpect 2: no calls to "_find_weather"\n'
         'expect 3: count(calls to "_find_weather") == 1\n')


def _grade(tmp_path: Path, messages: list, name: str = "chat.jsonl") -> list[str]:
    source = tmp_path / name
    text = json.dumps(messages) if name.endswith(".json") else "".join(json.dumps(m) + "\n" for m in messages)
    source.write_text(text, encoding="utf-8")
    result, = referee.grade(RULES, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def test_the_whole_file_fails_the_negative_checks(tmp_path: Path):
    assert _grade(tmp_path, MESSAGES) == ["fail", "fail", "fail"]


# The calls read decide what they decide whatever follows them: one _find_weather call
# fails 'no calls to "_find_weather"', two fail all three, as the whole file does.
@pytest.mark.parametrize("lines, want", [(2, ["error", "fail", "error"]), (3, ["error", "fail", "error"]),
                                         (6, ["fail"] * 3), (7, ["fail"] * 3)],
                         ids=["after-the-first-call", "after-its-answer", "after-the-second-call", "after-its-answer-2"])
def test_lines_cut_with_the_agent_at_work_leave_the_calls_unknown(tmp_path: Path, lines: int, want: list[str]):
    assert _grade(tmp_path, MESSAGES[:lines]) == want


@pytest.mark.parametrize("lines", [4, 5])
def test_lines_cut_where_the_agent_is_not_at_work_read_as_a_conversation_that_ended(tmp_path: Path, lines: int):
    assert _grade(tmp_path, MESSAGES[:lines]) == ["pass", "fail", "pass"]


def test_a_document_that_ends_with_the_agent_at_work_holds_all_its_calls(tmp_path: Path):
    assert _grade(tmp_path, MESSAGES[:3], "chat.json") == ["pass", "fail", "pass"]
