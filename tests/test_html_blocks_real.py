"""Code, quotes and rules written as HTML in real Markdown (engine/checks/html_blocks.py,
html_pre.py): the audit report of tests/fixtures/real/word-count-audit-workspace
(SOURCE.md: z5labs/ai at 3d4ab8d, MIT) with one of its findings written as a <pre>
element, a <blockquote> or under an <hr>, as a model writes them, and a real transcript
whose <details> and <summary> wrap fenced code, which stays code."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.checks import textparts
from referee.engine.values import EvalError, Prov, Val

REAL = Path(__file__).resolve().parent / "fixtures" / "real"
REPORT = REAL / "word-count-audit-workspace/iteration-7/eval-2/with_skill/outputs/audit-report.md"
TRANSCRIPT = (REAL / "context-engineering-workspace/iteration-11-gemini-3.1-pro-preview-postfix/eval-2-conflict"
              "/with_skill/run-1/transcript.md")
FINDING = "- `SKILL.md:3` — description claims"


def _report(replace_finding_with: str) -> Val:
    text = REPORT.read_bytes().decode("utf-8")
    line = next(line for line in text.split("\n") if line.startswith(FINDING))
    return Val(text.replace(line, replace_finding_with.format(line=line)),
               Prov("response", "audit-report.md", "outputs/audit-report.md", 1))


def test_a_finding_written_as_a_pre_element_is_a_code_block():
    arg = _report("<pre><code>rm -rf ./.claude/skills/word-count\n</code></pre>")
    found = textparts.code(arg)
    assert found.value == ["rm -rf ./.claude/skills/word-count"]
    assert found.items[0].prov.line == 23


def test_references_in_a_pre_element_show_their_characters():
    arg = _report("<pre>\ngrep -c '&lt;path&gt;' SKILL.md &amp;&amp; echo ok\n</pre>")
    assert textparts.code(arg).value == ["grep -c '<path>' SKILL.md && echo ok"]


def test_a_pre_element_inside_the_finding_s_line_cannot_be_read():
    arg = _report("{line} Run <pre>rm -rf build</pre> first.")
    with pytest.raises(EvalError, match=r"<pre> element that opens no line \(at audit-report.md:23\)"):
        textparts.code(arg)


def test_a_finding_in_a_blockquote_element_is_a_quote():
    arg = _report("<blockquote>\n\n{line}\n\n</blockquote>")
    found = textparts.quotes(arg)
    assert len(found.value) == 1 and found.value[0].startswith(FINDING)
    assert found.items[0].prov.line == 25


def test_an_hr_line_splits_the_report_into_parts():
    arg = _report("{line}\n\n<hr />")
    found = textparts.parts(arg).value
    assert len(found) == 2 and found[0].endswith("multiple paths.") and found[1].startswith("### Security")


def test_an_hr_beside_the_finding_cannot_be_read_by_lines():
    with pytest.raises(EvalError, match="rule written in HTML beside other text"):
        textparts.parts(_report("{line}<hr>"))


def test_fenced_code_under_details_and_summary_stays_code():
    text = TRANSCRIPT.read_bytes().decode("utf-8")
    arg = Val(text, Prov("response", "transcript.md", "transcript.md", 1))
    blocks = textparts.code(arg).value
    assert any(block.startswith("1. ---\n2. name: context-engineering") for block in blocks)
    assert [quote[:7] for quote in textparts.quotes(arg).value] == ["[!NOTE]"]
