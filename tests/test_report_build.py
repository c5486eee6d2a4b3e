"""The report builder, fed with hand-made assertions and verdicts."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from referee.engine.facts.claims import ClaimResult
from referee.engine.report.build import (
    NOTES_ONLY, RunFacts, enforce_trust, expectation, gate, grading_report,
    render_evidence, summary, timing_block, validated_ground_truth,
)
from referee.engine.report.models import GradingReport
from referee.engine.report.render import render
from referee.engine.verdict import Evidence, Outcome, Precision, Verdict


@dataclass(frozen=True)
class FakeAssertion:
    key: str
    text: str
    precision: Precision = Precision.EXACT_MATCH
    evidence_source: str = "tool_calls"
    gated: bool = True
    check_source: str = "count(calls) == 1"
    rules_location: str = "rules/x.rules:3:9"
    semantic_rubric: str | None = None


CALL = Evidence("tool_calls", "outputs/transcript.md", 20, 3, 'Args: {"docStatus":"10"}')
NOTE = Evidence("agent_notes", "outputs/transcript.md", 6, 1, "已调用 saveExpenseDoc")


def facts(**changes) -> RunFacts:
    info = dict(path="eval-1/with_skill/run-1", eval_id="1", eval_name="x", configuration="with_skill",
                run_number=1, rules_eval="1", files_digest="sha256:0123456789abcdef0123456789abcdef", inputs={})
    base = dict(info=info, metrics={"total_tool_calls": 1}, metrics_source="metrics.json",
                timing={"total_tokens": 10, "total_duration_seconds": 2.5}, claims=(),
                notes=(("unsure",), (), ()), skill_type="mcp_based", tools=("a",))
    base.update(changes)
    return RunFacts(**base)


def test_pass_resting_on_agent_notes_alone_becomes_fail():
    verdict = Verdict(Outcome.PASS, "notes say it was called", (NOTE,))
    turned = enforce_trust(verdict)
    assert turned.outcome is Outcome.FAIL
    assert NOTES_ONLY in turned.message


def test_notes_only_flag_also_fails_and_other_pass_is_kept():
    assert enforce_trust(Verdict(Outcome.PASS, "m", notes_only=True)).outcome is Outcome.FAIL
    kept = Verdict(Outcome.PASS, "found", (CALL, NOTE))
    assert enforce_trust(kept) is kept


def test_evidence_quotes_places():
    text = render_evidence(Verdict(Outcome.FAIL, "expected '10', found '20'", (CALL,)))
    assert text.startswith("expected '10', found '20' [at step 3, outputs/transcript.md:20: ")
    assert '"Args: {\\"docStatus\\":\\"10\\"}"' in text
    assert render_evidence(Verdict(Outcome.ERROR, "regex timed out")) == "ERROR: regex timed out"


def test_a_vacuous_pass_says_so_in_its_evidence():
    response = Evidence("response", "outputs/response.md")
    vacuous = render_evidence(Verdict(Outcome.PASS, 'does not contain "{fdId}"', (response,), vacuous=True))
    assert vacuous.endswith("(passed vacuously: nothing was there to examine)")
    assert "vacuously" not in render_evidence(Verdict(Outcome.PASS, "ok", (response,)))
    assert "vacuously" not in render_evidence(Verdict(Outcome.FAIL, "no", (response,), vacuous=True))


def test_expectation_fields_and_methods():
    semantic = FakeAssertion("1#8", "friendly", Precision.SEMANTIC, "response", True, "", "r:9:1", "friendly?")
    item = expectation(semantic, Verdict(Outcome.NOT_GRADED, "semantic: needs the LLM grader (--llm); none was given"))
    assert (item["method"], item["passed"], item["outcome"]) == ("not_graded", False, "not_graded")
    assert expectation(semantic, Verdict(Outcome.PASS, "ok", (CALL,)), judged=True)["method"] == "grader"
    exact = expectation(FakeAssertion("1#1", "once"), Verdict(Outcome.PASS, "1 call", (CALL,)))
    assert exact["method"] == "ground_truth" and exact["passed"]
    assert exact["evidence_location"][0] == {
        "source": "tool_calls", "file": "outputs/transcript.md", "line": 20, "step": 3}


def test_summary_counts_errors_as_failed_and_excludes_not_graded():
    a = FakeAssertion("1#1", "a")
    items = [expectation(a, Verdict(o, "m", (CALL,))) for o in
             (Outcome.PASS, Outcome.FAIL, Outcome.ERROR, Outcome.NOT_GRADED, Outcome.PASS)]
    s = summary(items)
    assert (s["passed"], s["failed"], s["total"], s["errors"], s["not_graded"]) == (2, 2, 4, 1, 1)
    assert s["total"] == s["passed"] + s["failed"]
    assert s["pass_rate"] == 0.5


def test_pass_rate_is_rounded_and_zero_when_nothing_counted():
    a = FakeAssertion("1#1", "a")
    items = [expectation(a, Verdict(Outcome.PASS, "m", (CALL,)))] * 2 + [
        expectation(a, Verdict(Outcome.FAIL, "m"))]
    assert summary(items)["pass_rate"] == 0.6667
    assert summary([])["pass_rate"] == 0.0


def test_gate_excludes_existence_and_not_graded():
    exists = FakeAssertion("1#7", "not empty", Precision.EXISTENCE, "response", False)
    semantic = FakeAssertion("1#8", "friendly", Precision.SEMANTIC, "response")
    exact = FakeAssertion("1#1", "once")
    items = [expectation(exact, Verdict(Outcome.FAIL, "2 calls", (CALL,))),
             expectation(exists, Verdict(Outcome.PASS, "present", (CALL,))),
             expectation(semantic, Verdict(Outcome.NOT_GRADED, "not graded"))]
    g = gate(items)
    assert g["counted"] == ["1#1"]
    assert [(e["assertion"], e["reason"].split(":")[0]) for e in g["excluded"]] == [
        ("1#7", "existence only"), ("1#8", "semantic and not graded")]
    assert (g["passed"], g["total"], g["pass_rate"]) == (0, 1, 0.0)


def test_timing_keeps_tokens_and_adds_grader_time():
    assert timing_block({"total_duration_seconds": 41.3, "total_tokens": 5}, None)["total_tokens"] == 5
    assert timing_block({"input_tokens": 3, "output_tokens": 4, "total_tokens": 7}, 1.23456) == {
        "input_tokens": 3, "output_tokens": 4, "total_tokens": 7, "grader_duration_seconds": 1.235}


GRADER = {"name": "referee", "version": "1", "llm": None}


def _report() -> GradingReport:
    assertions = [FakeAssertion("1#1", "once"),
                  FakeAssertion("1#2", "friendly", Precision.SEMANTIC, "response", True, "")]
    verdicts = [Verdict(Outcome.PASS, "1 call", (CALL,)), Verdict(Outcome.NOT_GRADED, "not graded")]
    claim = ClaimResult("x was called", "process", False, "t.md:3 says </script> here")
    feedback = {"suggestions": [{"reason": "r", "assertion": "once"}], "overall": "1 suggestion"}
    return grading_report(assertions, verdicts, facts(claims=(claim,)), feedback, GRADER)


def test_report_field_order_is_the_consumers_first():
    document = json.loads(render(_report()))
    assert list(document)[:5] == ["expectations", "summary", "execution_metrics",
                                  "execution_metrics_source", "timing"]
    assert list(document["expectations"][0])[:3] == ["text", "passed", "evidence"]
    assert document["grader"] == {"name": "referee", "version": "1", "llm": None}


def test_render_is_stable_and_neutralises_script_end():
    text = render(_report())
    assert text == render(_report())
    assert text.endswith("}\n") and "</script>" not in text
    assert "<\\\\/script>" in text


def test_ground_truth_holds_deterministic_checks_only():
    truth = validated_ground_truth(_report().model_dump(mode="json"))
    assert [(c.assertion, c.method, c.passed) for c in truth.checks] == [("once", "ground_truth", True)]


def test_report_rejects_unknown_feedback_fields():
    with pytest.raises(ValueError):
        grading_report([FakeAssertion("1#1", "a")], [Verdict(Outcome.PASS, "m", (CALL,))], facts(),
                       {"suggestions": [], "overall": "", "extra": 1}, GRADER)


def test_text_is_never_empty():
    bare = FakeAssertion("1#8", "", Precision.SEMANTIC, "response", True, "", "r.rules:9:1")
    assert expectation(bare, Verdict(Outcome.NOT_GRADED, "n"))["text"] == "assertion 1#8 (r.rules:9:1)"
