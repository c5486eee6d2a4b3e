"""Inspect AI's message shape (tests/fixtures/real/openai/inspect-ai-browser): a call is
``{"id", "function": "<tool name>", "arguments": {...}}``, the name a string and the
arguments an object (or JSON text), beside Inspect's ``type``, ``view`` and ``parse_error``;
a ``tool`` message names its call by ``tool_call_id``, and one whose tool failed carries an
``error`` object (Inspect writes one for every call that failed, so an answer without one
is a success, not a status assumed). Only that shape is read so: a call with no id, a name
beside the string, or arguments of another kind stays one that cannot be read, and decides
nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = ('eval 1\nexpect 1: count(calls) == 1\nexpect 2: no calls with status error\n'
         'expect 3: first(calls).args.url == "https://www.aisi.gov.uk/"\n')
REAL = Path(__file__).parent / "fixtures" / "real" / "openai" / "inspect-ai-browser"


def _call(**beside) -> dict:
    return {"id": "call_1", "function": "web_browser_go", "arguments": {"url": "https://www.aisi.gov.uk/"}, **beside}


def _answer(**beside) -> dict:
    return {"id": "m3", "content": "[151] link \"Work\"", "role": "tool", "tool_call_id": "call_1",
            "function": "web_browser_go", **beside}


def _messages(call: dict, answer: dict) -> list[dict]:
    return [{"id": "m1", "content": "Go to https://www.aisi.gov.uk/.", "source": "input", "role": "user"},
            {"id": "m2", "content": "", "source": "generate", "role": "assistant", "tool_calls": [call],
             "model": "gpt-4o-mini-2024-07-18"},
            answer,
            {"id": "m4", "content": "The AISI studies advanced AI.", "source": "generate", "role": "assistant"}]


def _grade(tmp_path, document: object, rules: str = RULES) -> tuple[list[str], list[str]]:
    source = tmp_path / "sample.json"
    source.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = referee.grade(rules, source, as_eval="1")
    codes = sorted({p.split("warning[")[1].split("]")[0] for p in result.grading["problems"]})
    return [e["outcome"] for e in result.grading["expectations"]], codes


def test_the_real_runs_calls_are_read_with_their_names_arguments_and_answers(tmp_path):
    rules = ('eval 1\nexpect 1: exactly 4 calls\nexpect 2: exactly 3 calls to "web_browser_click"\n'
             'expect 3: first(calls).args.url == "https://www.aisi.gov.uk/"\nexpect 4: no calls with status error\n'
             'expect 5: last(calls).args.element_id == 903\n'
             'expect 6: last(calls).return contains "Our Research Agenda"\n')
    messages = json.loads((REAL / "browser-aisi-work.json").read_text(encoding="utf-8"))
    assert _grade(tmp_path, messages, rules) == (["pass"] * 6, [])


@pytest.mark.parametrize("arguments", [{"url": "https://www.aisi.gov.uk/"}, '{"url": "https://www.aisi.gov.uk/"}'],
                         ids=["an-object", "json-text"])
def test_a_call_named_by_a_string_is_read(tmp_path, arguments):
    assert _grade(tmp_path, _messages(_call(arguments=arguments), _answer())) == (["pass", "pass", "pass"], [])


def test_inspects_members_beside_the_call_are_read_as_it_writes_them(tmp_path):
    call = _call(type="function", parse_error=None, view={"title": "go", "format": "text", "content": "go"})
    assert _grade(tmp_path, _messages(call, _answer())) == (["pass", "pass", "pass"], [])


def test_an_answer_with_inspects_error_is_a_failed_call(tmp_path):
    error = {"type": "timeout", "message": "Command timed out before completing."}
    assert _grade(tmp_path, _messages(_call(), _answer(error=error))) == (["pass", "fail", "pass"], [])


def test_a_call_whose_arguments_inspect_could_not_parse_has_arguments_unknown(tmp_path):
    call = _call(parse_error="Expecting ',' delimiter: line 1 column 9")
    outcomes, codes = _grade(tmp_path, _messages(call, _answer()))
    assert outcomes == ["pass", "pass", "error"] and "bad-arguments" in codes


SHAPES = {
    "no-id": {"function": "web_browser_go", "arguments": {"url": "https://www.aisi.gov.uk/"}},
    "an-empty-name": _call(function=""),
    "a-name-beside": _call(name="web_browser_click"),
    "arguments-a-list": _call(arguments=["https://www.aisi.gov.uk/"]),
    "no-arguments": {"id": "call_1", "function": "web_browser_go"},
    "another-type": _call(type="custom"),
}


@pytest.mark.parametrize("call", SHAPES.values(), ids=SHAPES.keys())
def test_a_call_of_another_shape_is_not_read_and_decides_nothing(tmp_path, call):
    outcomes, codes = _grade(tmp_path, _messages(call, _answer()))
    assert outcomes == ["error", "error", "error"]
    assert "calls-may-be-missing" in codes
