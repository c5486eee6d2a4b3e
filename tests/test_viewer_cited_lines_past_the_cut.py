"""The HTML viewer shows a file line by line up to 20,000 lines and counts the rest;
a line the evidence cites is shown whatever its place, highlighted, with the
evidence's link landing on it. Opened in headless Chromium, as
``test_report_html_browser`` does."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from browser import dump
from referee.engine.cli import main
from referee.engine.report.viewer_data import MAX_LINES


def _row(dom: str, row_id: str) -> str:
    start = dom.rindex("<", 0, dom.index(f'id="{row_id}"'))
    return dom[start:dom.index("</tr>", start)]


def test_a_cited_line_past_the_lines_shown_is_shown_and_highlighted(tmp_path: Path):
    # Input: outputs/data.txt of 30,000 lines whose line 25,000 holds "NEEDLE here";
    # `not file "data.txt" contains "NEEDLE"` fails citing data.txt:25000. The viewer
    # showed lines 1 to 20,000 and "... and 10000 more lines": the evidence linked to a
    # line the page did not have, and the cited line was nowhere.
    outputs = tmp_path / "ws" / "eval-1-a" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    lines = [f"row {n}" for n in range(1, 30_001)]
    lines[24_999] = "NEEDLE here"
    (outputs / "data.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (outputs / "response.md").write_text("ok\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "a"\nexpect "no needle": not file "data.txt" contains "NEEDLE"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    page = tmp_path / "out" / "report.html"
    page.parent.mkdir()
    assert main(["report", str(tmp_path / "ws"), "-o", str(page)]) == 1
    assert 25_000 > MAX_LINES
    dom = dump(page, tmp_path, "#run=0&line=1:25000", budget_ms=5000)
    assert 'href="#run=0&amp;line=1:25000"' in dom  # the evidence's link
    row = _row(dom, "l-1-25000")
    assert 'class="cited cited-failure target"' in row and "NEEDLE here" in unescape(row)
    assert ">1#1<" in row  # and the line links back to the assertion
    assert "row 20000" in dom and "row 20001" not in dom and "row 24999" not in dom  # the rest is counted
    assert re.search(r"… and 10000 more lines", unescape(dom))
