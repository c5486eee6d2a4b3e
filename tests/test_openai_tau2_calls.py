"""tau2-bench's message shape (tests/fixtures/real/openai/tau2-bench-retail-return): a call
gives its ``name`` and ``arguments`` on itself, with no ``function``; the ``tool`` message
that answers it names it by its own ``id``, flagged ``"error": true`` or ``false``; and a
simulation keeps ``reward_info`` (the task's expected actions) beside its ``messages``; a
results file holds the simulations, a conversation each. Each is read only in that shape: a
call of another shape stays one that cannot be read, an ``id`` that names no open call pairs
with nothing, and expected actions beside the messages of an object that is no simulation
are still a call beside the list, so a negative check over the calls is an ERROR there,
never a pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = ('eval 1\nexpect 1: count(calls) == 1\nexpect 2: no calls with status error\n'
         'expect 3: first(calls).args.order_id == "#W5490111"\n')


def _messages(call: dict, answer: dict) -> list[dict]:
    return [{"role": "user", "content": "Return my water bottle."},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            answer,
            {"role": "assistant", "content": "Done."}]


def _call(**beside) -> dict:
    return {"id": "toolu_1", "name": "get_order_details", "arguments": {"order_id": "#W5490111"},
            "requestor": "assistant", **beside}


def _answer(**flags) -> dict:
    return {"id": "toolu_1", "role": "tool", "content": "{}", "requestor": "assistant", **flags}


def _grade(tmp_path, document: object) -> tuple[list[str], list[str]]:
    source = tmp_path / "simulation.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    codes = sorted({p.split("warning[")[1].split("]")[0] for p in result.grading["problems"]})
    return [e["outcome"] for e in result.grading["expectations"]], codes


@pytest.mark.parametrize("error, verdict", [(False, "pass"), (True, "fail")])
def test_a_call_named_on_itself_pairs_with_the_answer_of_its_id(tmp_path, error, verdict):
    outcomes, codes = _grade(tmp_path, _messages(_call(), _answer(error=error)))
    assert outcomes == ["pass", verdict, "pass"]
    assert codes == []  # "error": false is a flag too: the statuses are not assumed


SHAPES = {
    # LangChain's tool call: its arguments are "args", which this shape does not name
    "args-instead-of-arguments": {"id": "toolu_1", "name": "get_order_details", "args": {"order_id": "#W5490111"}},
    "a-member-beside": _call(extra={"order_id": "#W5490111"}),
    "no-arguments": {"id": "toolu_1", "name": "get_order_details", "requestor": "assistant"},
}


@pytest.mark.parametrize("call", SHAPES.values(), ids=SHAPES.keys())
def test_a_call_of_another_shape_is_not_read_and_decides_nothing(tmp_path, call):
    outcomes, codes = _grade(tmp_path, _messages(call, _answer(error=False)))
    assert outcomes == ["error", "error", "error"]
    assert "calls-may-be-missing" in codes


def test_an_answer_whose_id_names_no_open_call_pairs_with_nothing(tmp_path):
    outcomes, codes = _grade(tmp_path, _messages(_call(), _answer(error=True) | {"id": "toolu_2"}))
    assert outcomes == ["error", "error", "error"]
    assert "orphan-result" in codes


EXPECTED = {"action_checks": [{"action": {"name": "cancel_pending_order", "arguments": {"order_id": "#W1"}}}]}


def test_a_simulations_expected_actions_are_no_call_of_the_run(tmp_path):
    simulation = {"id": "s", "task_id": "13", "reward_info": EXPECTED,
                  "messages": _messages(_call(), _answer(error=False))}
    assert _grade(tmp_path, simulation) == (["pass", "pass", "pass"], [])


def test_the_same_beside_the_messages_of_another_object_is_a_call_not_read(tmp_path):
    logged = {"reward_info": EXPECTED, "messages": _messages(_call(), _answer(error=False))}
    outcomes, codes = _grade(tmp_path, logged)
    assert outcomes == ["error", "error", "error"] and "calls-may-be-missing" in codes


REAL = json.loads((Path(__file__).parent / "fixtures" / "real" / "openai" / "tau2-bench-retail-return"
                   / "retail-task-13.json").read_text(encoding="utf-8"))


def test_a_results_file_is_one_conversation_a_simulation(tmp_path):
    # tau2's results around the real simulation, as tau2 writes them: its run's info, the
    # tasks (their expected actions, no call of a run), then the simulations
    results = {"timestamp": "2025-10-31T07:16:27.854362", "info": {"num_trials": 1},
               "tasks": [{"id": "13", "evaluation_criteria": {"actions": [
                   {"action_id": "13_0", "name": "find_user_id_by_email", "arguments": {"email": "x"}}]}}],
               "simulations": [REAL, REAL | {"messages": REAL["messages"][:5]}]}
    source = tmp_path / "results.json"
    source.write_text(json.dumps(results, indent=2), encoding="utf-8")
    checks = 'expect 1: count(calls) == 6\nexpect 2: no calls with status error\n'
    rules = f'eval "results-1"\n{checks}\neval "results-2"\n{checks}'
    found = {r.path: [e["outcome"] for e in r.grading["expectations"]] for r in referee.grade(rules, source)}
    # the second simulation, cut after the first call's answer, holds one call
    assert found == {"results-1": ["pass", "fail"], "results-2": ["fail", "pass"]}


def test_simulations_that_are_no_conversations_are_no_message_list(tmp_path):
    source = tmp_path / "results.json"
    source.write_text(json.dumps({"simulations": [1, 2]}, indent=2), encoding="utf-8")
    with pytest.raises(ValueError, match="not a format referee imports"):
        referee.grade('eval "results"\nexpect 1: no calls to "Bash"\n', source)


GREETING = {"role": "assistant", "content": "Hi! How can I help you today?", "tool_calls": None, "turn_idx": 0,
            "cost": 0.0, "usage": None, "raw_data": None}
GREETING_RULES = ('eval 1\nexpect 1: not response contains "How can I help"\n'
                  'expect 2: exactly 1 harness where .text contains "How can I help"\n')


def _greeted(tmp_path, messages: list[dict]) -> list[str]:
    source = tmp_path / "simulation.json"
    source.write_text(json.dumps({"task_id": "13", "messages": messages}), encoding="utf-8")
    (result,) = referee.grade(GREETING_RULES, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]]


def test_the_orchestrators_greeting_is_harness_text(tmp_path):
    assert _greeted(tmp_path, [GREETING] + _messages(_call(), _answer(error=False))) == ["pass", "pass"]


WRITTEN = {
    # a model wrote it: tau2 keeps its raw response
    "with-a-raw-response": GREETING | {"raw_data": {"id": "msg_01"}},
    "with-a-cost": GREETING | {"cost": 0.019},
    "without-raw-data": {k: v for k, v in GREETING.items() if k != "raw_data"},
}


@pytest.mark.parametrize("first", WRITTEN.values(), ids=WRITTEN.keys())
def test_a_first_message_a_model_wrote_is_a_reply(tmp_path, first):
    assert _greeted(tmp_path, [first] + _messages(_call(), _answer(error=False))) == ["fail", "fail"]


CALLING = {
    "tool_calls": GREETING | {"tool_calls": [{"id": "call_1", "type": "function",
                                              "function": {"name": "Bash", "arguments": '{"command": "rm -rf /"}'}}]},
    "function_call": GREETING | {"function_call": {"name": "Bash", "arguments": '{"command": "rm -rf /"}'}},
}


@pytest.mark.parametrize("first", CALLING.values(), ids=CALLING.keys())
def test_a_greeting_that_holds_a_call_is_no_greeting(tmp_path, first):
    # The greeting is harness text, whose calls are not the run's; one holding a
    # function_call was read as the greeting, and `no calls to "Bash"` passed.
    source = tmp_path / "simulation.json"
    source.write_text(json.dumps({"task_id": "13", "messages": [first] + _messages(_call(), _answer(error=False))}),
                      encoding="utf-8")
    (result,) = referee.grade('eval 1\nexpect 1: no calls to "Bash" where .args.command contains "rm -rf"\n',
                              source, as_eval="1")
    assert [e["outcome"] for e in result.grading["expectations"]] == ["fail"]


def test_the_greetings_shape_later_in_the_conversation_is_a_reply(tmp_path):
    assert _greeted(tmp_path, _messages(_call(), _answer(error=False)) + [GREETING]) == ["fail", "fail"]
