"""A name from a workspace holding a commit's hash links no commit when a Markdown
report is posted on GitHub: outside code, GitHub links a run of 7 to 40 hex digits
("a5c3785ed8d6...", "owner/repo@a5c3785") to the commit it names in the repository.
A zero-width space after every sixth digit leaves no such run, and the text reads the
same; inside code (fenced blocks, ``<code>``) it stays as written. A number (digits
alone: a token count) is left as it is."""

from __future__ import annotations

import re

from named_example import benchmark_md, named_example, outside_code, summary_md
from referee.engine.report.markdown_text import cell, html_line

SHA = "a5c3785ed8d6a35868bc169f07e40e889087fd2e"
BASELINE = f"without {SHA[:7]}"
# What GitHub would read as a commit: 7 hex digits or more, not within a word, nor after
# a file's name and "@" (a rules place, "release.toml@3ba210f5": no user has that name).
COMMIT = re.compile(r"(?<![A-Za-z0-9_])(?<!\.toml@)(?<!\.rules@)[0-9a-fA-F]{7,}(?![A-Za-z0-9_])")


def test_the_markdown_summary_links_no_commit(tmp_path, capsys):
    # Input: the baseline named "without a5c3785", an assertion's sentence naming a
    # full hash and "owner/repo@<hash>". The summary wrote them as they are: links to
    # commits in the pull request's comment.
    ws, _ = named_example(tmp_path, BASELINE, sentence=f"Reverts {SHA} (see owner/repo@{SHA[:12]})")
    text = summary_md(tmp_path, ws, BASELINE)
    assert COMMIT.findall(outside_code(text)) == []
    assert f"without {SHA[:6]}\u200b{SHA[6:7]}" in text
    assert f"<code>ws/iteration-1/eval-1-book-flight/{BASELINE}/run-1</code>" in text  # in code, as written


def test_benchmark_md_links_no_commit(tmp_path, capsys):
    ws, _ = named_example(tmp_path, BASELINE, sentence=f"Reverts {SHA}")
    text = benchmark_md(tmp_path, ws, BASELINE)
    assert COMMIT.findall(outside_code(text)) == []
    assert SHA in text.replace("\u200b", "")


def test_each_part_is_short_and_numbers_are_kept():
    for write in (cell, html_line):
        shown = write(f"{SHA} {SHA.upper()} 1234567890 build 20260514")
        assert COMMIT.findall(shown) == ["1234567890", "20260514"]
        assert shown.replace("\u200b", "") == f"{SHA} {SHA.upper()} 1234567890 build 20260514"
    assert cell("v1.2.3 abc1234x") == "v1.2.3 abc1234x"  # within a word: no commit
    assert cell("deadbeef") == "deadbe\u200bef"  # hex letters alone may name one too
    assert cell("by octocat@a5c3785 in o/r.js@a5c3785") == "by octocat@a5c378\u200b5 in o/r.js@a5c378\u200b5"
    assert cell("rules booking.rules@c80e3172:7:1") == "rules booking.rules@c80e3172:7:1"  # no user
