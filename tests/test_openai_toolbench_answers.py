"""A tool's answer in ToolBench's shape: the text of ``{"error": "...", "response": ...}``,
as its RapidAPI server answers every call (and StableToolBench's does), often cut by
ToolBench after its first characters (``...``, the JSON left open). Its ``error`` is
the tool's own flag: text there says the call failed, an empty string that it did not.
It is read from the text's start, so an answer cut short says it as well (one cut
before its error ends says neither: the status is unknown). An object of other
members, or an ``error`` that is no string, says nothing by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: no calls with status error\n'
         'expect 2: all calls to "news_for_seo_api" have .status == "success"\n')


def _run(answer: str) -> list[dict]:
    call = {"name": "news_for_seo_api", "arguments": '{\n  "query": "iPhone 14"\n}'}
    return [{"role": "user", "content": "news on the iPhone 14"},
            {"role": "assistant", "content": None, "function_call": call},
            {"role": "function", "name": "news_for_seo_api", "content": answer},
            {"role": "assistant", "content": "No news found."}]


def _grade(tmp_path: Path, answer: str) -> tuple[list[str], bool]:
    """The outcomes, and whether the run says its statuses were assumed."""
    verdicts, problems = graded(RULES, json_file(tmp_path / "chain.json", _run(answer)))
    return verdicts, any("warning[statuses-assumed]" in problem for problem in problems)


def test_an_answer_whose_error_holds_text_is_an_error(tmp_path: Path):
    answer = json.dumps({"error": "Message error...", "response": "{'feed': {}, 'entries': []}"})
    assert _grade(tmp_path, answer) == (["fail", "fail"], False)


def test_an_answer_whose_error_is_empty_is_a_success_the_tool_said(tmp_path: Path):
    answer = json.dumps({"error": "", "response": "{'ads': [], 'results': []}"})
    assert _grade(tmp_path, answer) == (["pass", "pass"], False)


@pytest.mark.parametrize("error, verdict", [("request invalid, data error. status_code=500", "fail"), ("", "pass")])
def test_an_answer_cut_short_says_it_by_its_start(tmp_path: Path, error: str, verdict: str):
    answer = json.dumps({"error": error, "response": "{'products': [{'title': 'Apple iPhone 14 Pro'}]}"})[:-20] + "..."
    with pytest.raises(json.JSONDecodeError):
        json.loads(answer)
    assert _grade(tmp_path, answer) == ([verdict, verdict], False)


def test_an_answer_cut_before_its_error_ends_leaves_the_status_unknown(tmp_path: Path):
    answer = json.dumps({"error": "request invalid, data error. status_code=500", "response": ""})[:30] + "..."
    assert _grade(tmp_path, answer) == (["error", "error"], False)


@pytest.mark.parametrize("answer", [
    json.dumps({"error": "not found", "response": "", "code": 404}),  # members of another shape
    json.dumps({"error": None, "response": "ok"}),  # an error that is no string
    json.dumps({"response": "ok", "data": {"error": "x"}}),
    'Error: {"error": "x", "response": ""}',
])
def test_an_answer_of_another_shape_says_nothing_by_it(tmp_path: Path, answer: str):
    assert _grade(tmp_path, answer) == (["pass", "pass"], True)
