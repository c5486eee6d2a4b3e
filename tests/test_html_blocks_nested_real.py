"""HTML blocks where they stand inside other Markdown, on real text: the transcript of
tests/fixtures/real/context-engineering-workspace (SOURCE.md there names its source and
licence) whose <details> and <summary> wrap fenced code, cut so no blank line parts the
summary from the fence; and the audit report of tests/fixtures/real/word-count-audit-workspace
(SOURCE.md: z5labs/ai at 3d4ab8d, MIT) with a <pre> on a list item's marker line, an
escaped tag, and an <hr> item beside its finding."""

from __future__ import annotations

from pathlib import Path

from referee.engine.checks import textparts
from referee.engine.values import Prov, Val

REAL = Path(__file__).resolve().parent / "fixtures" / "real"
REPORT = REAL / "word-count-audit-workspace/iteration-7/eval-2/with_skill/outputs/audit-report.md"
TRANSCRIPT = (REAL / "context-engineering-workspace/iteration-11-gemini-3.1-pro-preview-postfix/eval-2-conflict"
              "/with_skill/run-1/transcript.md")
FINDING = "- `SKILL.md:3` — description claims"
SUMMARY = "<summary>141 lines</summary>\n"


def _transcript(cut: bool) -> Val:
    text = TRANSCRIPT.read_bytes().decode("utf-8")
    assert SUMMARY + "\n````" in text
    text = text.replace(SUMMARY + "\n", SUMMARY, 1) if cut else text
    return Val(text, Prov("response", "transcript.md", "transcript.md", 1))


def _report(replace_finding_with: str) -> Val:
    text = REPORT.read_bytes().decode("utf-8")
    line = next(line for line in text.split("\n") if line.startswith(FINDING))
    return Val(text.replace(line, replace_finding_with.format(line=line)),
               Prov("response", "audit-report.md", "outputs/audit-report.md", 1))


def _skill_listing(blocks: list[str]) -> bool:
    return any(block.startswith("1. ---\n2. name: context-engineering") for block in blocks)


def test_a_fence_right_under_the_summary_is_html_text_no_code():
    assert _skill_listing(textparts.code(_transcript(cut=False)).value)
    blocks = textparts.code(_transcript(cut=True)).value
    assert not _skill_listing(blocks)
    assert len(blocks) == 7  # the transcript's other blocks stay


def test_a_heading_in_a_pre_on_a_marker_line_ends_no_section():
    arg = _report("- <pre>\n  ## Security\n  </pre>\n{line}")
    found = textparts.section(arg, Val("Strict definitions", None)).value
    assert FINDING in found


def test_an_escaped_pre_tag_in_the_finding_is_text():
    arg = _report("{line} Write \\<pre> to keep it.")
    assert textparts.code(arg).value == []


def test_an_hr_item_under_the_finding_splits_the_report():
    found = textparts.parts(_report("{line}\n- <hr>")).value
    assert len(found) == 2 and found[0].endswith("multiple paths.") and found[1].startswith("### Security")


def test_a_heading_inside_a_div_block_ends_no_section():
    arg = _report("<div>\n### Note\n</div>\n{line}")
    found = textparts.section(arg, Val("Strict definitions", None)).value
    assert FINDING in found
