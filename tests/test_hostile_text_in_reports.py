"""Text a graded run holds (names, file names, arguments) printed or rendered by
referee: it stays inside the line, cell or value it belongs to, so it can neither
forge a line of its own (a run that passed, a GitHub Actions workflow command such
as ``::add-mask::FAIL``, which the runner reads at the start of any line of a job's
log) nor add markup to a report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
EXAMPLE_RULES = REPO / "examples" / "booking-skill" / "booking.rules"
EXAMPLE_EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
FORGED = "::add-mask::FAIL"  # the runner would hide every later "FAIL" of the job's log


def _printed(capsys, *argv) -> str:
    capsys.readouterr()
    main([str(a) for a in argv])
    return capsys.readouterr().out


def _forged_lines(out: str) -> list[str]:
    """Lines the GitHub runner would read as workflow commands (it trims leading blanks)."""
    return [line for line in out.split("\n") if line.strip().startswith("::")]


def _one_run(base: Path, files: dict[str, str], rules: str) -> tuple[Path, Path]:
    run = base / "ws" / "eval-1-x" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    for name, text in files.items():
        (run / "outputs" / name).write_text(text, encoding="utf-8")
    (base / "h.rules").write_text('eval 1 "x"\n' + rules, encoding="utf-8")
    return base / "ws", base / "h.rules"


def test_an_eval_name_with_a_line_break_stays_on_its_line_in_compare(tmp_path, capsys):
    # Input: eval_metadata.json's eval_name "book\n::add-mask::FAIL", which compare
    # prints in its line for the eval.
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    metadata = workspace / "iteration-1" / "eval-1-book-flight" / "eval_metadata.json"
    document = json.loads(metadata.read_text(encoding="utf-8"))
    metadata.write_text(json.dumps({**document, "eval_name": f"book\n{FORGED}"}), encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(EXAMPLE_RULES), "--evals", str(EXAMPLE_EVALS)])
    out = _printed(capsys, "compare", workspace, "--check")
    assert _forged_lines(out) == []
    assert f"eval 1 (book\\n{FORGED})" in out


def test_an_output_file_name_with_a_line_break_stays_on_its_line_in_show(tmp_path, capsys):
    # Input: a file the agent wrote as outputs/"notes\n::add-mask::FAIL"; show lists
    # the run's files on one line.
    workspace, _ = _one_run(tmp_path, {"response.md": "hi\n", f"notes\n{FORGED}": "x"}, "")
    out = _printed(capsys, "show", workspace)
    assert _forged_lines(out) == []
    assert f"notes\\n{FORGED}" in out


def test_a_line_separator_in_quoted_evidence_starts_no_line_in_grade_verbose(tmp_path, capsys):
    # Input: a call whose argument is "x\u2028::add-mask::FAIL\u2028" (U+2028 LINE
    # SEPARATOR, which terminals do not break at); the failed assertion's evidence
    # quotes it, and --verbose prints the evidence whole.
    args = json.dumps({"q": f"x\u2028{FORGED}\u2028"}, ensure_ascii=False)
    transcript = f"## [tool_calls] Step 1: search\nTool: search\nArgs: {args}\nReturn: {{}}\nStatus: success\n"
    workspace, rules = _one_run(tmp_path, {"transcript.md": transcript},
                                'expect "searches cats": any calls to "search" have .args.q == "cats"\n')
    out = _printed(capsys, "grade", workspace, "--rules", rules, "--check", "--verbose", "--color", "never")
    assert _forged_lines(out) == []
    assert f"x\u2028{FORGED}\u2028" in out  # quoted as it is, inside its line


def test_an_eval_name_adds_no_markup_to_the_markdown_summary(tmp_path, capsys):
    # Input: eval_metadata.json's eval_name "![PASS](https://example.com/pass.svg) **PASS**",
    # shown in the summary's hints, which GitHub renders as Markdown: an image and bold
    # text that read as a verdict.
    workspace, rules = _one_run(tmp_path, {"response.md": "hi\n"}, 'expect "a file": exists file "nope.csv"\n')
    name = "![PASS](https://example.com/pass.svg) **PASS**"
    (workspace / "eval-1-x" / "eval_metadata.json").write_text(json.dumps({"eval_id": 1, "eval_name": name}),
                                                               encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(rules)])
    out = _printed(capsys, "report", workspace, "--format", "markdown", "-o", "-")
    hints = out.split("### Hints", 1)[1]
    assert "![PASS](" not in hints and "**PASS**" not in hints
    # the address links nowhere either: a zero-width space follows its scheme
    assert "!\\[PASS\\](https\u200b://example.com/pass.svg) \\*\\*PASS\\*\\*" in hints


def test_the_primary_s_name_adds_no_markup_to_the_decision_line_of_the_markdown_summary(tmp_path, capsys):
    # Input: configurations "with_skill **PASS** <b>x" (the primary, named by --primary)
    # and "without_skill"; the summary's decision line, which GitHub renders as Markdown,
    # began with the name as it is: bold text that reads as a verdict, and an HTML tag.
    rules = tmp_path / "h.rules"
    rules.write_text('eval 1 "x"\nexpect "says bye": response contains "bye"\n', encoding="utf-8")
    primary = "with_skill **PASS** <b>x"
    for configuration in (primary, "without_skill"):
        outputs = tmp_path / "ws" / "eval-1-x" / configuration / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text("hi\n", encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    out = _printed(capsys, "report", tmp_path / "ws", "--format", "markdown", "-o", "-", "--primary", primary)
    line = out.split("\n")[3]
    assert line == r"with_skill \*\*PASS\*\* &lt;b&gt;x: 0 of 1 run passed; gated assertions 0/1 passed"
