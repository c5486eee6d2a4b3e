"""A line of many list markers that opens no HTML block ("-   " forty times, then text
with a "<"): the blanks between its markers could be taken by one marker's space or by
the next marker's indentation, and reading where blocks start tried every way, a time
growing as a power of the markers (fourteen took two seconds; forty, longer than any
grade may wait). Taken possessively, a grade of it ends at once, with the verdict the
line's words give."""

from __future__ import annotations

import random
import re
from pathlib import Path

import referee
from referee.engine.checks import markdown_blocks


def test_a_line_of_forty_markers_is_graded(tmp_path: Path):
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("-   " * 40 + "done <b>now</b>\n", encoding="utf-8")
    rules = 'eval 1\nexpect 1: response contains "done now"\nexpect 2: not (response contains "absent")\n'
    (result,) = referee.grade(rules, tmp_path)
    assert [item["outcome"] for item in result.expectations] == ["error", "pass"]


# The container pattern as written before its blanks were possessive: what it matched is
# what the pattern matches now, on short lines where the old one ends quickly. Its fence
# is the one read now (a run of backticks with no backtick after it on its line).
_OLD = re.compile(r"^(?: {0,3}(?P<fence>" + markdown_blocks.BACKTICK_FENCE + r"|~{3,})(?P<info>.*)$"
                  r"|(?:[ \t]{0,3}(?:>[ \t]?|[-+*][ \t]+|[0-9]{1,9}[.)][ \t]+))*"
                  r" {0,3}(?P<html><!--|<(?:script|style|pre|textarea)(?=[ \t>]|$)))", re.MULTILINE | re.IGNORECASE)


def test_the_blocks_found_are_those_found_before():
    pieces = [" ", "  ", "\t", ">", "-", "+", "*", "1", "12", ".", ")", "<!--", "x", "```", "<script>"]
    rng = random.Random(7)
    for _ in range(20_000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 9)))
        before, now = _OLD.match(line), markdown_blocks._BLOCK.match(line)
        assert (before is None) == (now is None), line
        if before is not None and now is not None:
            assert (before.group("html"), before.end()) == (now.group("html"), now.end()), line


def _ticks_time(n: int) -> float:
    """The time to find the blocks of ``n`` lines each holding many runs of backticks."""
    import time
    text = ("``` ``" * 50 + "\n") * n
    began = time.process_time()
    list(markdown_blocks.blocks(text))
    return time.process_time() - began


def test_lines_of_backtick_runs_take_a_time_linear_in_their_number():
    # A line of runs of backticks is read once for the backtick after its first run.
    small, large = min(_ticks_time(200) for _ in range(3)), min(_ticks_time(2000) for _ in range(3))
    assert large < 30 * max(small, 1e-4)
