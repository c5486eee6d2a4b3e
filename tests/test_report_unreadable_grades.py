"""``referee report`` without a benchmark.json decides from the grading.json files it
can read: a run of the gate whose grading.json is there but cannot be read (broken,
written by another grader, not a regular file) may be the run that failed, so the
decision is never PASS, and every format says so."""

from __future__ import annotations

import contextlib
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from compare_workspace import graded
from referee.engine.cli import main

EVAL = "iteration-1/eval-1-task-1"


def _workspace(tmp_path: Path) -> Path:
    # Eval 1: with_skill runs 1 and 2 pass every gated assertion, run 3 fails them;
    # without_skill fails (context once the primary is with_skill).
    return graded(tmp_path, {"with_skill": [["good", "good", "bad"]], "without_skill": [["bad", "bad"]]})


def _report(workspace: Path, fmt: str, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["report", str(workspace), "--format", fmt, "-o", "-", *extra])
    return code, out.getvalue()


def _break(workspace: Path, config: str, run: int, how: str) -> None:
    grading = workspace / EVAL / config / f"run-{run}" / "grading.json"
    if how == "broken":
        grading.write_text("{broken", encoding="utf-8")
    elif how == "foreign":
        document = json.loads(grading.read_text(encoding="utf-8"))
        document["grader"] = {"name": "skill-creator"}
        grading.write_text(json.dumps(document), encoding="utf-8")
    elif how == "folder":
        grading.unlink()
        grading.mkdir()
    elif how == "link":
        passing = workspace / EVAL / config / "run-1" / "grading.json"
        grading.unlink()
        grading.symlink_to(passing.resolve())


@pytest.mark.parametrize("how", ["broken", "foreign", "link", "folder"])
def test_a_primary_run_whose_grading_cannot_be_read_is_not_a_pass(tmp_path: Path, how: str, capsys):
    # The failing run 3 of with_skill is unreadable: its two readable runs pass, yet
    # the gate cannot be said to hold. It was a PASS (exit 0) in every format.
    workspace = _workspace(tmp_path)
    _break(workspace, "with_skill", 3, how)
    for fmt in ("markdown", "github", "junit", "html"):
        code, text = _report(workspace, fmt, "--primary", "with_skill")
        assert code == 1, fmt
        assert ("grading.json cannot be read" if fmt == "junit" else "1 run not read") in text, fmt
    _, markdown = _report(workspace, "markdown", "--primary", "with_skill")
    assert "## referee: FAIL" in markdown
    _, github = _report(workspace, "github", "--primary", "with_skill")
    assert github.splitlines()[-1].startswith("::error title=referee FAIL::")
    capsys.readouterr()
    main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    warning = next(line for line in capsys.readouterr().err.splitlines() if "run-3/grading.json" in line)
    # the file and what is wrong with it, each once: a folder was "not a regular file (not a regular file)"
    assert warning.count("not a regular file") <= 1 and "grade the run again" in warning


def test_junit_counts_the_unreadable_run_as_an_error(tmp_path: Path):
    workspace = _workspace(tmp_path)
    _break(workspace, "with_skill", 3, "broken")
    _, text = _report(workspace, "junit", "--primary", "with_skill")
    root = ET.fromstring(text)
    # 2 readable runs of 3 assertions each, the baseline's 2 as context, and the unreadable one.
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("13", "0", "1")
    suite = next(s for s in root if s.get("name", "").endswith("with_skill/run-3"))
    assert suite.get("errors") == "1" and suite.find("testcase/error") is not None


def test_without_a_primary_every_unreadable_run_counts(tmp_path: Path):
    workspace = graded(tmp_path, {"with_skill": [["good", "good"]]})
    _break(workspace, "with_skill", 2, "broken")
    assert _report(workspace, "markdown")[0] == 1


def test_an_unreadable_baseline_run_is_context(tmp_path: Path):
    # The baseline's runs never decide the gate once the primary is known.
    workspace = graded(tmp_path, {"with_skill": [["good", "good"]], "without_skill": [["bad", "bad"]]})
    _break(workspace, "without_skill", 2, "broken")
    code, text = _report(workspace, "markdown", "--primary", "with_skill")
    assert code == 0 and "not read" not in text.split("\n\n")[1]


def test_a_run_whose_grading_json_was_deleted_is_not_read(tmp_path: Path):
    # No grading.json, but its ground_truth.json and its eval's other run say it was
    # graded: its verdicts are unknown, as a broken one's (a run no eval of the rules
    # matches, which grade leaves without reports, is left out: see
    # test_runs_without_grading_json.py).
    workspace = graded(tmp_path, {"with_skill": [["good", "good"]]})
    (workspace / EVAL / "with_skill" / "run-2" / "grading.json").unlink()
    code, text = _report(workspace, "markdown")
    assert code == 1 and "no grading.json" in text and "1 run not read" in text
