"""A list of calls or of harness text read in part decides a check where what was read
decides it for every list that goes on from there, and is an ERROR elsewhere.

- Calls: a real Claude Code session (fixtures/real/claude-code/hello-world-script, MIT)
  imported and kept as a run's own transcript, with a third record cut inside it (no
  Status line: ``transcript-cut``). Its Write and Bash calls were read: 'no calls to
  "Bash"' FAILs (a call read is a call made), 'any calls to "Bash"' PASSes, and
  'count(calls) <= 1' FAILs; each was an ERROR. 'no calls to "Glob"', 'count(calls) >= 10',
  'all calls ...' where those read all pass, first(...), last(...) and order stay ERRORs.
- Harness: a real stream-json run (fixtures/real/claude-code/stream-api-retry) cut before
  its result record (``harness-may-be-missing``): the three "overloaded" retries read fail
  'no harness where .text contains "overloaded"', and 'exactly 2 harness where ...' with
  three read; 'exactly 3 harness where ...' stays an ERROR.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.cli import main

REAL = Path(__file__).resolve().parent / "fixtures" / "real" / "claude-code"
SESSION = REAL / "hello-world-script" / "transcript.jsonl"
STREAM = REAL / "stream-api-retry" / "claude_stream_overloaded_retries.jsonl"
CUT = "## [tool_calls] Step 3: Read\nTool: Read\nArgs: {\"file_path\": \"<cwd>/hel"

DECIDED = {
    'no calls to "Bash"': "fail",
    'no calls to "Write" where .args.file_path contains "hello.sh"': "fail",
    'any calls to "Bash"': "pass",
    'exists calls to "Bash" with status success': "pass",
    'count(calls to "Bash") >= 1': "pass",
    "count(calls) <= 1": "fail",
    "count(calls) == 1": "fail",
    "count(calls) != 1": "pass",
    "exactly 1 calls": "fail",
    'exactly 0 calls to "Bash"': "fail",
    'any calls to "Bash" have .return contains "Hello world"': "pass",
    'all calls have .tool == "Write"': "fail",
    'not (no calls to "Bash")': "pass",
}
UNDECIDED = (
    'no calls to "Glob"',
    "count(calls) >= 10",
    "count(calls) == 3",
    "exactly 3 calls",
    'all calls to "Bash" have .return contains "Hello"',
    "no calls with status error",
    'last(calls).tool == "Bash"',
    'first(calls to "Glob").tool == "Glob"',
    'calls to "Write" before calls to "Bash"',
    'only [calls to "Write", calls to "Bash"]',
)


def _graded(tmp_path: Path, capsys, checks: list[str], cut: bool = True) -> list[dict]:
    """The verdicts of ``checks`` on the imported session kept as its own transcript,
    with a third record cut inside it (``cut``), or whole."""
    assert main(["import", "claude-code", str(SESSION), "--out", str(tmp_path / "imported")]) == 0
    capsys.readouterr()
    run = tmp_path / "imported" / "transcript"
    (run / "source_map.json").unlink()
    (run / "outputs" / "metrics.json").unlink()
    view = run / "outputs" / "transcript.md"
    if cut:
        view.write_text(view.read_text(encoding="utf-8").rstrip("\n") + f"\n\n{CUT}", encoding="utf-8")
    workspace = tmp_path / "ws" / "iteration-1" / "eval-1" / "with_skill"
    workspace.mkdir(parents=True)
    run.rename(workspace / "run-1")
    rules = tmp_path / "part.rules"
    rules.write_text("eval 1\n" + "".join(f"expect {n}: {c}\n" for n, c in enumerate(checks, 1)), encoding="utf-8")
    main(["grade", str(tmp_path / "ws" / "iteration-1"), "--rules", str(rules), "--check", "--json"])
    [graded] = json.loads(capsys.readouterr().out)["runs"]
    return graded["expectations"]


def test_calls_read_decide_where_they_decide_for_any_calls_after_them(tmp_path: Path, capsys):
    rows = _graded(tmp_path, capsys, list(DECIDED))
    assert {c: r["outcome"] for c, r in zip(DECIDED, rows)} == DECIDED
    # the evidence says the list was read in part, and why
    assert all("transcript ends inside the [tool_calls] record of step 3" in r["evidence"] for r in rows), rows


def test_calls_read_that_do_not_decide_leave_an_error(tmp_path: Path, capsys):
    rows = _graded(tmp_path, capsys, list(UNDECIDED))
    assert {c: r["outcome"] for c, r in zip(UNDECIDED, rows)} == {c: "error" for c in UNDECIDED}
    assert all("transcript ends inside the [tool_calls] record of step 3" in r["evidence"] for r in rows), rows


def test_the_whole_session_gives_the_same_verdicts_where_the_cut_decides(tmp_path: Path, capsys):
    """Every verdict the cut gives is the whole run's: the calls after a cut cannot change it."""
    rows = _graded(tmp_path, capsys, list(DECIDED), cut=False)
    assert {c: r["outcome"] for c, r in zip(DECIDED, rows)} == DECIDED


HARNESS = {
    'no harness where .text contains "overloaded"': "fail",
    'exists harness where .text contains "529"': "pass",
    'exactly 2 harness where .text contains "overloaded"': "fail",
    'exactly 3 harness where .text contains "overloaded"': "error",
    'no harness where .text contains "no such words"': "error",
}


@pytest.mark.parametrize("keep", [4, 12, 20])
def test_harness_text_read_before_a_stream_cut_decides_where_it_decides(tmp_path: Path, keep: int):
    lines = STREAM.read_text(encoding="utf-8").splitlines(keepends=True)
    source = tmp_path / "stream.jsonl"
    source.write_text("".join(lines[:keep]), encoding="utf-8")
    rules = "eval 1\n" + "".join(f"expect {n}: {c}\n" for n, c in enumerate(HARNESS, 1))
    rows = referee.grade(rules, source, as_eval="1")[0].grading["expectations"]
    assert {c: r["outcome"] for c, r in zip(HARNESS, rows)} == HARNESS
