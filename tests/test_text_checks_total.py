"""Every check of a text (the response, an HTML file, the agent's notes, a call's
return) ends in a verdict its reader can act on, whatever
Markdown and HTML the text holds: never an exception inside a check, which
``evaluate`` turns into "error while evaluating: IndexError ..." (an ERROR naming no
markup and no line). Two were found so, each fixed: two hidden places in one blank at a
text's end (``markdown_equal.compared``), and a ``<pre`` start tag going on over lines
(``html_pre.pre_shown``). The texts are built from pieces a reader treats apart."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from referee import dsl
from referee.engine.compile import Program, compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

PIECES = ["Done.", "a b", "Total: 1,250.50", "12 Jan", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\u00a0", "\u200b",
          "# Report\n", "## Status\n", "Title\n---\n", "---\n", "- ", "1. ", "> ", "    ", "```\n", "~~~\n", "`",
          "**", "_", "~~", "\\", "&amp;", "&#114;", "&", "[a](b)", "![i](x)", "| a | b |\n|---|---|\n",
          "<!-- x -->", "<!--", "-->", "<b>", "</b>", "<span id=\"t\"></span>", "<div>\n", "</div>\n",
          "<details>\n", "<summary>", "<pre>", "<pre\n", "<pre ", "</pre>", "<code>", "<script>", "</script>",
          "<textarea>", "<h2>T</h2>", "<p>", "<br/>", "<xmp>", "<", ">", "１", "²", "é", "e\u0301", "İ"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)

CHECKS = ['response == "Done."', 'trim(response) == "Done."', 'response != "a b"', 'response in ["Done.", "a b"]',
          'response contains "Done"', 'response starts with "Done"', 'trim(response) ends with "Done."',
          'response matches /Total: \\d+/', 'response contains "done" ignoring case',
          'section(response, "Status") contains "Done"', 'trim(section(response, "Report")) == "Done."',
          'count(headings(response)) >= 0', 'count(parts(response)) >= 1', 'count(quotes(response)) >= 0',
          'no code(response) where . contains "rm"', 'any lines(response) where . == "Done."',
          'count(words(response)) >= 0', 'numbers(response) contains 1250.5', 'collapse(response) contains "a b"',
          'lower(response) contains "done"', 'length(response) >= 0',
          'not (replace(response, "a", "b") contains "zz")']


def _program(checks: list[str]) -> Program:
    """Eval 1 of the rules expecting each of ``checks``, compiled."""
    rules = "eval \"1\"\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(checks, start=1))
    return compile_rules([dsl.parse_rules(rules, "total.rules")])


def _raised(checks: list[str], program: Program, files: dict[str, str]) -> list[tuple[str, str]]:
    """Each check of ``program`` whose verdict on a run of ``files`` is an exception raised inside it."""
    run = memory_run(files)
    verdicts = evaluate(program.for_run(run.id, run.metadata), run)
    return [(check, verdict.message) for check, verdict in zip(checks, verdicts)
            if verdict.message.startswith("error while evaluating")]


PROGRAM = _program(CHECKS)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_no_check_of_a_text_raises(text: str):
    raised = _raised(CHECKS, PROGRAM, {"outputs/response.md": text})
    assert not raised, (json.dumps(text), raised)


OTHER_CHECKS = ['file "page.html" contains "rm"', 'no code(file "page.html") where . contains "rm"',
                'section(file "page.html", "Status") contains "Done"', 'count(headings(file "page.html")) >= 0',
                'count(parts(file "page.html")) >= 0', 'trim(file "page.html") == "Done."',
                'file "page.html" ends with "Done."', 'any notes have .text contains "Done"',
                'no notes have .text contains "rm"', 'any calls have .return contains "Done"',
                'no calls have .return == "Done."',
                'no calls where .return matches /rm -rf/']
OTHER_PROGRAM = _program(OTHER_CHECKS)


@settings(max_examples=150, deadline=None)
@given(page=TEXTS, notes=TEXTS, returned=TEXTS)
def test_no_check_of_a_file_notes_or_return_raises(page: str, notes: str, returned: str):
    transcript = (f"## [agent_notes] Step 1: plan\n{notes}\n\n## [tool_calls] Step 1: Bash\nTool: Bash\n"
                  f"Args: {{\"command\": \"ls\"}}\nReturn: {json.dumps(returned)}\nStatus: success\n")
    files = {"outputs/page.html": page, "outputs/transcript.md": transcript, "outputs/response.md": "Done."}
    raised = _raised(OTHER_CHECKS, OTHER_PROGRAM, files)
    assert not raised, (json.dumps([page, notes, returned]), raised)
