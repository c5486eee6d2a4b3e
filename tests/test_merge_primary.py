"""Shards graded with --primary C merge into the decision `referee grade --primary C`
makes: the gate counts C's runs alone. Shards graded with different primaries are
mixed, and a primary that names no graded run's configuration is a usage error."""

from __future__ import annotations

import json

from referee.engine.cli import main
from sharded import RULE_ARGS, copy_shard, fresh, grade, grade_shard, sharded


def merge(workspace) -> int:
    return main(["merge", str(workspace), *RULE_ARGS])


def test_the_merge_gates_on_the_primary_as_grade_does(tmp_path, capsys):
    whole = fresh(tmp_path / "whole")
    assert grade(whole, "--primary", "with_skill") == 0  # the baseline fails by design
    merged = fresh(tmp_path / "merged")
    for index in (1, 2):
        assert grade_shard(merged, index, 2, "--primary", "with_skill") == 0
    assert json.loads((merged / "shard-1-of-2.json").read_text(encoding="utf-8"))["options"]["primary"] == "with_skill"
    capsys.readouterr()
    assert merge(merged) == 0
    assert "gate: with_skill alone" in capsys.readouterr().out


def test_shards_graded_with_other_primaries_are_mixed(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    host = fresh(tmp_path / "host-3")
    assert grade_shard(host, 2, 2, "--primary", "with_skill") == 0
    copy_shard(host, merged, 2, 2)
    capsys.readouterr()
    assert merge(merged) == 2
    err = capsys.readouterr().err
    assert "mixed: the shards were graded with different options" in err and "with_skill" in err
    assert not (merged / "shard-merge.json").exists()


def test_a_primary_no_graded_run_has_is_a_usage_error(tmp_path, capsys):
    merged = fresh(tmp_path / "merged")
    for index in (1, 2):
        assert grade_shard(merged, index, 2, "--primary", "with-skill") == 0
    capsys.readouterr()
    assert merge(merged) == 2
    assert "--primary with-skill: no run of that configuration" in capsys.readouterr().err
    assert not (merged / "shard-merge.json").exists()
