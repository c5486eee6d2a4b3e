"""How a tau2-bench simulation ended (its ``termination_reason``, beside its messages), on the
real simulation of tests/fixtures/real/openai/tau2-bench-retail-return: ``user_stop`` and
``agent_stop`` end a conversation as it was meant to end; any other reason (``max_steps``,
``too_many_errors``, ``agent_error``, ``user_error``, a timeout) is tau2 stopping it before
the agent finished, so its last words are no final reply: the response is unknown
(``run-error``, at the reason's line), as a Claude Code run whose result names an error is
read. The calls are all the run made, each with the answer it got, whatever the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

REAL = json.loads((Path(__file__).parent / "fixtures" / "real" / "openai" / "tau2-bench-retail-return"
                   / "retail-task-13.json").read_text(encoding="utf-8"))
RULES = ('eval 1\nexpect 1: count(calls) == 6\nexpect 2: exactly 1 calls with status error\n'
         'expect 3: response contains "Your return has been successfully processed"\n')


def _ended(reason: str | None, through: int) -> dict:
    """The real simulation, its messages kept through index ``through``, ended for ``reason``."""
    return REAL | {"termination_reason": reason, "messages": REAL["messages"][:through + 1]}


def _graded(tmp_path, document: object, rules: str = RULES) -> tuple[list[str], list[str]]:
    source = tmp_path / "simulation.json"
    source.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (result,) = referee.grade(rules, source, as_eval="1")
    return [e["outcome"] for e in result.grading["expectations"]], result.grading["problems"]


@pytest.mark.parametrize("reason", ["max_steps", "too_many_errors", "agent_error", "user_error", "timeout"])
def test_a_run_tau2_stopped_after_a_reply_has_no_final_reply(tmp_path, reason):
    # the agent's reply that the return was processed, then tau2 stopped the simulation
    outcomes, problems = _graded(tmp_path, _ended(reason, 21))
    assert outcomes == ["pass", "pass", "error"]
    (said,) = [p for p in problems if "warning[run-error]" in p]
    assert said.startswith("simulation.json:8:") and repr(reason) in said


@pytest.mark.parametrize("reason", ["user_stop", "agent_stop", None])
def test_a_run_that_ended_as_meant_keeps_its_reply(tmp_path, reason):
    outcomes, problems = _graded(tmp_path, _ended(reason, 21))
    assert outcomes == ["pass", "pass", "pass"]
    assert not [p for p in problems if "run-error" in p]


def test_the_real_run_the_user_stopped_is_read_as_before(tmp_path):
    outcomes, problems = _graded(tmp_path, REAL)
    assert outcomes == ["pass", "pass", "pass"] and problems == []


@pytest.mark.parametrize("through", [20, 22], ids=["after-a-tools-answer", "after-a-users-turn"])
def test_a_run_stopped_at_its_step_limit_mid_work_has_its_calls_and_no_reply(tmp_path, through):
    outcomes, problems = _graded(tmp_path, _ended("max_steps", through))
    assert outcomes == ["pass", "pass", "error"]
    assert any("warning[no-reply]" in p for p in problems)


def test_a_results_files_simulation_cites_its_own_reason(tmp_path):
    results = {"timestamp": "2025-10-31T07:16:27.854362", "info": {"num_trials": 1},
               "simulations": [REAL, _ended("max_steps", 21)]}
    source = tmp_path / "results.json"
    source.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    checks = RULES.split("\n", 1)[1]
    graded = {r.path: r for r in referee.grade(f'eval "results-1"\n{checks}\neval "results-2"\n{checks}', source)}
    assert [e["outcome"] for e in graded["results-1"].grading["expectations"]] == ["pass", "pass", "pass"]
    second = graded["results-2"].grading
    assert [e["outcome"] for e in second["expectations"]] == ["pass", "pass", "error"]
    (said,) = [p for p in second["problems"] if "warning[run-error]" in p]
    line = int(said.split(":")[1])
    assert source.read_text(encoding="utf-8").splitlines()[line - 1].strip() == '"termination_reason": "max_steps",'
