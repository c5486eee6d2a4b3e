"""tau2-bench's message shape (tests/fixtures/real/openai/tau2-bench-retail-return): a call
gives its ``name`` and ``arguments`` on itself, with no ``function``; the ``tool`` message
that answers it names it by its own ``id``, flagged ``"error": true`` or ``false``; and a
simulation keeps ``reward_info`` (the task's expected actions) beside its ``messages``.
Each is read only in that shape: a call of another shape stays one that cannot be read, an
``id`` that names no open call pairs with nothing, and expected actions beside the messages
of an object that is no simulation are still a call beside the list, so a negative check
over the calls is an ERROR there, never a pass."""

from __future__ import annotations

import json

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
