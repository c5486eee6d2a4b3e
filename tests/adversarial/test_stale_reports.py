"""Reports never show a grade older than its run, nor a benchmark older than its grades.

``report`` used to show a benchmark.json decision made before a re-grade, and a
run's verdicts after its transcript had been imported again, with no warning.
grading.json now records a digest of the run's files (``run.files_digest``) and
benchmark.json the digest of each grading.json it read (``inputs``): ``report``
refuses what is stale (exit 2, naming the runs and what to run), ``aggregate``
lists a stale grade as unusable. Digests, never file times.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from budget_corpus import make_run, rules_for, transcript
from referee.engine.cli import main
from referee.engine.report.freshness import files_digest

RULES = rules_for('any calls to "save"', 'no calls to "delete"')
SAVE = ("save", '{"n": 1}', '{"ok": true}', "success")
DELETE = ("delete", '{"n": 1}', '{"ok": true}', "success")


class _Folder:
    def __init__(self, path: Path) -> None:
        self.path = path


def _workspace(tmp_path: Path) -> Path:
    """with_skill deletes: FAIL until its transcript is fixed."""
    workspace = tmp_path / "ws"
    make_run(workspace, calls=[SAVE, DELETE], run="run-1", configuration="with_skill")
    make_run(workspace, calls=[SAVE], run="run-1", configuration="without_skill")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    return workspace


def _grade(tmp_path: Path, folder: Path) -> int:
    return main(["grade", str(folder), "--rules", str(tmp_path / "r.rules")])


def _run(workspace: Path, config: str = "with_skill") -> Path:
    return workspace / "iteration-1" / "eval-1-task" / config / "run-1"


def _import_again(workspace: Path) -> None:
    """What importing the run again does to it: a new transcript, the old grading.json."""
    (_run(workspace) / "outputs" / "transcript.md").write_text(transcript([SAVE]), encoding="utf-8")


def _report(workspace: Path, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_grade_older_than_its_transcript_is_refused(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace) == 1
    _import_again(workspace)
    code, out, err = _report(workspace, capsys)
    assert code == 2 and out == ""
    assert ("with_skill/run-1/grading.json is older than the run: its files changed since it was graded "
            "(imported or edited again); grade the run again. Nothing was reported") in err
    assert _grade(tmp_path, workspace) == 0
    code, out, _ = _report(workspace, capsys)
    assert code == 0 and out.startswith("<!-- referee report -->\n## referee: PASS")  # graded again: shown


def test_aggregate_counts_no_stale_grade(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace) == 1
    _import_again(workspace)
    main(["aggregate", str(workspace), "--mode", "quick"])
    doc = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    assert [(u["path"], u["reason"].split(":")[0]) for u in doc["unusable_runs"]] == [
        ("iteration-1/eval-1-task/with_skill/run-1", "grading.json is older than the run")]
    assert doc["release"]["decision"] != "PASS"


def test_a_benchmark_older_than_a_regrade_is_refused_until_aggregated_again(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace) == 1
    assert main(["aggregate", str(workspace), "--mode", "quick"]) == 1  # FAIL
    _import_again(workspace)
    assert _grade(tmp_path, workspace) == 0  # the run passes now; benchmark.json still says FAIL
    code, out, err = _report(workspace, capsys)
    assert code == 2 and out == ""
    assert f"{workspace / 'benchmark.json'} is older than the grades it decided on: " in err
    assert "iteration-1/eval-1-task/with_skill/run-1" in err and "graded again, removed or added since" in err
    assert f"run `referee aggregate {workspace}` again (or remove benchmark.json)" in err
    main(["aggregate", str(workspace), "--mode", "quick"])
    code, out, _ = _report(workspace, capsys)
    assert code in (0, 1, 3) and "## referee: " in out  # the benchmark's decision, made from these grades


def test_a_run_added_or_removed_after_the_benchmark_makes_it_stale(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace) == 1
    main(["aggregate", str(workspace), "--mode", "quick"])
    make_run(workspace, calls=[SAVE], run="run-2", configuration="with_skill")  # aggregate would list it
    code, _, err = _report(workspace, capsys)
    assert code == 2 and "with_skill/run-2 graded again, removed or added since" in err
    shutil.rmtree(_run(workspace).parent / "run-2")
    assert _report(workspace, capsys)[0] == 1  # as it was
    shutil.rmtree(_run(workspace, "without_skill"))
    code, _, err = _report(workspace, capsys)
    assert code == 2 and "without_skill/run-1 graded again, removed or added since" in err


def test_a_benchmark_without_inputs_is_shown_with_a_problem(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace) == 1
    main(["aggregate", str(workspace), "--mode", "quick"])
    path = workspace / "benchmark.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["inputs"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = _report(workspace, capsys)
    assert code == 1 and "benchmark.json records no inputs" in out


def test_writing_reports_into_a_run_folder_leaves_its_grade_fresh(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    run = _run(workspace)
    assert _grade(tmp_path, run) == 1
    assert main(["aggregate", str(run), "--mode", "quick"]) == 1  # benchmark.json/.md into the run folder
    assert main(["report", str(run)]) == 1  # report.html there too
    (run / "grading.json.bak").write_text("{}", encoding="utf-8")
    code, _, err = _report(run, capsys)
    assert code == 1 and "older" not in err


def test_the_digest_frames_names_and_contents(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, files in ((first, {"ab": "c"}), (second, {"a": "bc"})):
        (folder / "outputs").mkdir(parents=True)
        for name, text in files.items():
            (folder / "outputs" / name).write_text(text, encoding="utf-8")
    assert files_digest(_Folder(first)) != files_digest(_Folder(second))
    shutil.copytree(first, tmp_path / "elsewhere" / "copy")
    assert files_digest(_Folder(tmp_path / "elsewhere" / "copy")) == files_digest(_Folder(first))
    (first / "outputs" / "link").symlink_to("ab")
    with_link = files_digest(_Folder(first))
    (first / "outputs" / "link").unlink()
    (first / "outputs" / "link").symlink_to("missing")
    assert len({with_link, files_digest(_Folder(first)), files_digest(_Folder(second))}) == 3


def test_a_fifo_in_outputs_cannot_stall_the_grade(tmp_path):
    workspace = _workspace(tmp_path)
    os.mkfifo(_run(workspace) / "outputs" / "pipe")
    done = subprocess.run([sys.executable, "-m", "referee", "grade", str(workspace), "--rules",
                           str(tmp_path / "r.rules")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "internal error" not in done.stderr
    recorded = json.loads((_run(workspace) / "grading.json").read_text(encoding="utf-8"))["run"]["files_digest"]
    assert recorded == files_digest(_Folder(_run(workspace))) and recorded.startswith("sha256:")
