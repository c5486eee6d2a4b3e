"""evaluate(): one verdict per assertion whatever happens inside a check."""

from __future__ import annotations

from dataclasses import replace

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.agents import Calls
from referee.engine.run.model import Location, Note, Transcript
from referee.engine.verdict import Outcome


class Run:
    """A run with the attributes checks read; no files."""

    def __init__(self, notes=()):
        self.transcript = Transcript((), tuple(notes))
        self.no_record = None  # a dual-section record of zero calls
        self.every_call = Calls()
        self.response = None
        self.response_missing = "response.md is missing or empty"
        self.metrics = self.timing = None
        self.metadata = {}

    def output_files(self):
        return []

    def exists_output(self, rel):
        return False

    def read_output(self, rel):
        raise AssertionError("no file is read in these tests")


def program(text: str):
    return compile_rules([dsl.parse_rules(text, "t.rules")]).evals[0]


class Exploding:
    def evaluate(self, ctx):
        raise ValueError("boom")


def test_a_defect_in_a_check_is_one_error_verdict():
    ev = program('eval 1\nexpect "first": calls is empty\nexpect "second": calls is empty\n')
    broken = replace(ev, assertions=(replace(ev.assertions[0], check=Exploding()), ev.assertions[1]))
    first, second = evaluate(broken, Run())
    assert first.outcome is Outcome.ERROR and "ValueError: boom" in first.message
    assert second.outcome is Outcome.PASS


def test_vacuous_is_only_kept_on_a_pass():
    ev = program('eval 1\nexpect: any calls to "x"\nexpect: all calls to "x" have .args.a == 1\n')
    failed, passed = evaluate(ev, Run())
    assert failed.outcome is Outcome.FAIL and not failed.vacuous
    assert passed.outcome is Outcome.PASS and passed.vacuous


def test_semantic_sentence_is_not_graded():
    ev = program('eval 1\nexpect "Friendly?"\n')
    [verdict] = evaluate(ev, Run())
    assert verdict.outcome is Outcome.NOT_GRADED
    assert verdict.message == "semantic: needs the LLM grader (--llm); none was given"


def test_notes_only_pass_is_a_fail_with_the_reason():
    note = Note(0, 1, "done", "saved the draft", "agent_notes", Location("outputs/transcript.md", 3))
    ev = program('eval 1\nexpect: any notes have .text contains "saved"\n')
    [verdict] = evaluate(ev, Run([note]))
    assert verdict.outcome is Outcome.FAIL and verdict.notes_only
    assert "rests on agent notes alone" in verdict.message
    assert {e.line for e in verdict.evidence} == {3, 4}  # the note heading and its text


def test_lets_are_shared_by_the_assertions():
    ev = program("eval 1\nlet n = count(calls)\nexpect: n == 0\nexpect: n < 1\n")
    assert [v.outcome for v in evaluate(ev, Run())] == [Outcome.PASS, Outcome.PASS]
