"""The first and the last record starts, found without listing every one, are the
ones ``record_starts`` lists."""

from __future__ import annotations

from itertools import islice

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.run.transcript_sections import iter_record_starts, last_record_start, record_starts

PIECES = st.sampled_from(["## [tool_calls] Step ", "\n", "x", "1", " ", "## [agent_notes] Step 2", "\r\n", "#"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_the_first_and_last_start_are_those_listed(text):
    starts = record_starts(text)
    assert list(islice(iter_record_starts(text), 1)) == starts[:1]
    assert last_record_start(text) == (starts[-1] if starts else None)


def test_a_record_heading_at_the_start_and_after_a_line_break():
    text = "## [tool_calls] Step 1: a\nTool: x\n## [tool_calls] Step 2: b\n"
    assert record_starts(text) == [0, 34]
    assert last_record_start(text) == 34
    assert last_record_start("## [tool_calls] Step 1\n") == 0
    assert last_record_start("no record\n") is None
