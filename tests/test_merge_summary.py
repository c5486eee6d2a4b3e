"""The merge's summary counts runs as `referee grade` does: a run in which nothing
counted toward the gate (existence-only or not-graded semantic assertions) is not a
failed run, and a merge where nothing counted says that this is not a pass."""

from __future__ import annotations

from referee.engine.cli import main
from sharded import EVALS, RULE_ARGS, fresh, grade_shard


def test_runs_with_nothing_counted_are_not_counted_as_failed(tmp_path, capsys):
    rules = tmp_path / "existence.rules"
    rules.write_text('eval 2 "fare-export"\n\nexpect 1: exists file "fares.csv"\n', encoding="utf-8")
    args = ["--rules", str(rules), "--evals", str(EVALS)]
    ws = fresh(tmp_path)
    for index in (1, 2):
        assert main(["grade", str(ws), *args, "--shard", f"{index}/2"]) == 0
    capsys.readouterr()
    assert main(["merge", str(ws), *args]) == 1
    out, err = capsys.readouterr()
    assert "(0 passed, 0 failed, 6 with nothing counted)" in out
    assert "nothing counted toward the gate" in err


def test_failed_runs_are_still_failed(tmp_path, capsys):
    ws = fresh(tmp_path)
    for index in (1, 2):
        assert grade_shard(ws, index, 2) == 0
    capsys.readouterr()
    assert main(["merge", str(ws), *RULE_ARGS]) == 1
    out, err = capsys.readouterr()
    assert "6 runs (3 passed, 3 failed)" in out and "nothing counted" not in err
