"""A grader's quote that ends at a field's name leaves its value out, and the value may
say the opposite: tau-bench's real get_product_details return
(tests/fixtures/real/openai/tau-bench-retail, see its SOURCE.md) lists the 60% clicky RGB
keyboard with ``"available": false``, and a PASS for "the agent found that keyboard
available" stood on the quote ``"size": "60%"}, "available"``. A quote that ends at a
field's name (a quoted key before its colon, or a name before its "="), or at the
separator after it, proves nothing, as a heading line does; the field with its value
is found as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.judging import not_shown
from referee.engine.run.workspace import discover
from referee.llm_adapter.evidence import RunEvidence, Segment, collect
from referee.llm_adapter.quotes import locate
from referee.llm_adapter.reply import AssertionReply, Quote
from referee.llm_adapter.verify import judge_item

TAU = Path(__file__).parent / "fixtures" / "real" / "openai" / "tau-bench-retail" / "grok-3-retail-task-0.json"


def _verdict(evidence: RunEvidence, quote: str, source: str = "tool_calls"):
    entry = AssertionReply(id="A1", reasoning="the 60% clicky RGB keyboard is available", verdict="PASS",
                           evidence=[Quote(source=source, quote=quote)])
    return judge_item(entry, evidence)


def test_a_pass_on_a_real_field_whose_value_is_left_out_is_not_a_pass(tmp_path: Path, capsys):
    assert main(["import", "openai", str(TAU), "--out", str(tmp_path / "ws")]) == 0
    run = next(iter(discover(tmp_path / "ws").runs))
    assert not_shown(run) is None  # the grader is asked about this run
    evidence = collect(run)
    for quote in ('"size": "60%"}, "available"', '"backlight": "RGB", "size": "60%"}, "available":',
                  '"size": "60%"}, "available" :'):
        verdict = _verdict(evidence, quote)
        assert verdict.outcome.value == "fail", (quote, verdict.message)
        assert "proves nothing" in verdict.message
    whole = _verdict(evidence, '"size": "60%"}, "available": false')
    assert whole.outcome.value == "pass", whole.message


def found(text: str, quote: str):
    return locate(quote, (Segment("tool_calls", "outputs/transcript.md", 1, text),))


@pytest.mark.parametrize("text, quote", [
    ('Return: {"booking_confirmed": false, "ref": null}', '"booking_confirmed"'),
    ('Return: {"booking_confirmed": false, "ref": null}', 'booking_confirmed'),
    ('Return: {\\"booking_confirmed\\": false}', 'booking_confirmed'),
    ("Return: payment_captured=false", "payment_captured"),
    ("Return: payment_captured = false", "payment_captured ="),
    ('Return: {"ok": true, "emailSentToCustomer": false}', '"ok": true, "emailSentToCustomer"'),
])
def test_a_quote_that_ends_at_a_fields_name_proves_nothing(text, quote):
    match = found(text, quote)
    assert match is not None and match.field_name
    evidence = RunEvidence((Segment("tool_calls", "outputs/transcript.md", 1, text),), "task")
    assert _verdict(evidence, quote).outcome.value == "fail"


@pytest.mark.parametrize("text, quote", [
    ('Return: {"booking_confirmed": true}', '"booking_confirmed": true'),
    ("Booking confirmed: LX2084 for Ana Müller", "Booking confirmed"),  # a label in prose
    ("if status == confirmed_booking: send()", "if status"),
    ("std::vector_of_bookings::push", "std::vector_of_bookings"),
    ("The flight LX2084 is booked at 12:30 today", "booked at 12"),
])
def test_other_quotes_before_a_colon_or_an_equals_sign_are_found(text, quote):
    match = found(text, quote)
    assert match is not None and not match.field_name
