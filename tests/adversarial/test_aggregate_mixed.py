"""``aggregate`` never compares runs graded by different rules, nor reads during a grade.

A grade of one subfolder after the rules changed left the workspace with runs
graded by two versions of the rules, and aggregate reported PASS with +100
points. Every grading.json names its rules (``rules_location``: name and digest):
a mix is refused (exit 2, nothing written) unless ``--allow-mixed-rules`` is
given, and then the benchmark's notes say so. Aggregate holds the workspace's
lock while it reads, so it never reads half of a grade's writes.
"""

from __future__ import annotations

import json
from pathlib import Path

from budget_corpus import make_run, rules_for
from held_lock import held_elsewhere
from referee.engine.cli import main
from referee.engine.report import lock

STRICT = rules_for('any calls to "save"', 'no calls to "delete"')
LENIENT = rules_for('any calls to "save"', 'count(calls) >= 1')
SAVE = ("save", '{"n": 1}', '{"ok": true}', "success")
DELETE = ("delete", '{"n": 1}', '{"ok": true}', "success")


def _workspace(tmp_path: Path) -> Path:
    """with_skill deletes (fails STRICT, passes LENIENT); without_skill passes both."""
    workspace = tmp_path / "ws"
    for run in ("run-1", "run-2"):
        make_run(workspace, calls=[SAVE, DELETE], run=run, configuration="with_skill")
        make_run(workspace, calls=[SAVE], run=run, configuration="without_skill")
    return workspace


def _grade(tmp_path: Path, folder: Path, text: str, name: str = "r.rules") -> int:
    rules = tmp_path / name
    rules.write_text(text, encoding="utf-8")
    return main(["grade", str(folder), "--rules", str(rules)])


def _config(workspace: Path, name: str) -> Path:
    return workspace / "iteration-1" / "eval-1-task" / name


def test_a_subfolder_graded_by_other_rules_is_refused(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace, STRICT) == 1
    assert _grade(tmp_path, _config(workspace, "with_skill"), LENIENT) == 0  # same name, new text
    capsys.readouterr()
    assert main(["aggregate", str(workspace), "--mode", "quick"]) == 2
    err = capsys.readouterr().err
    assert "graded by different rules: r.rules: @" in err
    assert "graded 2 runs (iteration-1/eval-1-task/with_skill/run-1, iteration-1/eval-1-task/with_skill/run-2)" in err
    assert "--allow-mixed-rules" in err
    assert not (workspace / "benchmark.json").exists() and not (workspace / "benchmark.md").exists()


def test_allowed_mix_is_aggregated_and_said(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace, STRICT) == 1
    assert _grade(tmp_path, _config(workspace, "with_skill"), LENIENT) == 0
    capsys.readouterr()
    main(["aggregate", str(workspace), "--mode", "quick", "--allow-mixed-rules"])
    err = capsys.readouterr().err
    doc = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    mixed = [n for n in doc["notes"] if n.startswith("graded by different rules, compared anyway")]
    assert len(mixed) == 1 and "r.rules: @" in mixed[0]
    assert "warning: graded by different rules (--allow-mixed-rules): r.rules" in err


def test_runs_of_one_eval_graded_by_different_files_are_refused(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, _config(workspace, "without_skill"), STRICT, "a.rules") == 0
    assert _grade(tmp_path, _config(workspace, "with_skill"), LENIENT, "b.rules") == 0
    capsys.readouterr()
    assert main(["aggregate", str(workspace), "--mode", "quick"]) == 2
    err = capsys.readouterr().err
    assert "graded by different rules: eval 1: b.rules@" in err  # in the runs' order: with_skill first
    assert "graded 2 runs (iteration-1/eval-1-task/with_skill/run-1" in err and "; a.rules@" in err


def test_one_set_of_rules_is_no_mix(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace, STRICT) == 1
    assert _grade(tmp_path, _config(workspace, "with_skill"), STRICT) == 1  # graded again, same rules
    assert main(["aggregate", str(workspace), "--mode", "quick"]) == 1
    assert "different rules" not in capsys.readouterr().err


def test_aggregate_waits_for_the_workspace_lock_and_reads_nothing_meanwhile(tmp_path, monkeypatch, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace, STRICT) == 1
    capsys.readouterr()
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.0)
    with held_elsewhere(workspace):
        assert main(["aggregate", str(workspace), "--mode", "quick"]) == 2
    err = capsys.readouterr().err
    assert "another referee is writing reports into" in err and "nothing was aggregated" in err
    assert not (workspace / "benchmark.json").exists()
    assert main(["aggregate", str(workspace), "--mode", "quick"]) == 1  # released with the with-block


def test_report_shows_the_mix_among_its_problems(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    assert _grade(tmp_path, workspace, STRICT) == 1
    assert _grade(tmp_path, _config(workspace, "with_skill"), LENIENT) == 0
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 0
    out = capsys.readouterr()
    assert "### Problems" in out.out and "graded by different rules: r.rules: @" in out.out
    assert "graded by different rules: r.rules: @" in out.err
