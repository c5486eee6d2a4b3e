"""With an LLM grader: semantic items get method "grader", usage and time are reported."""

from __future__ import annotations

import json

from referee.engine.grade import RulesSource, grade_all, grader_info
from referee.engine.judging import GraderUsage, JudgeResult
from referee.engine.run.workspace import discover
from referee.engine.verdict import Evidence, Outcome, Verdict

RULES = 'eval 2\nexpect 1: exists file "summary.csv"\nexpect "The response explains the totals"\n'


class FakeJudge:
    def __init__(self):
        self.seen = []

    def grade(self, run, items):
        self.seen.append((run.id.rel, [item.key for item in items]))
        verdicts = {item.key: Verdict(Outcome.PASS, "explains the sum",
                                      (Evidence("response", "outputs/response.md", 1, None, "I summed"),))
                    for item in items}
        return JudgeResult(verdicts, usage=GraderUsage(model="m", backend="fake", requests=1,
                                                       input_tokens=10, output_tokens=2,
                                                       duration_seconds=0.25, replayed=True))


class SilentJudge(FakeJudge):
    def grade(self, run, items):
        return JudgeResult({})


def graded(shared_examples, judge):
    source = RulesSource((("r.rules", RULES),))
    program = source.compile()
    runs = [r for r in discover(shared_examples / "expense-skill-workspace").runs if r.id.eval_id == "2"]
    return [json.loads(g.grading) for g in grade_all(program, runs, source, grader_info(), judge=judge)]


def test_judged_items_are_marked_and_usage_reported(shared_examples):
    judge = FakeJudge()
    report = graded(shared_examples, judge)[0]
    assert judge.seen[0][1] == ["2#2"]
    item = report["expectations"][1]
    assert (item["method"], item["outcome"], item["passed"]) == ("grader", "pass", True)
    assert report["summary"]["not_graded"] == 0 and report["gate"]["total"] == 1
    assert report["grader"]["llm"]["model"] == "m" and report["grader"]["llm"]["replayed"]
    assert report["timing"]["grader_duration_seconds"] == 0.25


def test_a_missing_judge_verdict_is_an_error_not_a_pass(shared_examples):
    report = graded(shared_examples, SilentJudge())[0]
    item = report["expectations"][1]
    assert (item["method"], item["outcome"]) == ("grader", "error")
    assert report["gate"]["passed"] == 0


def test_without_a_judge_semantic_is_not_graded(shared_examples):
    report = graded(shared_examples, None)[0]
    item = report["expectations"][1]
    assert (item["method"], item["outcome"], item["passed"]) == ("not_graded", "not_graded", False)
    assert report["grader"]["llm"] is None and "grader_duration_seconds" not in report["timing"]
