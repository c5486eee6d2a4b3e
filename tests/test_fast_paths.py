"""Fast paths give what the plain definition they replace gives, on any text."""

from __future__ import annotations

import re

from hypothesis import given, strategies as st

from referee.engine.run.transcript_sections import record_starts

# The definition: a record heading's prefix at the start of the text or of a line.
_DEFINED = re.compile(r"(?:\A|(?<=\n))## \[tool_calls\] Step ")
_PIECES = st.sampled_from(["## [tool_calls] Step ", "\n", "\r\n", "## [tool_calls] Step 1: x\n", " ", "#",
                           "[tool_calls]", "Step ", "\n## [tool_calls] Step ", "值", "\n\n", "a"])


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_record_starts_are_the_defined_offsets(text):
    assert record_starts(text) == [m.start() for m in _DEFINED.finditer(text)]
