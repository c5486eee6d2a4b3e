"""Per-run caching in evaluation: selections and records are computed once per run,
shared by the assertions of an eval, and never carried over to another run."""

from __future__ import annotations

import fnmatch
import json

import pytest

from referee import dsl
from referee.engine.checks.sources import Select
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.regexes import compile_exact, compile_glob
from referee.engine.verdict import Outcome


def Run(*calls: tuple[str, dict]):  # noqa: N802 - reads like the run it builds
    """A run in memory holding only these tool calls (tool, args), each a success."""
    blocks = [f"## [tool_calls] Step {n}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\n"
              f"Return: {{}}\nStatus: success\n" for n, (tool, args) in enumerate(calls, 1)]
    return memory_run({"outputs/transcript.md": "\n".join(blocks)})


def program(text: str):
    return compile_rules([dsl.parse_rules(text, "t.rules")]).evals[0]


def test_selections_written_alike_share_one_compiled_object():
    ev = program('eval 1\nlet s = last(calls to "save")\n'
                 'expect: count(calls to "save") == 1\nexpect: any calls to "save"\n'
                 'expect: any calls to "save" with status success\n')
    counted, quantified, narrower = (a.check for a in ev.assertions)
    assert counted.left.arg is quantified.selection is dict(ev.lets)["s"].arg
    assert narrower.selection is not quantified.selection


def test_equal_python_values_of_different_types_do_not_share():
    # 1 == True in Python; in the language a number is never a boolean.
    ev = program('eval 1\nexpect: any calls where .args.a == 1\nexpect: any calls where .args.a == true\n')
    one, true = (a.check.selection for a in ev.assertions)
    assert one is not true
    verdicts = evaluate(ev, Run(("x", {"a": True})))
    assert [v.outcome for v in verdicts] == [Outcome.FAIL, Outcome.PASS]


def test_a_selection_is_computed_once_per_run(monkeypatch):
    ev = program('eval 1\nexpect: count(calls to "save") == 1\nexpect: any calls to "save"\n'
                 'expect: no calls to "save" have .args.a == 2\n')
    calls = []
    original = Select._select
    monkeypatch.setattr(Select, "_select", lambda self, ctx: calls.append(self) or original(self, ctx))
    run = Run(("save", {"a": 1}), ("read", {}))
    assert [v.outcome for v in evaluate(ev, run)] == [Outcome.PASS] * 3
    assert len(calls) == 1
    evaluate(ev, run)
    assert len(calls) == 2, "a new evaluation starts with an empty cache"


def test_the_calls_are_wrapped_once_per_run(monkeypatch):
    from referee.engine.checks import run_sources

    wrapped = []
    original = run_sources.call_val
    monkeypatch.setattr(run_sources, "call_val", lambda call: wrapped.append(call.tool) or original(call))
    ev = program('eval 1\nexpect: count(calls) == 2\nexpect: any calls to "a"\n'
                 'expect: in order [calls to "a", calls to "b"]\n')
    run = Run(("a", {}), ("b", {}))
    assert [v.outcome for v in evaluate(ev, run)] == [Outcome.PASS] * 3
    assert wrapped == ["a", "b"], "each call is wrapped once, for every assertion of the run"


def test_nothing_is_carried_over_to_the_next_run():
    ev = program('eval 1\nlet saved = first(calls to "save")\nexpect: saved.args.a == 1\n'
                 'expect: count(calls to "save") == 1\n')
    good, bad = Run(("save", {"a": 1})), Run(("save", {"a": 2}), ("save", {"a": 1}))
    assert [v.outcome for v in evaluate(ev, good)] == [Outcome.PASS, Outcome.PASS]
    assert [v.outcome for v in evaluate(ev, bad)] == [Outcome.FAIL, Outcome.FAIL]
    assert [v.outcome for v in evaluate(ev, good)] == [Outcome.PASS, Outcome.PASS]


def test_a_failing_selection_is_an_error_in_every_assertion_using_it():
    ev = program('eval 1\nexpect: any calls where .args.n < 3\nexpect: count(calls where .args.n < 3) == 0\n')
    verdicts = evaluate(ev, Run(("x", {"n": "two"})))
    assert [v.outcome for v in verdicts] == [Outcome.ERROR, Outcome.ERROR]
    assert all("cannot order text and number" in v.message for v in verdicts)


def test_any_quotes_the_first_passing_element():
    ev = program('eval 1\nexpect: any calls have .args.n > 1\n')
    [verdict] = evaluate(ev, Run(("x", {"n": 1}), ("y", {"n": 2}), ("z", {"n": "text"})))
    assert verdict.outcome is Outcome.PASS and "step 2 y" in verdict.message


NAMES = ["Bash", "bash", "Bash ", "svc-mcp_saveRecord", "saveRecord", "save[1]", "a\nb", "", "*", "é"]


@pytest.mark.parametrize("glob", ["*save*", "Bash", "*Record", "save?Record", "[sb]ash", "*", "a*b",
                                  "save[1]", "*[!a]"])
def test_a_glob_tester_agrees_with_the_pattern(glob):
    pattern = compile_glob(glob)
    test = pattern.tester("a tool name")
    for name in NAMES:
        assert test(name) == (pattern.search(name, "a tool name") is not None) == fnmatch.fnmatchcase(name, glob)


@pytest.mark.parametrize("text", ["Bash", "save[1]", "a.b", "", "é"])
def test_an_exact_tester_is_equality(text):
    pattern = compile_exact(text)
    test = pattern.tester("a tool name")
    for name in NAMES + [text]:
        assert test(name) == (name == text) == (pattern.search(name, "a tool name") is not None)
