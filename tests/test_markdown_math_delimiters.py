"""A name from a workspace that holds dollar signs (``$\\color{green}{PASS}$``, or two
prices on one line) is shown as written when a Markdown report is posted on GitHub,
never as a math expression: GitHub renders text between two ``$`` of a line as LaTeX
(with MathJax: colours, other letters), and a backslash does not stop it; a ``$``
inside ``<span>`` delimits nothing. Outside code, each ``$`` of a name is written so,
in the summary of ``report --format markdown`` and in benchmark.md alike."""

from __future__ import annotations

import re

from named_example import benchmark_md, named_example, outside_code, summary_md
from referee.engine.report.markdown_text import cell, code_span, html_code, html_line

BASELINE = "without $5"
SENTENCE = r"The booked flight is LX2084 $\color{green}{\textsf{PASS}}$"


def _bare_dollars(text: str) -> int:
    return len(re.findall(r"\$", re.sub(r"<span>\$+</span>", "", text)))


def _workspace(tmp_path):
    return named_example(tmp_path, BASELINE, "book $6", SENTENCE)[0]


def test_the_markdown_summary_writes_no_math_delimiter(tmp_path, capsys):
    # Input: the baseline named "without $5", eval 1 "book $6" and an assertion's sentence
    # holding "$\color{green}{\textsf{PASS}}$". The summary wrote each "$" as it is, and
    # GitHub drew a green "PASS" in the failure's line (and set "5 ... " as math).
    ws = _workspace(tmp_path)
    text = summary_md(tmp_path, ws, BASELINE)
    assert "without <span>$</span>5" in text
    assert _bare_dollars(outside_code(text)) == 0


def test_benchmark_md_writes_no_math_delimiter(tmp_path, capsys):
    ws = _workspace(tmp_path)
    text = benchmark_md(tmp_path, ws, BASELINE)
    assert "book <span>$</span>6" in text
    assert _bare_dollars(outside_code(text)) == 0


def test_dollars_in_code_stay_as_written():
    assert cell("a $x$ b") == "a <span>$</span>x<span>$</span> b"
    assert html_line("a $x$") == "a <span>$</span>x<span>$</span>"
    assert html_code("a $x$") == "a $x$" and code_span("a $x$") == "`a $x$`"
    assert cell("no dollars") == "no dollars"
    assert cell("$$x$$") == "<span>$$</span>x<span>$$</span>"
