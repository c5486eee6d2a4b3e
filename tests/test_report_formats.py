"""``referee report``: every format on the bundled example, pinned byte for byte,
the JUnit file against the Jenkins JUnit schema and read by junitparser, and the
escaping of hostile text in each format.

After a deliberate change to a format (or to the example's grading.json files),
regenerate the golden files with ``REFEREE_UPDATE_GOLDEN=1 python -m pytest
tests/test_report_formats.py`` and review the diff.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main
from referee.engine.report.collect import collect
from referee.engine.report.github import render_github
from referee.engine.report.junit import render_junit
from referee.engine.report.markdown import render_markdown
from referee.engine.run.select import Selection

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
GOLDEN = REPO / "tests" / "fixtures" / "report-golden"
XSD = REPO / "tests" / "fixtures" / "junit" / "junit-common.xsd"  # Jenkins's, with testsuites@skipped
FILES = {"html": "report.html", "junit": "junit.xml", "github": "github.txt", "markdown": "summary.md"}
HOSTILE = "</script><img src=x onerror=\"document.title='pwned'\">"


def _copy_example(base: Path) -> Path:
    target = base / "booking-skill-workspace"
    shutil.copytree(EXAMPLE, target)
    return target


def _report(cwd: Path, fmt: str, *extra: str, target: str = "booking-skill-workspace") -> tuple[int, str]:
    """The format's text; html as the one page that holds every run (``-o -``), which
    is what its golden file keeps (the page and its runs' files: test_report_viewer)."""
    out = cwd / f"out.{fmt}"
    old = Path.cwd()
    os.chdir(cwd)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            code = main(["report", target, "--format", fmt, "-o", "-" if fmt == "html" else str(out), *extra])
    finally:
        os.chdir(old)
    return code, printed.getvalue() if fmt == "html" else out.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_each_format_matches_its_golden_file_at_any_path(tmp_path: Path, fmt: str):
    first, second = tmp_path / "a", tmp_path / "b" / "deeper"
    for base in (first, second):
        _copy_example(base)
    code, text = _report(first, fmt)
    assert code == 3  # the example's benchmark.json decides: CONDITIONAL PASS
    golden = GOLDEN / FILES[fmt]
    if os.environ.get("REFEREE_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), f"regenerate {golden.name} (see this file's docstring)"
    assert _report(second, fmt)[1] == text  # another path, the same bytes
    assert _report(first, fmt)[1] == text  # and again


def test_junit_validates_against_the_jenkins_schema_and_junitparser_reads_it(tmp_path: Path):
    xmlschema = pytest.importorskip("xmlschema")
    junitparser = pytest.importorskip("junitparser")
    _copy_example(tmp_path)
    (tmp_path / "booking-skill-workspace" / "benchmark.json").unlink()  # no roles: every run counts
    _, text = _report(tmp_path, "junit")
    path = tmp_path / "out.junit"
    xmlschema.XMLSchema(str(XSD)).validate(str(path))
    suites = junitparser.JUnitXml.fromfile(str(path))
    by_name = {suite.name: suite for suite in suites}
    run = by_name["booking-skill-workspace/iteration-1/eval-1-book-flight/without_skill/run-1"]
    cases = {case.name.split(" ", 1)[0]: case for case in run}
    failure = cases["1#4"].result[0]
    assert isinstance(failure, junitparser.Failure)
    assert '"IB3471"' in failure.message and 'expected "LX2084"' in failure.message
    assert "outputs/transcript.md:14" in failure.text
    assert isinstance(cases["1#7"].result[0], junitparser.Skipped)  # not graded is not a failure
    assert cases["1#1"].is_passed
    assert suites.failures == 10 and suites.errors == 0


def _hostile_workspace(base: Path) -> Path:
    run = base / "hostile" / "eval-1-x" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text(f"Done {HOSTILE}\n", encoding="utf-8")
    (run / "outputs" / "transcript.md").write_text(
        "## [tool_calls] Step 1: search\nTool: search\n"
        f'Args: {{"q": "{HOSTILE.replace(chr(34), chr(39))}\\u0007 %0A::error::x"}}\n'
        'Return: {"ok": true}\nStatus: success\n', encoding="utf-8")
    rules = base / "hostile.rules"
    rules.write_text('eval 1 "x"\nexpect "searches for cats": any calls to "search" have .args.q == "cats"\n'
                     'expect "replies hello": response contains "hello"\n', encoding="utf-8")
    assert main(["grade", str(base / "hostile"), "--rules", str(rules)]) == 1
    return base / "hostile"


def test_hostile_text_stays_text_in_junit_github_and_markdown(tmp_path: Path):
    collection = collect(_hostile_workspace(tmp_path))
    junit = render_junit(collection)
    ET.fromstring(junit.encode("utf-8"))  # well-formed despite the control character
    assert "<img" not in junit and "\\u0007" in junit
    github = render_github(collection)
    assert all(line.startswith("::") for line in github.splitlines())  # one command per line
    assert "%250A::error::x" in github  # a literal %0A in a run stays literal, not a newline
    markdown = render_markdown(collection)
    assert "<img" not in markdown.split("```text", 1)[0]  # outside code blocks nothing is markup


def test_selection_keeps_one_eval_configuration_or_run(tmp_path: Path):
    _copy_example(tmp_path)
    folder = tmp_path / "booking-skill-workspace"
    only = collect(folder, Selection(evals=("book-flight",), configs=("with_skill",), runs=(2,)))
    assert [r.info.run_number for r in only.runs] == [2]
    assert {(r.info.eval_id, r.info.configuration) for r in only.runs} == {("1", "with_skill")}
    assert len(collect(folder, Selection(evals=("2",))).runs) == 2
    assert _report(tmp_path, "markdown", "--eval", "2", "--config", "with_skill")[0] == 0


@pytest.mark.parametrize("level", ["iteration-1", "iteration-1/eval-1-book-flight",
                                   "iteration-1/eval-1-book-flight/with_skill",
                                   "iteration-1/eval-1-book-flight/with_skill/run-1"])
def test_report_accepts_any_folder_level(tmp_path: Path, level: str):
    _copy_example(tmp_path)
    collection = collect(tmp_path / "booking-skill-workspace" / level)
    assert collection.runs and all(r.info.eval_id == "1" or level == "iteration-1" for r in collection.runs)


def test_no_graded_run_is_a_usage_error(tmp_path: Path, capsys):
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "outputs"
    run.mkdir(parents=True)
    assert main(["report", str(tmp_path / "ws"), "-o", "-"]) == 2
    assert "grading.json" in capsys.readouterr().err
    assert main(["report", str(EXAMPLE), "--eval", "nope", "-o", "-"]) == 2
    assert "matches --eval nope" in capsys.readouterr().err


def test_benchmark_json_is_rendered_when_present(tmp_path: Path):
    # The summary's figures are set on the collection: read from benchmark.json, figures
    # the grades do not give are refused (test_report_benchmark_remade_figures.py).
    folder = _copy_example(tmp_path)
    summary = json.loads(
        '{"run_summary": {"with_skill": {"pass_rate": {"mean": 1.0, "stddev": 0.0}, "time_seconds": '
        '{"mean": 14.2, "stddev": 1.1}, "tokens": {"mean": 7000, "stddev": 10}}, "without_skill": '
        '{"pass_rate": {"mean": 0.33, "stddev": 0.3}}, "delta": {"pass_rate": "+0.67", "time_seconds": '
        '"+1.0", "tokens": "+100"}}}')
    markdown = render_markdown(dataclasses.replace(collect(folder), benchmark=summary))
    assert "### Benchmark" in markdown
    # pass rates in percent, their delta in points: one unit per column
    assert "| delta | +67 pts | +1.0 | +100 |" in markdown
    assert "| with_skill | 100% ± 0% | 14.2 ± 1.1 | 7000 ± 10 |" in markdown
    assert "| without_skill | 33% ± 30% | – | – |" in markdown


def test_an_unwritable_target_is_a_usage_error(tmp_path: Path, capsys):
    assert main(["report", str(EXAMPLE), "-o", str(tmp_path / "missing" / "dir" / "r.html")]) == 2
    assert "missing/dir does not exist, so" in capsys.readouterr().err
    assert not (tmp_path / "missing").exists()


def test_an_absolute_workspace_reports_the_same_bytes_from_any_directory(tmp_path):
    import subprocess
    import sys

    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", workspace)
    outputs = []
    for where in (tmp_path, workspace / "iteration-1", Path("/")):
        done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "report", str(workspace),
                               "--format", "junit", "-o", "-"], cwd=where, capture_output=True, text=True)
        outputs.append(done.stdout)
    assert outputs[0] and outputs[0] == outputs[1] == outputs[2]
    assert str(tmp_path) not in outputs[0]


def test_megabytes_of_evidence_in_a_grading_json_are_cut_and_say_so(tmp_path: Path):
    # Input: the example with 3,000,000 characters appended to each evidence of a failing
    # run's grading.json (counts unchanged, as another tool or version could write it).
    # The annotations were 9 MB and the JUnit file 18 MB, which CI servers cut silently
    # or refuse; the HTML report and the Markdown summary already cut theirs.
    workspace = _copy_example(tmp_path)
    for name in ("benchmark.json", "benchmark.md"):
        (workspace / name).unlink()
    grading = workspace / "iteration-1" / "eval-1-book-flight" / "without_skill" / "run-1" / "grading.json"
    document = json.loads(grading.read_text(encoding="utf-8"))
    for item in document["expectations"]:
        item["evidence"] += "E" * 3_000_000
    grading.write_text(json.dumps(document), encoding="utf-8")
    collection = collect(workspace)
    github = render_github(collection)
    assert len(github) < 100_000 and all(line.startswith("::") for line in github.splitlines())
    assert "(cut at 4,000 of 3,0" in github.replace("%0A", "\n")
    root = ET.fromstring(render_junit(collection).encode("utf-8"))
    failures = root.findall(".//failure")
    assert failures and all(len(f.get("message")) < 21_000 and len(f.text) < 25_000 for f in failures)
    cut = [f for f in failures if "characters: grading.json holds it whole)" in f.get("message")]
    assert cut and all("(cut at 20,000 of 3,0" in f.text for f in cut)
