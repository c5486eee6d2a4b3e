"""A name from a workspace that holds an emoji shortcode (``:white_check_mark:``,
``:x:``, ``:+1:``) shows the shortcode as written when a Markdown report is posted on
GitHub, never the emoji: outside code, where GitHub turns ``:name:`` into its emoji,
a zero-width space follows the colon that opens it, in the summary of ``report
--format markdown`` and in benchmark.md alike. A green check drawn from a failing
run's name beside its FAIL would read as a pass."""

from __future__ import annotations

import re

from named_example import benchmark_md, named_example, outside_code, summary_md
from referee.engine.report.markdown_text import cell, html_line

BASELINE = "without :white_check_mark:"
# What GitHub would draw as an emoji: a colon, a name of letters, digits, "_", "+"
# or "-", a colon (digits alone, as in "c80e3172:11:1", name none but :100: and :1234:).
SHORTCODE = re.compile(r":(?=([A-Za-z0-9_+-]+):)")


def _emoji(text: str) -> list[str]:
    return [m.group(1) for m in SHORTCODE.finditer(text)
            if not m.group(1).isdigit() or m.group(1) in ("100", "1234")]


def _workspace(tmp_path):
    return named_example(tmp_path, BASELINE, "book :rocket:",
                         "The booked flight is LX2084 :+1::heavy_check_mark:")[0]


def test_the_markdown_summary_draws_no_emoji_from_a_name(tmp_path, capsys):
    # Input: the baseline's folder, eval 1's name and an assertion's sentence holding
    # shortcodes; the summary wrote them as they are, and GitHub drew a check mark
    # beside a failure. Now each opening colon is followed by a zero-width space.
    ws = _workspace(tmp_path)
    text = summary_md(tmp_path, ws, BASELINE)
    assert "without :\u200bwhite_check_mark:" in text
    assert "LX2084 :\u200b+1::\u200bheavy_check_mark:" in text
    assert _emoji(outside_code(text)) == []


def test_benchmark_md_draws_no_emoji_from_a_name(tmp_path, capsys):
    ws = _workspace(tmp_path)
    text = benchmark_md(tmp_path, ws, BASELINE)
    assert "book :\u200brocket:" in text
    assert _emoji(outside_code(text)) == []


def test_colons_that_open_no_shortcode_are_kept():
    # A rules place ("booking.rules@c80e3172:7:1"), a time, a ratio and a label are no
    # shortcodes: written as they are.
    for text in ("booking.rules@c80e3172:7:1", "12:30:45", "pass@k 1:0.50", "note: fine", "a::b"):
        assert "\u200b" not in cell(text) and "\u200b" not in html_line(text)
    assert cell(":100: :1234:") == ":\u200b100: :\u200b1234:"
