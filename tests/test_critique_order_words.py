"""Whether an assertion claims an order is read off its syntax (``before``, ``in
order``), never off its words: "before" inside a quoted text claims no order, and
swapping two calls must not fail such an assertion."""

from __future__ import annotations

import json

import referee
from referee.engine.critique.assess import critique_run
from referee.engine.run.memory import memory_run

CALLS = "\n".join(
    f"## [tool_calls] Step {n}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\nReturn: \"ok\"\nStatus: success\n"
    for n, (tool, args) in enumerate([("Read", {"note": "read it before editing, in order"}),
                                      ("Write", {"path": "b.md"})], start=1))
RUN = {"outputs/transcript.md": CALLS, "outputs/response.md": "Done.\n"}


def critique(check: str, lets: str = ""):
    (ev,) = referee.compile(f"eval 1\n{lets}expect: {check}\n").evals
    found: dict = {}
    critique_run(ev, memory_run(RUN), {}, found)
    (result,) = found.values()
    assert result.passing_runs, "the assertion passes on the run"
    return result


def swap(result) -> list[bool]:
    return [t.must_fail for t in result.tried if t.mutant == "swap-calls"]


def test_a_quoted_before_claims_no_order():
    found = critique('any calls to "Read" have .args.note contains "before editing"')
    assert swap(found) == [False] and not found.weak, found.reasons()
    assert swap(critique('any calls to "Read" have .args.note contains "in order"')) == [False]


def test_an_order_the_rule_states_is_still_tested_by_a_swap():
    assert swap(critique('any calls to "Read" before calls to "Write"')) == [True]
    assert swap(critique('in order [calls to "Read", calls to "Write"]')) == [True]
    assert swap(critique("first_read", 'let first_read = calls to "Read" before calls to "Write"\n')) == [True]
