"""A line that looks like a ``[tool_calls]`` record heading but is not in the exact
form (``## [tool calls] Step 2: Bash``, ``### [tool_calls] Step 2: Bash``, a no-break
space, full-width brackets) is read as agent text with a ``not-a-record`` warning. What
follows it may be a call the harness wrote in a form it got wrong: the run's calls are
not known in full. Built from a real Claude Code session (tests/fixtures/real/claude-code/
hello-world-script, MIT), imported, then kept as a run's own transcript (no source map,
no metrics.json) with step 2's heading changed: ``no calls to "Bash"`` and
``count(calls) == 1`` passed over the Bash call under it; now both are ERRORs
(``record-heading-near-miss``, beside ``transcript-cut``: every check over calls). A line
the escaping convention leaves as written (behind a tab or four spaces, a character a
reader may not see, under full-width hashes) is agent text a harness that keeps the
convention writes: warned, the calls read stand. The exact transcript keeps its
verdicts, and a near-miss line inside a record's value (a tool's output) is no heading
the parse reads, so it changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from referee.engine.cli import main
from referee.engine.run.transcript import parse_transcript
from referee.engine.run.transcript_sections import may_hold_near_record, written_as_heading

SOURCE = (Path(__file__).resolve().parent / "fixtures" / "real" / "claude-code" / "hello-world-script"
          / "transcript.jsonl")
EXACT = "## [tool_calls] Step 2: Bash"
RULES = ('eval 1\nexpect 1: no calls to "Bash"\nexpect 2: count(calls) == 1\n'
         'expect 3: no calls with status error\n')
NEAR = ("## [tool calls] Step 2: Bash", "## [tool_calls] Step\u00a02: Bash", "## \uff3btool_calls\uff3d Step 2: Bash",
        "### [tool_calls] Step 2: Bash", "## [Tool_Calls] step 2: Bash", "## 【tool_calls】 Step 2: Bash",
        "## \\[tool_calls\\] Step 2: Bash", "   ##\t[tool_calls] Step 2: Bash")
# Agent text the escaping convention (engine.run.escape) leaves as written: no line of
# it starts with "#" after at most three spaces, so a harness that keeps the convention
# may write these from agent text. Reported, and the calls read stand.
WARNED = ("    ## [tool_calls] Step 2: Bash", "\t## [tool_calls] Step 2: Bash", "\x0c#[TOOLCALL]",
          "\u200b## [tool_calls] Step 2: Bash", "\uff03\uff03 [tool_calls] Step 2: Bash")


def _run(tmp_path: Path, capsys, heading: str | None = None, value: str | None = None,
         notes: str | None = None) -> list[dict]:
    """The verdicts of the imported session kept as its own transcript, step 2's
    heading replaced by ``heading``, ``value`` put in step 1's Return, or ``notes``
    added to the agent's last section."""
    assert main(["import", "claude-code", str(SOURCE), "--out", str(tmp_path / "imported")]) == 0
    capsys.readouterr()
    run = tmp_path / "imported" / "transcript"
    (run / "source_map.json").unlink()
    (run / "outputs" / "metrics.json").unlink()
    view = run / "outputs" / "transcript.md"
    text = view.read_text(encoding="utf-8")
    assert text.count(EXACT) == 1
    if heading is not None:
        text = text.replace(EXACT, heading)
    if value is not None:
        text = text.replace('Return: "File created successfully at: <cwd>/hello.sh"', f"Return: {value}")
    if notes is not None:
        text = text.rstrip("\n") + f"\n\n{notes}\n"
    view.write_text(text, encoding="utf-8")
    workspace = tmp_path / "ws" / "iteration-1" / "eval-1" / "with_skill"
    workspace.mkdir(parents=True)
    run.rename(workspace / "run-1")
    rules = tmp_path / "near.rules"
    rules.write_text(RULES, encoding="utf-8")
    main(["grade", str(tmp_path / "ws" / "iteration-1"), "--rules", str(rules), "--check", "--json"])
    [graded] = json.loads(capsys.readouterr().out)["runs"]
    return graded["expectations"]


def _outcomes(rows: list[dict]) -> list[str]:
    return [row["outcome"] for row in rows]


def test_the_exact_transcript_keeps_its_verdicts(tmp_path: Path, capsys):
    assert _outcomes(_run(tmp_path, capsys)) == ["fail", "fail", "pass"]


@pytest.mark.parametrize("heading", NEAR)
def test_a_near_miss_heading_leaves_the_calls_unknown(tmp_path: Path, capsys, heading: str):
    rows = _run(tmp_path, capsys, heading)
    assert _outcomes(rows) == ["error", "error", "error"], heading
    assert "looks like a [tool_calls] record heading" in rows[0]["evidence"]


def test_a_near_miss_heading_that_no_blank_line_can_end_a_record_before_is_part_of_it(tmp_path: Path, capsys):
    # "##" and a no-break space is no Markdown heading: the record above reads it as a
    # line of its own, and a second Tool line after it; the record is not trusted, and
    # its calls, seen, fail the checks that none was made
    rows = _run(tmp_path, capsys, "##\u00a0[tool_calls] Step 2: Bash")
    assert _outcomes(rows)[:2] == ["fail", "fail"]


@pytest.mark.parametrize("line", WARNED)
def test_a_near_miss_line_the_escaping_convention_leaves_is_agent_text(tmp_path: Path, capsys, line: str):
    # after the agent's closing notes, as agent text stands in the real session
    rows = _run(tmp_path, capsys, notes=f"{line}\nTool: Bash\nStatus: success")
    assert _outcomes(rows) == ["fail", "fail", "pass"], line


def test_a_near_miss_line_in_a_tool_output_changes_nothing(tmp_path: Path, capsys):
    shown = '"## [tool calls] Step 9: Bash"'
    assert _outcomes(_run(tmp_path, capsys, value=shown)) == ["fail", "fail", "pass"]


_PIECES = st.sampled_from([EXACT, "## [tool_calls] Step 3: Read", *NEAR, *WARNED, "## [agent_notes] Step 1: plan",
                           "Tool: Bash", 'Args: {"command": "ls"}', "Return: ok", "Status: success", "",
                           "# [tool_calls]", " ## [TOOL CALLS]", "text about [tool_calls] headings", "## Summary",
                           "```", "## [tool_calls] Step 03: Bash", "##[tool_calls] Step 2: Bash"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=14))
def test_the_search_before_the_parse_misses_no_near_heading_the_parse_reports(pieces):
    """``may_hold_near_record`` tells without parsing that a transcript holds no line
    ``near_record`` would take: where it says False, the parse reports none."""
    text = "\n".join(pieces)
    reported = [p for p in parse_transcript(text).problems if p.code == "not-a-record" and p.line is not None]
    lines = text.split("\n")
    if any(written_as_heading(lines[p.line - 1]) for p in reported):
        assert may_hold_near_record(text)
