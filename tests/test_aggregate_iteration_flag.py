"""``referee aggregate --iteration N`` with an N the workspace has no iteration-N of
is a usage error naming the flag and the iterations there are, as ``compare`` says
it, not 'no runs found' over a workspace full of graded runs."""

from __future__ import annotations

from graded_runs import write_run

from referee.engine.cli import main


def test_an_iteration_the_workspace_lacks_is_named(tmp_path, capsys):
    write_run(tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-1", ["pass"])
    write_run(tmp_path / "iteration-2" / "eval-1" / "with_skill" / "run-1", ["pass"])
    for wanted in ("0", "3", "-1"):
        assert main(["aggregate", str(tmp_path), "--iteration", wanted, "--check"]) == 2
        err = capsys.readouterr().err
        assert f"--iteration {wanted}: no such iteration (found: 1, 2)" in err
        assert "no runs found" not in err


def test_a_workspace_without_iteration_folders_has_none(tmp_path, capsys):
    write_run(tmp_path / "eval-1" / "with_skill" / "run-1", ["pass"])
    assert main(["aggregate", str(tmp_path), "--iteration", "1", "--check"]) == 2
    assert "--iteration 1: no such iteration (found: none)" in capsys.readouterr().err


def test_an_iteration_there_is_aggregated(tmp_path, capsys):
    write_run(tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-1", ["pass"])
    write_run(tmp_path / "iteration-2" / "eval-1" / "with_skill" / "run-1", ["fail"])
    assert main(["aggregate", str(tmp_path), "--iteration", "1", "--check"]) in (0, 1, 3)
    assert "no such iteration" not in capsys.readouterr().err


def test_iter_folders_are_iterations(tmp_path, capsys):
    # Input: iter-1/ and iter-2/ above the eval folders, as a public skill-creator style
    # workspace names them (evals/resultados/iter-1/eval-04-.../with_skill/run-1). Read as
    # two skill folders, each eval was kept apart per folder (eval "iter-1/1" and "iter-2/1")
    # and both iterations were aggregated together; now they are iterations 1 and 2.
    write_run(tmp_path / "iter-1" / "eval-1" / "with_skill" / "run-1", ["pass"])
    write_run(tmp_path / "iter-2" / "eval-1" / "with_skill" / "run-1", ["fail"])
    assert main(["aggregate", str(tmp_path), "--iteration", "3", "--check"]) == 2
    assert "--iteration 3: no such iteration (found: 1, 2)" in capsys.readouterr().err
    assert main(["aggregate", str(tmp_path), "--check"]) in (0, 1, 3)
    out, err = capsys.readouterr()
    assert "aggregating iteration 2" in err and "iter-1/1" not in out + err
