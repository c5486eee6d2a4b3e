"""mini-swe-agent 2 calls its bash tool (tests/fixtures/real/openai/mini-swe-agent-2-tool-calls)
and keeps, in each assistant message's ``extra``, the provider's raw completion it came
from (``response``, as LiteLLM returns it), whose choice holds the message's calls again.
That copy is where the calls came from, not calls beside them: the run's calls are read
as the message gives them. A completion kept there that holds other calls than the
message (or calls where the message has none) is still a call this importer does not
read, and the run's calls are unknown."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import referee

TRAJECTORY = (Path(__file__).resolve().parent / "fixtures" / "real" / "openai" / "mini-swe-agent-2-tool-calls"
              / "astropy__astropy-12907.traj.json")
RULES = ('eval 1\nexpect 1: count(calls) == 4\nexpect 2: no calls where .args.command contains "pytest"\n'
         'expect 3: first(calls).args.command contains "find . -path"\n')


def _grade(tmp_path: Path, document: dict) -> tuple[list[str], set[str]]:
    source = tmp_path / "run.traj.json"
    source.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    codes = {p.split("warning[")[1].split("]")[0] for p in result.grading["problems"]}
    return [e["outcome"] for e in result.grading["expectations"]], codes


def _document() -> dict:
    return json.loads(TRAJECTORY.read_text(encoding="utf-8"))


def test_the_raw_completion_beside_each_message_is_no_call_missing(tmp_path: Path):
    outcomes, codes = _grade(tmp_path, _document())
    assert outcomes == ["pass", "pass", "pass"]
    assert "calls-may-be-missing" not in codes


def _other_call(message: dict) -> None:
    choice = message["extra"]["response"]["choices"][0]["message"]
    choice["tool_calls"] = copy.deepcopy(choice["tool_calls"]) + [
        {"index": 1, "function": {"arguments": '{"command": "pytest"}', "name": "bash"}, "id": "call_9",
         "type": "function"}]


def _call_without_message_calls(message: dict) -> None:
    message["tool_calls"] = None


def _calls_dropped(message: dict) -> None:
    message["extra"]["response"]["choices"][0]["message"]["tool_calls"][0]["function"]["name"] = "str_replace"


CHANGED = {
    "another-call-in-the-completion": _other_call,
    "calls-only-in-the-completion": _call_without_message_calls,
    "a-call-of-another-tool-in-the-completion": _calls_dropped,
}


@pytest.mark.parametrize("change", CHANGED.values(), ids=CHANGED.keys())
def test_a_completion_holding_other_calls_leaves_the_calls_unknown(tmp_path: Path, change):
    document = _document()
    change(document["messages"][2])
    outcomes, codes = _grade(tmp_path, document)
    assert "calls-may-be-missing" in codes
    assert "pass" not in outcomes[:2]


# --- the harness's exit record -----------------------------------------------------------

EXIT_RULES = ('eval 1\nexpect 1: last(calls).return contains "cright[-right.shape[0]:, -right.shape[1]:] = right"\n'
              'expect 2: exactly 3 calls with status success\n'
              'expect 3: exactly 1 harness where .text contains "separability_matrix"\n'
              'expect 4: not response contains "The patch looks correct"\n')


def _graded(tmp_path: Path, document: dict, rules: str = EXIT_RULES) -> tuple[list[str], set[str]]:
    source = tmp_path / "run.traj.json"
    source.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = referee.grade(rules, source, as_eval="1")
    codes = {p.split("warning[")[1].split("]")[0] for p in result.grading["problems"]}
    return [e["outcome"] for e in result.grading["expectations"]], codes


def test_the_exit_record_after_the_submit_command_is_its_answer(tmp_path: Path):
    # the harness submits only when the command exits with 0 and prints the line first: the
    # record's content is the rest of its output; no reply follows (the answer is the patch)
    outcomes, codes = _graded(tmp_path, _document())
    assert outcomes == ["pass", "pass", "pass", "error"]
    assert codes == {"no-reply", "unreadable"}


def test_a_record_of_a_limit_reached_is_the_harness_s_text(tmp_path: Path):
    document = _document()
    document["messages"][-2:] = [{"role": "exit", "content": "LimitsExceeded",
                                  "extra": {"exit_status": "LimitsExceeded", "submission": ""}}]
    rules = ('eval 1\nexpect 1: exactly 1 harness where .text contains "LimitsExceeded"\n'
             'expect 2: count(calls) == 3\nexpect 3: not response contains "patch"\n')
    outcomes, codes = _graded(tmp_path, document, rules)
    assert outcomes == ["pass", "pass", "error"]  # the run ends on a tool's answer: no reply
    assert codes == {"no-reply", "unreadable"}


def test_a_call_open_at_another_record_has_an_answer_not_read(tmp_path: Path):
    # the record of an error while a command ran: whether it is that command's answer is not said
    document = _document()
    document["messages"][-1] = {"role": "exit", "content": "RuntimeError: the container stopped",
                                "extra": {"exit_status": "RuntimeError", "submission": ""}}
    rules = 'eval 1\nexpect 1: exactly 1 calls with status error\nexpect 2: count(calls) == 4\n'
    outcomes, codes = _graded(tmp_path, document, rules)
    assert outcomes == ["error", "pass"]
    assert "status-unknown" in codes


UNREAD = {
    "no-extra": {"role": "exit", "content": "diff"},
    "no-exit-status": {"role": "exit", "content": "diff", "extra": {"submission": "diff"}},
    "content-not-text": {"role": "exit", "content": {"text": "diff"}, "extra": {"exit_status": "Submitted"}},
}


@pytest.mark.parametrize("record", UNREAD.values(), ids=UNREAD.keys())
def test_an_element_of_role_exit_in_another_shape_is_not_read(tmp_path: Path, record: dict):
    document = _document()
    document["messages"][-1] = record
    outcomes, codes = _graded(tmp_path, document)
    assert {"unknown-message", "status-unknown"} <= codes
    assert outcomes[0] == "error"


@pytest.mark.parametrize("member", ["tool_calls", "function_call"])
def test_an_exit_record_that_holds_a_call_is_no_exit_record(tmp_path: Path, member: str):
    # read as the harness's exit record, the call beside its content was dropped without a
    # word, and a negative check over the calls passed
    document = _document()
    call = {"name": "bash", "arguments": '{"command": "rm -rf /"}'}
    document["messages"][-1][member] = [{"id": "call_x", "type": "function", "function": call}] \
        if member == "tool_calls" else call
    rules = 'eval 1\nexpect 1: no calls where .args.command contains "rm -rf"\n'
    outcomes, codes = _graded(tmp_path, document, rules)
    assert outcomes == ["error"] and {"unknown-message", "calls-may-be-missing"} <= codes


def test_a_call_made_beside_the_submit_command_has_an_answer_not_read(tmp_path: Path):
    # parallel calls: mini-swe-agent runs them in order and ends the run at the submit
    # command, writing no answer for the calls of that message: what the other one returned is
    # not in the record, though the record answers the submit command
    document = _document()
    submit = document["messages"][-2]
    other = copy.deepcopy(submit["tool_calls"][0])
    other.update(id="call_01", index=1)
    other["function"]["arguments"] = json.dumps({"command": "git status"})
    submit["tool_calls"] = [other, submit["tool_calls"][0]]
    del submit["extra"]["response"]
    rules = ('eval 1\nexpect 1: count(calls) == 5\nexpect 2: exactly 1 calls with status error\n'
             'expect 3: last(calls).return contains "cright[-right.shape[0]:, -right.shape[1]:] = right"\n')
    outcomes, codes = _graded(tmp_path, document, rules)
    assert outcomes == ["pass", "error", "pass"]
    assert "status-unknown" in codes
