"""A name from a workspace that holds a bare address (``https://...``, ``www....``)
or an issue reference (``#12``, ``GH-12``, ``owner/repo#12``) links nowhere when a
Markdown report is posted on GitHub: outside code, where GitHub makes links of them,
each gets a zero-width space, in the summary of ``report --format markdown`` and in
benchmark.md alike, as an ``@name`` does."""

from __future__ import annotations

import re
from pathlib import Path

from named_example import benchmark_md, named_example, outside_code, summary_md
from referee.engine.report.markdown_text import cell, html_line

BASELINE = "without www.evil.example"
# What GitHub would make a link of: GFM's autolinks, and its references to issues
# (not "1#4", an assertion's key).
LINK = re.compile(r"(?i)(?<![a-z0-9])(?:https?://|www\.)|(?<![\w.-])#\d|(?<![\w-])GH-\d|[\w.-]/[\w.-]+#\d")


def _workspace(tmp_path: Path) -> Path:
    """The example, its baseline named with a www address, eval 1 named with an
    https address and an assertion's sentence holding issue references."""
    return named_example(tmp_path, BASELINE, "see https://evil.example",
                         "The booked flight is LX2084 (#12, GH-12, owner/repo#12)")[0]


def test_a_cell_and_a_summary_line_link_nowhere():
    for write in (cell, html_line):
        assert LINK.findall(write("see https://evil.example, www.evil.example, HTTP://x.example")) == []
        assert LINK.findall(write("fixes #12, GH-12, owner/repo#12 and a/b/c#3 (#4)")) == []
        assert write("1#4 The booked flight") == "1#4 The booked flight"  # an assertion's key
        assert write("eval 2: 2#1 outputs/fares.csv exists") == "eval 2: 2#1 outputs/fares.csv exists"


def test_the_markdown_summary_links_nowhere(tmp_path, capsys):
    ws = _workspace(tmp_path)
    # the baseline as primary: its failures (the eval's and assertion's names) are listed
    text = summary_md(tmp_path, ws, BASELINE)
    assert "without www\u200b.evil.example" in text and "(#\u200b12, GH-\u200b12, owner/repo#\u200b12)" in text
    assert LINK.findall(outside_code(text)) == []
    # inside code the name stays as written: a path copied from it is the path
    assert f"<code>ws/iteration-1/eval-1-book-flight/{BASELINE}/run-1</code>" in text


def test_benchmark_md_links_nowhere(tmp_path, capsys):
    ws = _workspace(tmp_path)
    text = benchmark_md(tmp_path, ws, BASELINE)
    assert "see https\u200b://evil.example" in text and "(#\u200b12, GH-\u200b12, owner/repo#\u200b12)" in text
    assert LINK.findall(outside_code(text)) == []


def test_an_email_address_links_nowhere():
    # Input: an assertion sentence "the reply is sent to ana.mueller@example.com": GitHub
    # makes a mailto: link of an address outside code. A rules place is no address.
    for write in (cell, html_line):
        text = write("the reply is sent to ana.mueller@example.com")
        assert text == "the reply is sent to ana.mueller@\u200bexample.com"
        assert write("rules release.toml@3ba210f5") == "rules release.toml@3ba210f5"
        assert write("pass@k") == "pass@k"
