"""``LinesRead`` gives the lines ``engine.text.file_lines`` gives (the reference), however
far and in whatever order they are asked for, and splits a file no further than asked:
a hit near the top of a long transcript reads its first lines, not all of them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.checks.lines_read import LinesRead
from referee.engine.text import file_lines

PIECES = st.sampled_from(["a", "bb", " ", "\n", "\r", "\r\n", "\n\n", "\x0c", "\u2028", "é", "值"])
TEXTS = st.lists(PIECES, max_size=30).map("".join)


@settings(max_examples=500, deadline=None)
@given(TEXTS, st.lists(st.integers(0, 40), max_size=6))
def test_the_lines_asked_for_are_those_file_lines_gives(text, counts):
    whole = file_lines(text)
    lines = LinesRead(text)
    for count in counts:
        assert lines.upto(count)[:count] == whole[:count]
        assert len(lines.upto(count)) >= min(count, len(whole))
    assert lines.upto(len(whole) + 5) == whole


def test_line_ends_are_those_of_file_lines():
    for text in ("", "\n", "a", "a\n", "a\n\n", "a\r\nb\rc\n", "\r", "x\x0cy\u2028z\n"):
        assert LinesRead(text).upto(10) == file_lines(text)
        assert LinesRead(text).upto(1) == file_lines(text)[:1]


def test_a_long_file_is_split_no_further_than_asked():
    text = "".join(f"line {n}\n" for n in range(1, 10_001))
    lines = LinesRead(text)
    assert lines.upto(3) == ["line 1", "line 2", "line 3"]
    assert len(lines.upto(25)) == 25  # the first three are kept, 22 more split
    assert lines.upto(25)[24] == "line 25"
    assert lines.upto(20_000) == file_lines(text)
