"""The fast renderer writes exactly the reference bytes, and the built documents fit the models."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.report.build import grading_document, ground_truth
from referee.engine.report.jsonable import dumps, neutralise_script_end
from referee.engine.report.models import GradingReport, GroundTruth
from referee.engine.report.atomic import encode
from referee.engine.report.render import json_text, own_json, render
from referee.engine.verdict import Evidence, Outcome, Precision, Verdict
from test_report_build import GRADER, FakeAssertion, facts

TRICKY_STRINGS = ["</script><!-- x", "</SCRIPT >", "<</sCrIpT", "a\x00\x1f\x7f\u2028\u2029", "é值😀",
                  '"quoted" \\ back', "<\\/script already", "\t\n\r\b\f"]
TRICKY_NUMBERS = [1e-05, 4.2e-9, 1e16, 1e22, 0.1, -0.0, 123456789.0, 2**70, -(2**63) - 1, True, None]


def reference(document) -> str:
    return dumps(neutralise_script_end(document))


def document(timing=None, metrics=None, feedback=None) -> dict:
    verdicts = [Verdict(Outcome.PASS, "ok </script>", (Evidence("tool_calls", "t.md", 3, 1, "</script>"),)),
                Verdict(Outcome.NOT_GRADED, "n")]
    assertions = [FakeAssertion("1#1", "once <!-- here"),
                  FakeAssertion("1#2", "kind", Precision.SEMANTIC, "response", True, "")]
    run = facts(timing=timing if timing is not None else {"total_tokens": 5},
                metrics=metrics if metrics is not None else {"total_tool_calls": 1})
    return grading_document(assertions, verdicts, run, feedback, GRADER)


@pytest.mark.parametrize("value", TRICKY_STRINGS + TRICKY_NUMBERS)
def test_fast_render_matches_the_reference(value):
    for doc in (document(timing={"x": value, "nested": [value, {"k": value}]}),
                document(metrics={"tool_calls": {str(value): 1}, "v": [value]})):
        assert render(doc) == reference(doc)


def test_keys_with_script_end_take_the_reference_path():
    doc = document(metrics={"</script>": "</script>"})
    text = render(doc)
    assert text == reference(doc)
    assert '"<\\\\/script>": "<\\\\/script>"' in text  # keys are made safe as values are


def test_non_finite_and_non_json_values_behave_as_the_reference():
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError):
            render(document(timing={"t": bad}))
        with pytest.raises(ValueError):
            reference(document(timing={"t": bad}))
    lone = document(timing={"s": "x\ud800y"})
    assert render(lone) == reference(lone)  # a lone surrogate: the reference decides


def test_built_documents_fit_the_models_in_field_order():
    feedback = {"suggestions": [{"reason": "r", "assertion": "once"}], "overall": "o"}
    doc = document(feedback=feedback)
    model = GradingReport.model_validate(doc)
    assert json.dumps(model.model_dump(mode="json")) == json.dumps(doc)
    truth = ground_truth(doc)
    assert json.dumps(GroundTruth.model_validate(truth).model_dump(mode="json")) == json.dumps(truth)
    assert render(model) == render(doc)


def test_json_text_matches_json_dumps():
    value = {"runs": [{"summary": {"pass_rate": 0.6667}, "path": "é </script>"}], "n": [1, 2**70], "e": {}}
    assert json_text(value) == json.dumps(value, ensure_ascii=False, indent=2)
    assert json_text({"x": 1e-05}) == json.dumps({"x": 1e-05}, ensure_ascii=False, indent=2)


_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.text(), st.sampled_from(["</script", "\ud800", "<!--", "值"]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text(max_size=3), st.sampled_from(["<a", "k"])), inner, max_size=4)),
    max_leaves=25)


@settings(max_examples=100, deadline=None)
@given(_VALUES)
def test_json_text_is_json_dumps_whatever_the_value(value):
    try:
        expected = json.dumps(value, ensure_ascii=False, indent=2)
    except ValueError:
        return  # json.dumps itself refuses it: nothing to agree with
    assert json_text(value) == expected


# What referee's own data holds (a run's --json entry): no float but a rate(), str keys;
# text of any kind, a lone surrogate of a folder name that is not UTF-8 too.
_RATES = st.builds(lambda passed, extra: round(passed / (passed + extra), 4) if passed + extra else 0.0,
                   st.integers(0, 10**6), st.integers(0, 10**6))
_OWN = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), _RATES, st.text(),
                              st.sampled_from(["\udcff", "##[x", "</script", "值"])),
                    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=3), inner,
                                                                                          max_size=4)),
                    max_leaves=25)


@settings(max_examples=200, deadline=None)
@given(_OWN)
def test_own_json_is_json_text_for_referees_own_data(value):
    # The reference walks the value first (_renders_alike); own_json trusts its maker.
    assert own_json(value) == encode(json_text(value))


def test_own_json_refuses_what_json_text_refuses():
    with pytest.raises(TypeError):
        json_text({"x": object()})
    with pytest.raises(TypeError):
        own_json({"x": object()})
