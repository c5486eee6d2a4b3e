"""An assertion that is part rule, part judgement ("lists every figure from the input
and invents no facts"): the rule part decides without a grader when it can; else the
judgement part goes to the grader; the verdict says which part decided."""

from __future__ import annotations

import json

from referee.engine.grade import RulesSource, grade_all, grader_info
from referee.engine.judging import JudgeResult
from referee.engine.run.workspace import discover
from referee.engine.verdict import Evidence, Outcome, Verdict
from test_conformance import write_run

RULES = ('eval 1\nexpect "lists every figure and invents no facts": '
         'all numbers(response) have . in [12, 1250] and semantic "Does the reply invent no facts?"\n'
         'expect "says 12 or is friendly": response contains "12" or semantic "Is the reply friendly?"\n')
TRUE_FIGURES = {"response": "Revenue grew 12% to 1,250 units.\n"}
WRONG_FIGURE = {"response": "Revenue grew 15% to 1,250 units.\n"}


class Judge:
    """Answers every question with ``outcome``, quoting the response's first line."""

    def __init__(self, outcome: Outcome):
        self.outcome, self.asked = outcome, []

    def grade(self, run, items):
        self.asked += [(item.key, item.rubric) for item in items]
        quote = Evidence("response", "outputs/response.md", 1, None, "Revenue grew")
        return JudgeResult({item.key: Verdict(self.outcome, "it says only what the input says", (quote,))
                            for item in items})


def graded(run: dict, tmp_path, judge=None) -> list[dict]:
    write_run(run, tmp_path)
    source = RulesSource((("r.rules", RULES),))
    runs = discover(tmp_path).runs
    (found,) = grade_all(source.compile(), runs, source, grader_info(), judge=judge)
    return json.loads(found.grading)["expectations"]


def test_a_failing_rule_part_is_a_fail_without_the_grader(tmp_path):
    judge = Judge(Outcome.PASS)
    first, second = graded(WRONG_FIGURE, tmp_path, judge)
    assert (first["outcome"], first["method"]) == ("fail", "ground_truth")
    assert first["evidence"].startswith("decided by the rule part, without the grader: ")
    assert '"15" is 15' in first["evidence"] and first["precision"] == "semantic"
    assert [key for key, _ in judge.asked] == ["1#2"]  # only the assertion its rule left open


def test_a_passing_rule_part_leaves_the_judgement_to_the_grader(tmp_path):
    judge = Judge(Outcome.FAIL)
    first, second = graded(TRUE_FIGURES, tmp_path, judge)
    assert judge.asked == [("1#1", "Does the reply invent no facts?")]
    assert (first["outcome"], first["method"]) == ("fail", "grader")
    assert first["evidence"].startswith("the rule part: all 2 numbers(response) pass")
    assert "; decided by the grader: it says only what the input says" in first["evidence"]
    assert {"source": "response", "file": "outputs/response.md", "line": 1, "step": None} \
        in first["evidence_location"]
    assert (second["outcome"], second["method"]) == ("pass", "ground_truth")


def test_without_a_grader_the_verdict_says_what_the_rule_part_found(tmp_path):
    first, _ = graded(TRUE_FIGURES, tmp_path)
    assert (first["outcome"], first["method"]) == ("not_graded", "not_graded")
    assert "the rule part: all 2 numbers(response) pass" in first["evidence"]
    assert "the judgement part (Does the reply invent no facts?) needs the LLM grader" in first["evidence"]
