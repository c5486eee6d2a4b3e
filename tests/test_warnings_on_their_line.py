"""A warning on standard error is one line: the names it quotes (folders of the
workspace, which the agent or a harness named) cannot start a line of their own,
which the GitHub Actions runner would read as a workflow command (it reads one at
the start of any line of a job's log, after leading blanks): ``::stop-commands::``
there hides every annotation that follows, ``::error::`` forges one."""

from __future__ import annotations

from named_folders import forged_lines, one_run
from referee.engine.cli import main

FORGED = "::stop-commands::hidden"


def test_a_folder_name_with_a_line_break_stays_on_its_warning_line_in_grade(tmp_path, capsys):
    # Input: an empty folder named f"y\n{FORGED}" beside the configurations; grade warns
    # that it skipped it, and printed the break as it is.
    workspace, rules = one_run(tmp_path)
    (workspace / "eval-1-x" / f"y\n{FORGED}" / "run-1").mkdir(parents=True)
    main(["grade", str(workspace), "--rules", str(rules), "--check"])
    err = capsys.readouterr().err
    assert forged_lines(err) == []
    assert f"eval-1-x/y\\n{FORGED}/run-1" in err


def test_a_run_without_a_grade_stays_on_its_warning_line_in_report(tmp_path, capsys):
    # Input: a configuration folder f"x\n{FORGED}" whose run was not graded; report warns
    # that it left the run out, and printed the break as it is.
    workspace, rules = one_run(tmp_path)
    outputs = workspace / "eval-1-x" / f"x\n{FORGED}" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("hi\n", encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(rules), "--config", "with_skill"])
    capsys.readouterr()
    main(["report", str(workspace), "--format", "markdown", "-o", str(tmp_path / "summary.md")])
    err = capsys.readouterr().err
    assert forged_lines(err) == []
    assert f"x\\n{FORGED}/run-1: no grading.json" in err
