"""A grader's quote that says less than it seems where it stands is not found, so a PASS
cannot rest on it: a question quoted as a statement ("all 12 tests passed" from "Were
all 12 tests passed?"), a condition ("we lose the sprint" from "If it slips past
Wednesday we lose the sprint"), struck-through text ("~~the search reindex finished
Friday~~"), a count cut off in front ("12 tests passed" from "0 of 12 tests passed",
"the five reporting endpoints are migrated" from "Two of the five ..."), and a YAML
field's name without its value ("internal" from ``internal: false``).

The texts are real: the status update an agent read in human-narrative-workspace's
``e2-without/transcript.md`` and the front matter of internalize-skill-workspace's
``skill-a/SKILL.md`` (see each folder's SOURCE.md), and, for the hostile forms, the
same texts cut or marked. The honest quotes of both stay found: the whole sentence,
the clause that states a fact, the field with its value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.llm_adapter.evidence import RunEvidence, Segment
from referee.llm_adapter.quotes import locate
from referee.llm_adapter.reply import AssertionReply, Quote
from referee.llm_adapter.verify import judge_item

REAL = Path(__file__).parent / "fixtures" / "real"
LOG = REAL / "human-narrative-workspace" / "e2-without" / "transcript.md"
SKILL = REAL / "internalize-skill-workspace" / "iteration-2" / "eval-2" / "with_skill" / "outputs" / "skill-a" / "SKILL.md"


def status() -> str:
    """The status update as the agent's log quotes it (one line)."""
    (line,) = [x for x in LOG.read_text(encoding="utf-8").splitlines() if x.startswith("> Sprint 14 status:")]
    return line


def segment(text: str, source: str = "response") -> tuple[Segment, ...]:
    return (Segment(source, "outputs/response.md", 1, text),)


def found(text: str, quote: str) -> bool:
    match = locate(quote, segment(text))
    return match is not None and not match.field_name


def verdict(text: str, quote: str) -> str:
    entry = AssertionReply(id="A1", reasoning="the record says so", verdict="PASS",
                           evidence=[Quote(source="response", quote=quote)])
    return judge_item(entry, RunEvidence(segment(text), "task")).outcome.value


def test_the_real_status_update_still_gives_its_facts():
    text = status()
    for quote in ("the search reindex finished Friday", "Two of the five reporting endpoints are migrated",
                  "If it slips past Wednesday we lose the sprint", "I have asked for review by Wednesday",
                  "the remaining three are blocked on the schema change that needs DBA review"):
        assert found(text, quote), quote
        assert verdict(text, quote) == "pass", quote


@pytest.mark.parametrize("quote", ["we lose the sprint", "it slips past Wednesday"])
def test_a_condition_of_the_real_status_update_is_not_a_fact(quote):
    assert not found(status(), quote)
    assert verdict(status(), quote) == "fail"


@pytest.mark.parametrize("quote", ["the five reporting endpoints are migrated", "five reporting endpoints are migrated",
                                   "reporting endpoints are migrated"])
def test_a_count_of_part_cut_off_the_real_status_update_is_not_found(quote):
    assert not found(status(), quote)
    assert verdict(status(), quote) == "fail"


@pytest.mark.parametrize("struck, quote", [
    ("~~the search reindex finished Friday~~", "the search reindex finished Friday"),
    ("~~the search reindex finished Friday~~", "~~the search reindex finished Friday~~"),
    ("<del>the search reindex finished Friday</del>", "the search reindex finished Friday"),
    ("~~the search reindex finished Friday~~", "Sprint 14 status: ~~the search reindex finished Friday"),
])
def test_struck_through_text_is_not_found(struck, quote):
    text = status().replace("the search reindex finished Friday", struck)
    assert not found(text, quote)
    assert verdict(text, quote) == "fail"
    assert found(text, "I have asked for review by Wednesday")  # the rest of the line stands


@pytest.mark.parametrize("text, quote", [
    ("Were all 12 tests passed?", "all 12 tests passed"),
    ("Sprint 14 status: has the search reindex finished Friday? No other blockers.",
     "the search reindex finished Friday"),
    ("Were all 12 tests passed\uff1f", "all 12 tests passed"),
    ('{"ask": "Were all 12 tests passed?"}', "all 12 tests passed"),
])
def test_a_question_quoted_as_a_statement_is_not_found(text, quote):
    assert not found(text, quote)
    assert verdict(text, quote) == "fail"


@pytest.mark.parametrize("text, quote", [
    ("if the build succeeds, deploy", "the build succeeds"),
    ("Deploy to production if the build succeeds.", "the build succeeds"),
    ("Deploy to production unless the smoke tests fail.", "the smoke tests fail"),
    ("If the build succeeds, the release v2.4.1 is deployed to production.", "the release v2.4.1 is deployed"),
    ("I will check whether the migration completed cleanly.", "the migration completed cleanly"),
])
def test_a_condition_quoted_as_a_fact_is_not_found(text, quote):
    assert not found(text, quote)
    assert verdict(text, quote) == "fail"


@pytest.mark.parametrize("text, quote", [
    ("0 of 12 tests passed", "12 tests passed"),
    ("Result: 3 out of 12 tests passed", "12 tests passed"),
    ("0/12 tests passed", "12 tests passed"),
    ("none of the 12 tests passed", "12 tests passed"),
    ("none of the integration tests passed", "integration tests passed"),
    ("0/12 tests passed", "tests passed"),
    ("3 of the 12 tests passed", "12 tests passed"),
])
def test_a_count_cut_off_in_front_is_not_found(text, quote):
    assert not found(text, quote)
    assert verdict(text, quote) == "fail"


def test_a_yaml_field_without_its_value_proves_nothing():
    real = SKILL.read_text(encoding="utf-8")
    assert "  internal: true\n" in real
    for text in (real, real.replace("internal: true", "internal: false")):
        match = locate("internal", segment(text))
        assert match is not None and match.field_name
        assert verdict(text, "internal") == "fail"
    assert verdict(real, "internal: true") == "pass"
    for text, quote in (("passed: false\nemail_sent: no\n", "email_sent"),
                        ("- deployment_succeeded: false\n", "deployment_succeeded"),
                        ("result: {deployment_succeeded: false}\n", "deployment_succeeded"),
                        ("all tests passed: 0\n", "all tests passed")):
        match = locate(quote, segment(text))
        assert match is not None and match.field_name, (text, quote)


@pytest.mark.parametrize("text, quote", [
    ("Were all 12 tests passed? Yes, all 12 tests passed.", "all 12 tests passed"),
    ("Were all 12 tests passed?", "Were all 12 tests passed?"),
    ("See https://ci.example.com/run?id=12 for all 12 tests passed", "See https://ci.example.com/run"),
    ("Whether that is wrong depends on your intent, so I did not guess.", "so I did not guess"),
    ("The build succeeded, so I deployed release v2.4.1.", "I deployed release v2.4.1"),
    ("If you need anything else, let me know. Booking LX2084 is confirmed.", "Booking LX2084 is confirmed"),
    ("All of 12 tests passed in 4.2 s", "All of 12 tests passed"),
    ("12 tests passed in 4.2 s", "12 tests passed"),
    ("12/12 tests passed", "12 tests passed"),  # a count of all leaves nothing out
    ("12 of 12 tests passed", "12 tests passed"),
    ("Booking confirmed: LX2084 for Ana Müller", "Booking confirmed"),
    ("CONFUSION:\n- Rules say: ask first", "CONFUSION:"),
    ("Spec says: Round invoice totals half up", "Spec says: Round invoice totals half up"),
    ("version 2~3 of the tool: ~~old~~ the new release is live", "the new release is live"),
])
def test_honest_quotes_are_found(text, quote):
    assert found(text, quote), (text, quote)


def test_a_grade_recorded_with_the_grader_and_replayed_gives_no_pass_on_a_condition(tmp_path, monkeypatch, capsys):
    """End to end: the grader's reply recorded in a cassette against a scripted server,
    then replayed with no key: each PASS resting on a quote that says less is a FAIL,
    the PASS on the sentence whole stands, in both."""
    from llm_server import ScriptedServer, verdicts

    from referee.engine.cli import main

    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text(
        status()[2:].replace("the search reindex finished Friday", "~~the search reindex finished Friday~~")
        + "\n", encoding="utf-8")
    rules = tmp_path / "status.rules"
    rules.write_text('eval 1 "status"\n'
                     'expect "the sprint is lost": semantic "the sprint is lost"\n'
                     'expect "the reindex finished": semantic "the reindex finished"\n'
                     'expect "the endpoints are migrated": semantic "all endpoints are migrated"\n'
                     'expect "review was asked for": semantic "review was asked for"\n', encoding="utf-8")
    reply = verdicts(("it says so", [("response", "we lose the sprint")], "PASS"),
                     ("it says so", [("response", "the search reindex finished Friday")], "PASS"),
                     ("it says so", [("response", "the five reporting endpoints are migrated")], "PASS"),
                     ("it says so", [("response", "I have asked for review by Wednesday")], "PASS"))
    cassette = tmp_path / "judge.jsonl"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with ScriptedServer(default=reply) as server:
        main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--llm", f"record:{cassette}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    for spec in (None, f"replay:{cassette}"):
        if spec:
            main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--llm", spec])
        report = json.loads((run / "grading.json").read_text(encoding="utf-8"))
        outcomes = [(e["text"], e["outcome"]) for e in report["expectations"]]
        assert outcomes == [("the sprint is lost", "fail"), ("the reindex finished", "fail"),
                            ("the endpoints are migrated", "fail"), ("review was asked for", "pass")], outcomes
