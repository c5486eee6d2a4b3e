"""An error of ``referee report`` is one line: the folder names it quotes (runs and
configurations of the workspace) cannot start a line of their own, which the GitHub
Actions runner would read as a workflow command."""

from __future__ import annotations

from named_folders import forged_lines, one_run
from referee.engine.cli import main

FORGED = "::stop-commands::hidden"


def test_the_errors_of_report_keep_each_folder_name_on_their_line(tmp_path, capsys):
    # Input: a configuration folder f"x\n{FORGED}" graded, then `report --primary nope`
    # (the error lists the configurations), and its response edited after its grade
    # (the error names the stale run): both printed the break as they are.
    workspace, rules = one_run(tmp_path)
    outputs = workspace / "eval-1-x" / f"x\n{FORGED}" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("hi\n", encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(rules)])
    capsys.readouterr()
    assert main(["report", str(workspace), "--primary", "nope", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert forged_lines(err) == []
    assert f"(with_skill, x\\n{FORGED})" in err
    (outputs / "response.md").write_text("hello\n", encoding="utf-8")
    assert main(["report", str(workspace), "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert forged_lines(err) == []
    assert f"x\\n{FORGED}/run-1/grading.json is older than the run" in err
