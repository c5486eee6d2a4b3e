"""Quote location, and the strict reply parser, without a server."""

from __future__ import annotations

import pytest

from referee.llm_adapter.evidence import Segment
from referee.llm_adapter.quotes import locate
from referee.llm_adapter.reply import Malformed, parse

ARGS = Segment("tool_calls", "outputs/transcript.md", 10,
               'Tool: saveExpenseDoc\nArgs: {\n  "docStatus": "10",\n  "fdSubject": "2月出租车费报销"\n}',
               step=3)
RESPONSE = Segment("response", "outputs/response.md", 1,
                   "已为您创建报销草稿（尚未提交审批）：\n\n- 金额：168.00 元\n“Quoted” text, here.")


def test_exact_after_whitespace_points_at_the_line():
    match = locate('"docStatus": "10", "fdSubject"', (ARGS,))
    assert match.line == 12 and not match.loose
    assert match.found.startswith('"docStatus"')


def test_reflowed_json_matches_loosely():
    match = locate('{"docStatus":"10","fdSubject":"2月出租车费报销"}', (ARGS,))
    assert match is not None and match.loose and match.line == 12  # braces are punctuation


def test_punctuation_and_width_differences_match_loosely():
    match = locate('"Quoted" text here', (RESPONSE,))
    assert match is not None and match.loose and match.line == 4
    assert locate("尚未提交审批):", (RESPONSE,)).loose


@pytest.mark.parametrize("quote", ['"docStatus": "20"', "金额：186.00 元", "quoted text, here",
                                   "", "   ", "..."])
def test_changed_letters_or_digits_never_match(quote):
    assert locate(quote, (ARGS, RESPONSE)) is None


def test_elided_quote_needs_long_parts_in_order():
    assert locate('Tool: saveExpenseDoc ... "fdSubject": "2月出租车费报销"', (ARGS,)).line == 10
    assert locate('"fdSubject": "2月出租车费报销" ... Tool: saveExpenseDoc', (ARGS,)) is None
    assert locate("Tool: saveExpenseDoc ... 10", (ARGS,)) is None


def test_quote_across_segments_is_not_found():
    assert locate("2月出租车费报销\"\n}\n已为您创建", (ARGS, RESPONSE)) is None


GOOD = ('{"assertions": [{"id": "A1", "reasoning": "r", "evidence": '
        '[{"source": "response", "quote": "q"}], "verdict": "FAIL"}]}')


def test_parse_accepts_one_fenced_object():
    assert parse("```json\n" + GOOD + "\n```", ["A1"]).assertions[0].verdict == "FAIL"


@pytest.mark.parametrize("text, problem", [
    ("Here you go: " + GOOD, "not JSON"),
    (GOOD + "\nThanks!", "not JSON"),
    ("[1, 2]", "not an object"),
    ("", "empty"),
    (GOOD.replace('"FAIL"', '"PARTIAL"'), "verdict"),
    (GOOD.replace('"FAIL"', '"pass"'), "verdict"),
    (GOOD.replace('"response"', '"metrics"'), "source"),
    (GOOD.replace('"r",', '"r", "score": 1,'), "score"),
    (GOOD.replace('"id": "A1"', '"id": "A9"'), "A1"),
    ('{"assertions": [{"id": "A1", "verdict": "PASS", "reasoning": "r"}]}', "before its reasoning"),
    (GOOD.replace('"q"', "NaN"), "NaN"),
])
def test_parse_refuses(text, problem):
    with pytest.raises(Malformed, match=problem):
        parse(text, ["A1"])


def test_parse_refuses_duplicate_ids():
    entry = '{"id": "A1", "reasoning": "r", "verdict": "FAIL"}'
    with pytest.raises(Malformed, match="one entry for each"):
        parse('{"assertions": [%s, %s]}' % (entry, entry), ["A1", "A2"])
