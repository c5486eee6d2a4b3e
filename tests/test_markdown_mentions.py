"""A name from a workspace that reads ``@someone`` notifies no one when a Markdown
report is posted on GitHub: outside code (fenced blocks, code spans, ``<code>``),
where GitHub reads mentions, every ``@`` before a name is followed by a zero-width
space, in the summary of ``report --format markdown`` and in benchmark.md alike."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from named_example import EVALS, EXAMPLE, RULES, benchmark_md, named_example, outside_code, summary_md
from referee.engine.cli import main

BASELINE = "without @octocat"
# What GitHub would read as a mention: "@" then a user or organisation name, not
# within a word ("pass@k", "ana@example.com").
MENTION = re.compile(r"(?<![A-Za-z0-9_])@[A-Za-z0-9]")


def _workspace(tmp_path: Path) -> Path:
    """The example, its baseline named "without @octocat", eval 1 named "book @alice" and
    an assertion's sentence naming "@org/team"."""
    return named_example(tmp_path, BASELINE, "book @alice", "The booked flight is LX2084, cc @org/team")[0]


def test_the_markdown_summary_mentions_no_one(tmp_path, capsys):
    ws = _workspace(tmp_path)
    # the baseline as primary: its failures (the eval's and assertion's names) are listed
    text = summary_md(tmp_path, ws, BASELINE)
    assert "without @\u200boctocat" in text and "cc @\u200borg/team" in text
    assert MENTION.findall(outside_code(text)) == []
    # inside code the name stays as written: a path copied from it is the path
    assert "<code>ws/iteration-1/eval-1-book-flight/without @octocat/run-1</code>" in text


def test_benchmark_md_mentions_no_one(tmp_path, capsys):
    ws = _workspace(tmp_path)
    text = benchmark_md(tmp_path, ws, BASELINE)
    assert "without @\u200boctocat" in text and "cc @\u200borg/team" in text
    assert MENTION.findall(outside_code(text)) == []


def test_an_address_or_a_rules_place_is_kept_as_written_in_code(tmp_path, capsys):
    # Inside a fenced block GitHub reads no mention: evidence quoting an address or
    # a rules place ("booking.rules@c80e3172:11:1") is shown as it is.
    ws = _workspace(tmp_path)
    out = tmp_path / "summary.md"
    main(["report", str(ws), "--format", "markdown", "-o", str(out), "--primary", BASELINE])
    fenced = "".join(m.group(0) for m in re.finditer(r"(`{3,})text\n.*?\n\1", out.read_text(encoding="utf-8"),
                                                      re.DOTALL))
    assert "ana.mueller@example.com" in fenced
    assert "\u200b" not in fenced


def test_the_primary_named_where_nothing_failed_is_text(tmp_path, capsys):
    # Input: the primary configuration's folder named "**with** @octocat"; the summary's
    # "No assertion failed in ..." line wrote it raw: bold, and a mention.
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    primary = "**with** @octocat"
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink()
    for eval_dir in sorted((ws / "iteration-1").iterdir()):
        (eval_dir / "with_skill").rename(eval_dir / primary)
    assert main(["grade", str(ws), "--rules", str(RULES), "--evals", str(EVALS)]) in (0, 1)
    out = tmp_path / "summary.md"
    main(["report", str(ws), "--format", "markdown", "-o", str(out), "--primary", primary])
    text = out.read_text(encoding="utf-8")
    assert "No assertion failed in \\*\\*with\\*\\* @\u200boctocat." in text
    assert MENTION.findall(outside_code(text)) == []
