"""Critique that knows negation: a mutant counts against an assertion only when it
makes the assertion's sentence false. A right negative rule is not weak because
taking evidence away leaves it true; adding what it forbids must fail it."""

from __future__ import annotations

import json

import pytest

import referee
from referee.engine.critique.assess import critique_run
from referee.engine.critique.claims import CallWitness, TextWitness, claims_of
from referee.engine.run.memory import memory_run
from referee import dsl

SHELL = "\n".join(
    f"## [tool_calls] Step {n}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\nReturn: \"ok\"\nStatus: success\n"
    for n, (tool, args) in enumerate([("Bash", {"command": "git status"}), ("Read", {"path": "a.md"}),
                                      ("Bash", {"command": "git commit -m x"})], start=1))
REWRITE = "I removed \"very\" and \"truly\".\n\n## Article\n\nSales grew fast.\n\n## Notes\nnone\n"


def critique(check: str, files: dict, lets: str = ""):
    program = referee.compile(f"eval 1\n{lets}expect: {check}\n")
    (ev,) = program.evals
    found: dict = {}
    critique_run(ev, memory_run(files), {}, found)
    (result,) = found.values()
    assert result.passing_runs, "the assertion passes on the run"
    return result


@pytest.mark.parametrize("check", [
    'no calls to "Bash" have .args.command contains "git push"',
    'not (any calls to "Bash" where .args.command starts with "git push")',
    'count(calls to "Bash" where .args.command contains "push") == 0',
    'all calls to "Bash" have not (.args.command contains "push")',
    'only [calls to "Bash", calls to "Read"]',
])
def test_a_right_negative_rule_on_calls_is_not_weak(check):
    found = critique(check, {"outputs/transcript.md": SHELL, "outputs/response.md": "Done.\n"})
    assert not found.weak, found.reasons()
    injected = [t for t in found.tried if t.mutant == "inject-call"]
    assert injected and all(t.must_fail and not t.passed for t in injected)
    assert not [t for t in found.tried if t.mutant in ("drop-call", "notes-only") and t.must_fail]


@pytest.mark.parametrize("check", [
    'not (response contains "extremely")',
    'not (section(response, "Article") contains "very")',
    'all lines(section(response, "Article")) have not (. contains "truly")',
    "length(words(section(response, \"Article\"))) <= 250",
])
def test_a_right_negative_rule_on_a_text_run_is_not_weak(check):
    # A text skill: no tool calls, so nothing about calls to examine, yet the response was.
    found = critique(check, {"outputs/response.md": REWRITE})
    assert not found.weak, found.reasons()
    assert not found.vacuous_runs


def test_the_banned_words_go_in_the_section_the_rule_reads():
    found = critique('not (section(response, "Article") contains "very")', {"outputs/response.md": REWRITE})
    (injected,) = [t for t in found.tried if t.mutant == "inject-text"]
    assert injected.must_fail and not injected.passed and 'under "Article"' in injected.reason


def test_a_positive_rule_is_still_weak_where_it_should_be():
    found = critique('response contains "the"', {"outputs/response.md": REWRITE.replace("Sales", "the sales")})
    assert found.weak and any("a generic reply too" in r for r in found.reasons())


def test_a_count_bounded_from_above_is_tested_by_a_duplicate_and_one_from_below_is_not():
    files = {"outputs/transcript.md": SHELL}
    at_most = critique('count(calls to "Read") <= 1', files)
    assert [t.must_fail for t in at_most.tried if t.mutant == "duplicate-call"] == [True]
    at_least = critique('count(calls to "Read") >= 1', files)
    assert [t.must_fail for t in at_least.tried if t.mutant == "duplicate-call"] == [False]
    # 'at least one' says only that Read was called: weak as 'exists' is, never for a duplicate
    assert at_least.reasons() == critique('exists calls to "Read"', files).reasons()
    assert not any("twice" in reason for reason in at_least.reasons())


def claims(check: str, lets: str = ""):
    tree = dsl.parse_rules(f"eval 1\n{lets}expect: {check}\n", "x.rules")
    block = tree.evals[0]
    return claims_of(block.expects[0].check, {let.name: let for let in block.lets})


def test_the_witness_is_built_from_the_rule():
    found = claims('no calls to "Bash" with status success where .args.env == "prod" '
                   'have (.args.command starts with "deploy" and .return.code == 0)')
    assert found.calls == [CallWitness("Bash", {"env": "prod", "command": "deploy"}, {"code": 0})]
    assert found.forbids_only


def test_no_witness_where_the_rule_cannot_be_satisfied_by_construction():
    assert claims('no calls to /ba.h/ have .args.x == 1').calls == []
    assert claims('no calls to "Bash" have .args.command matches /push/').calls == []
    assert claims('no calls to "Bash" have (.args.a == 1 or .args.b != 2)').calls == \
        [CallWitness("Bash", {"a": 1})]


def test_names_are_followed():
    found = claims("not (any shell have pushed)",
                   'let shell = calls to "Bash"\nlet pushed = .args.command contains "push"\n')
    assert found.calls == [CallWitness("Bash", {"command": "push"})]
    text = claims('not (section(response, "A") contains "x")')
    assert text.texts == [TextWitness("x", "A")]
