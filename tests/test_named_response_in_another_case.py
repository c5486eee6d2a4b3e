"""A response file named by --response (or evals.json's response_file) that the run
holds only under a name differing by case, or by trailing dots and spaces, is the
same file where the run was made on Windows or macOS: the response is there but
was not read, so a check on it is an ERROR, never a pass of `not response contains`
on a response called missing."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.verdict import Outcome


def _verdict(files: dict[str, str], response: str, check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")])
    run = memory_run(files, response=response)
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return verdict, run


@pytest.mark.parametrize("named", ["outputs/Result.md", "outputs/RESULT.MD", "outputs/result.md.", "Outputs/result.md"])
def test_a_response_held_only_in_another_case_is_unusable(named: str):
    # Input: --response outputs/Result.md on a run whose agent wrote outputs/result.md.
    # The response was missing: 'not response contains "secret"' passed vacuously.
    verdict, run = _verdict({"outputs/result.md": "the secret\n"}, named, 'not response contains "secret"')
    assert verdict.outcome is Outcome.ERROR, verdict.message
    assert "outputs/result.md" in verdict.message
    assert any(p.code == "name-case" for p in run.problems)


def test_a_response_held_as_named_is_read_beside_another_case():
    files = {"outputs/result.md": "the secret\n", "outputs/Result.md": "clean\n"}
    assert _verdict(files, "outputs/result.md", 'not response contains "secret"')[0].outcome is Outcome.FAIL
    assert _verdict(files, "outputs/Result.md", 'not response contains "secret"')[0].outcome is Outcome.PASS


def test_a_response_held_in_no_case_is_missing():
    verdict, _ = _verdict({"outputs/other.md": "x\n"}, "outputs/result.md", 'not response contains "secret"')
    assert verdict.outcome is Outcome.PASS, verdict.message
