"""A heading written in HTML (``<h3>Strict definitions</h3>``) in a Markdown text is a
heading to every reader of the rendered text, and so is every heading of an HTML file.
``section`` and ``headings`` read Markdown's own headings: where such a heading is titled
as asked, or ends the section found, or may be among the headings listed, the check is
an ERROR, never a pass of ``not section(...) contains`` on a section found nowhere.

Built on the real audit report of ``word-count-audit-workspace`` (SOURCE.md), its
``### Strict definitions`` heading written as HTML, as an agent may write it."""

from __future__ import annotations

import shutil
from pathlib import Path

import referee

REPORT = (Path(__file__).parent / "fixtures" / "real" / "word-count-audit-workspace" / "iteration-7" / "eval-2"
          / "with_skill" / "outputs" / "audit-report.md")


def _outcomes(tmp_path: Path, text: str, *checks: str, name: str = "audit-report.md") -> list[str]:
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    shutil.rmtree(tmp_path / "eval-1", ignore_errors=True)
    outputs.mkdir(parents=True)
    (outputs / name).write_text(text, encoding="utf-8")
    rules = "eval 1\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(checks, 1))
    (result,) = referee.grade(rules, tmp_path)
    return [item["outcome"] for item in result.expectations]


def _in_html(heading: str) -> str:
    text = REPORT.read_text(encoding="utf-8")
    assert f"\n### {heading}\n" in text
    return text.replace(f"\n### {heading}\n", f"\n<h3>{heading}</h3>\n", 1)


def test_a_section_titled_by_an_html_heading_is_undecided(tmp_path: Path):
    text = _in_html("Strict definitions")
    assert _outcomes(tmp_path, text,
                     'not (section(file "audit-report.md", "Strict definitions") contains "SKILL.md:3")',
                     'section(file "audit-report.md", "Strict definitions") is empty',
                     'not ("Strict definitions" in headings(file "audit-report.md"))',
                     'count(headings(file "audit-report.md")) == 8',
                     ) == ["error"] * 4


def test_an_html_heading_inside_the_section_found_leaves_its_end_undecided(tmp_path: Path):
    text = _in_html("Security")
    # "Strict definitions" ends, to a reader, where <h3>Security</h3> stands
    assert _outcomes(tmp_path, text,
                     'section(file "audit-report.md", "Strict definitions") contains "SKILL.md:3"',
                     'not (section(file "audit-report.md", "Strict definitions") contains "No findings")',
                     'section(file "audit-report.md", "Idempotency") contains "No findings"',
                     ) == ["error", "error", "pass"]


def test_html_headings_in_code_or_of_a_text_file_change_nothing(tmp_path: Path):
    text = REPORT.read_text(encoding="utf-8")
    fenced = text + "\n```html\n<h3>Security</h3>\n```\n"
    spanned = text + "\nWrite `<h3>Security</h3>` for a heading.\n"
    checks = ('not (section(file "audit-report.md", "Security") contains "SKILL.md:3")',
              'count(headings(file "audit-report.md")) == 9')
    assert _outcomes(tmp_path, text, *checks) == ["pass", "pass"]
    assert _outcomes(tmp_path, fenced, *checks) == ["pass", "pass"]
    assert _outcomes(tmp_path, spanned, *checks) == ["pass", "pass"]
    plain = "<h2>Risks</h2>\nsecret\n"
    assert _outcomes(tmp_path, plain, 'not (section(file "r.txt", "Risks") contains "secret")',
                     name="r.txt") == ["pass"]


def test_a_heading_of_an_html_file_is_read_as_one(tmp_path: Path):
    page = "<html><body><h1>Report</h1>\n<h2>Risks</h2>\n<p>secret</p>\n</body></html>\n"
    assert _outcomes(tmp_path, page, 'not (section(file "r.html", "Risks") contains "secret")',
                     'not (section(file "r.html", "Costs") contains "secret")', name="r.html") == ["error", "pass"]
