"""A name from a workspace starts no block in a Markdown report: in a list item (a
context line, a hint) or a line of its own (the decision line), a name written
"1. old", "- old" or indented by four spaces would make a list or a code block of
its own when GitHub renders it."""

from __future__ import annotations

import shutil

from named_example import EVALS, EXAMPLE, RULES
from referee.engine.cli import main
from referee.engine.report.markdown_text import cell

def test_a_list_marker_or_an_indent_first_in_a_cell_is_no_block():
    assert cell("1. old") == "1\\. old"
    assert cell("2) old") == "2\\) old"
    assert cell("- old") == "\\- old"
    assert cell("+ old") == "\\+ old"
    assert cell("    old") == "old"
    # not list markers: a number, a signed delta, a key
    assert cell("12.5 s") == "12.5 s" and cell("+78 pts") == "+78 pts" and cell("1#4 x") == "1#4 x"


def test_the_summary_lines_start_no_list(tmp_path, capsys):
    # Input: configuration folders named "1. new" and "- old"; the decision line
    # names the primary first, a context item the baseline.
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink()
    for eval_dir in sorted((ws / "iteration-1").iterdir()):
        (eval_dir / "with_skill").rename(eval_dir / "1. new")
        (eval_dir / "without_skill").rename(eval_dir / "- old")
    assert main(["grade", str(ws), "--rules", str(RULES), "--evals", str(EVALS)]) in (0, 1)
    out = tmp_path / "summary.md"
    main(["report", str(ws), "--format", "markdown", "-o", str(out), "--primary", "1. new", "--baseline", "- old"])
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[3].startswith("1\\. new: ")  # the decision line
    assert any(line.startswith("- \\- old (baseline") for line in lines)  # the context item
    assert not [line for line in lines if line.startswith(("1. ", "- - ", "- 1. "))]
