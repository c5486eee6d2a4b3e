"""A name from a workspace that holds a character reference (``&#64;octocat``,
``&#35;12``) is shown as written in a Markdown report: Markdown and HTML decode
entities, and GitHub reads mentions and issue references in the decoded text, so
``&`` is escaped outside code (``\\&`` in Markdown, ``&amp;`` in HTML), in the summary
of ``report --format markdown`` and in benchmark.md alike."""

from __future__ import annotations

import re
from pathlib import Path

from named_example import benchmark_md, named_example, summary_md
from referee.engine.report.markdown_text import cell, html_code, html_line

BASELINE = "without &#64;octocat"
# An "&" from the workspace left as it is: the start of an entity a renderer decodes
# (referee's own "&lt;", "&gt;" and "&amp;" are escapes, not names).
RAW_AMPERSAND = re.compile(r"(?<!\\)&(?!lt;|gt;|amp;)")
CODE = re.compile(r"(`{3,})text\n.*?\n\1|(`+).+?\2", re.DOTALL)


def test_an_entity_is_shown_as_written():
    assert cell("&#64;octocat &commat;org Q&A").startswith("\\&#")
    assert RAW_AMPERSAND.findall(cell("&#64;octocat &commat;org Q&A <b>")) == []
    assert RAW_AMPERSAND.findall(html_line("&#64;octocat &#35;12 <b>")) == []
    # a path in <code> is shown as it is on disk: "a&amp;b" is not "a&b"
    assert html_code("runs/a&amp;b") == "runs/a&amp;amp;b"
    assert cell("1 < 2 & 3 > 2") == "1 &lt; 2 \\& 3 &gt; 2"


def _workspace(tmp_path: Path) -> Path:
    """The example, its baseline named "without &#64;octocat", eval 1 named
    "book &#64;alice" and an assertion's sentence holding "&#35;12"."""
    return named_example(tmp_path, BASELINE, "book &#64;alice", "The booked flight is LX2084, see &#35;12")[0]


def test_the_markdown_summary_decodes_no_entity_of_a_name(tmp_path, capsys):
    ws = _workspace(tmp_path)
    text = summary_md(tmp_path, ws, BASELINE)
    # shown as written (the "#" before digits links to no issue: a zero-width space follows it)
    assert "without \\&#\u200b64;octocat" in text  # a table cell
    assert "see &amp;#" in text  # a failure's <summary> line
    assert "<code>ws/iteration-1/eval-1-book-flight/without &amp;#64;octocat/run-1</code>" in text
    assert RAW_AMPERSAND.findall(CODE.sub("", text)) == []


def test_benchmark_md_decodes_no_entity_of_a_name(tmp_path, capsys):
    ws = _workspace(tmp_path)
    text = benchmark_md(tmp_path, ws, BASELINE)
    assert "book \\&#\u200b64;alice" in text and "see \\&#\u200b35;12" in text
    assert RAW_AMPERSAND.findall(CODE.sub("", text)) == []
