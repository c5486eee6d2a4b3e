"""Reports for CI: a baseline that fails by design is context, never a failure, and
annotations land on files that exist, by their path from the repository root."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"


def _repo(tmp_path: Path, benchmark: bool = False) -> Path:
    """A checkout: the example graded, its rules beside it, no benchmark.json unless asked."""
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo / "evals" / "workspace")
    shutil.copy(RULES, repo / "evals" / "booking.rules")
    if not benchmark:
        (repo / "evals" / "workspace" / "benchmark.json").unlink()
    return repo


def _report(cwd: Path, *argv: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "report", *argv, "-o", "-"], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode in (0, 1, 3) and "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout


def test_junit_reports_the_baseline_as_skipped_context_with_a_root_skipped_count(tmp_path: Path):
    repo = _repo(tmp_path)
    code, text = _report(repo, "evals/workspace", "--format", "junit", "--primary", "with_skill")
    assert code == 0  # with_skill passes every gated assertion; the baseline does not count
    root = ET.fromstring(text)
    suites = root.findall("testsuite")
    assert root.get("failures") == "0" and root.get("errors") == "0"
    assert int(root.get("skipped")) == sum(int(s.get("skipped")) for s in suites) == 16
    baseline = [s for s in suites if "without_skill" in s.get("name")]
    assert baseline and all(s.get("name").endswith(" (baseline)") for s in baseline)
    reasons = {sk.get("message") for s in baseline for sk in s.iter("skipped") if sk.get("message")}
    assert reasons == {"baseline without_skill: this FAIL is context, not a failure (the gate counts with_skill)"}
    code, plain = _report(repo, "evals/workspace", "--format", "junit")  # no primary known: every run counts
    assert code == 1 and ET.fromstring(plain).get("failures") == "10"


def test_annotations_are_for_the_primary_alone_and_name_files_that_exist(tmp_path: Path):
    repo = _repo(tmp_path)
    (repo / "evals" / "extra.rules").write_text('eval 2\nexpect "mentions a refund": response contains "refund"\n',
                                                encoding="utf-8")
    assert main(["grade", str(repo / "evals" / "workspace"), "--rules", str(repo / "evals" / "booking.rules"),
                 str(repo / "evals" / "extra.rules")]) == 1
    _, text = _report(repo, "evals/workspace", "--format", "github", "--primary", "with_skill",
                      "--rules", "evals/booking.rules", "evals/extra.rules")
    errors = [line for line in text.splitlines() if line.startswith(("::error", "::warning"))]
    assert errors and not any("without_skill" in line for line in errors)
    assert any(line.startswith("::notice title=referee context::without_skill (baseline") for line in text.splitlines())
    _assert_files_exist(repo, text)
    placed = re.findall(r"file=([^,]+),line=(\d+)", text)
    assert ("evals/extra.rules", "2") in placed  # a failure citing no line lands on its rules line


def test_paths_are_from_the_root_whatever_the_folder_the_command_ran_in(tmp_path: Path):
    repo = _repo(tmp_path)
    args = ["--format", "github", "--rules", "booking.rules", "--root", ".."]
    _, from_evals = _report(repo / "evals", "workspace", *args)
    _, from_root = _report(repo, "evals/workspace", "--format", "github", "--rules", "evals/booking.rules")
    assert from_evals.replace("title=workspace/", "title=evals/workspace/") == from_root
    _assert_files_exist(repo, from_root)
    assert "file=evals/workspace/iteration-1/eval-1-book-flight/without_skill/run-1/outputs/transcript.md,line=14" \
        in from_root
    assert "file=booking.rules" not in from_root  # a bare name lands nowhere


def test_an_imported_run_is_annotated_on_its_source_file_and_line(tmp_path: Path):
    repo = tmp_path / "repo"
    (repo / "sessions").mkdir(parents=True)
    shutil.copy(SESSION, repo / "sessions" / "session.jsonl")
    assert main(["import", "claude-code", str(repo / "sessions" / "session.jsonl"), "--out", str(repo / "ws")]) == 0
    (repo / "s.rules").write_text('eval "session"\nexpect "books LX9": any calls to "mcp__travel__bookReservation" '
                                  'have .args.flightId == "LX9"\n', encoding="utf-8")
    assert main(["grade", str(repo / "ws"), "--rules", str(repo / "s.rules")]) == 1
    _, text = _report(repo, "ws", "--format", "github", "--sources", "sessions")
    assert "::error file=sessions/session.jsonl,line=20," in text
    _assert_files_exist(repo, text)
    source_line = (repo / "sessions" / "session.jsonl").read_text(encoding="utf-8").splitlines()[19]
    assert "mcp__travel__bookReservation" in source_line and "LX2084" in source_line
    _, unplaced = _report(repo, "ws", "--format", "github")
    assert "file=" not in unplaced  # no --sources: no guess at a file that is not there
    _, markdown = _report(repo, "ws", "--format", "markdown")
    assert "session.jsonl:20: ## [tool_calls] Step 5: mcp__travel__bookReservation" in markdown


def _assert_files_exist(root: Path, text: str) -> None:
    for file, line in re.findall(r"file=([^,]+),line=(\d+)", text):
        path = root / file
        assert path.is_file(), file
        assert 1 <= int(line) <= len(path.read_text(encoding="utf-8").splitlines()), (file, line)


def test_markdown_lists_the_primary_s_failures_the_context_and_each_eval_s_hints_once(tmp_path: Path):
    repo = _repo(tmp_path, benchmark=True)  # benchmark.json records the roles aggregate chose
    code, text = _report(repo, "evals/workspace", "--format", "markdown")
    assert code == 3 and text.startswith("<!-- referee report -->\n## referee: CONDITIONAL PASS")
    assert "No assertion failed in with_skill." in text
    assert "- without_skill (baseline, context: not gated): 0 of 3 runs passed, 10 failed assertions" in text
    assert text.count("checks only that something exists") == 1
    _, plain = _report(repo, "evals/workspace", "--format", "markdown", "--eval", "2")  # a selection: no benchmark
    assert "### Failures (2)" in plain and plain.count("checks only that something exists") == 1


def test_report_gates_on_the_primary_when_no_benchmark_decides(tmp_path: Path):
    repo = _repo(tmp_path)
    assert _report(repo, "evals/workspace", "--format", "markdown")[0] == 1
    assert _report(repo, "evals/workspace", "--format", "markdown", "--primary", "with_skill")[0] == 0
    assert _report(repo, "evals/workspace", "--format", "markdown", "--primary", "without_skill")[0] == 1


def test_a_primary_that_is_no_configuration_shown_is_refused(tmp_path: Path, capsys):
    repo = _repo(tmp_path)
    assert main(["report", str(repo / "evals" / "workspace"), "--primary", "with-skill", "-o", "-"]) == 2
    assert "--primary with-skill: no such configuration among the runs shown" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["junit", "github", "markdown"])
def test_each_format_is_the_same_bytes_twice(tmp_path: Path, fmt: str):
    repo = _repo(tmp_path)
    assert _report(repo, "evals/workspace", "--format", fmt) == _report(repo, "evals/workspace", "--format", fmt)


def test_no_benchmark_decides_as_the_primary_gate_does(tmp_path: Path):
    """The action's ``gate: primary`` reports what it gates on: benchmark.json's release
    decision left out, the decision is the primary's gated assertions."""
    repo = _repo(tmp_path, benchmark=True)
    code, text = _report(repo, "evals/workspace", "--format", "markdown", "--primary", "with_skill")
    assert code == 3 and "## referee: CONDITIONAL PASS" in text  # benchmark.json's release decision
    code, text = _report(repo, "evals/workspace", "--format", "markdown", "--primary", "with_skill",
                         "--no-benchmark")
    assert code == 0 and "## referee: PASS" in text
