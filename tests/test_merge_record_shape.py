"""shard-merge.json comes back with the workspace (a CI artifact, a shared folder) and
can come back damaged: well-formed JSON of the wrong shape is no record of a merge.
`aggregate` says the shards are not merged, and `merge` checks them again; neither
ends as an internal error."""

from __future__ import annotations

import json

import pytest

from referee.engine.cli import main
from sharded import RULE_ARGS, sharded


@pytest.mark.parametrize("runs", [[1, 2], [{"path": 3}], {"a": 1}, None, [{"grading": "x"}]])
def test_a_merge_record_of_the_wrong_shape_is_not_a_merge(tmp_path, capsys, runs):
    ws = sharded(tmp_path, 2)
    assert main(["merge", str(ws), *RULE_ARGS]) == 1
    record = ws / "shard-merge.json"
    found = json.loads(record.read_text(encoding="utf-8"))
    record.write_text(json.dumps({**found, "runs": runs}), encoding="utf-8")
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--check"]) == 2
    err = capsys.readouterr().err
    assert "not merged" in err and "internal error" not in err
    code = main(["merge", str(ws), *RULE_ARGS])
    err = capsys.readouterr().err
    assert code == 2 and "internal error" not in err and "changed:" in err


def test_a_merge_record_with_manifests_of_the_wrong_shape_is_not_a_merge(tmp_path, capsys):
    ws = sharded(tmp_path, 2)
    assert main(["merge", str(ws), *RULE_ARGS]) == 1
    record = ws / "shard-merge.json"
    found = json.loads(record.read_text(encoding="utf-8"))
    record.write_text(json.dumps({**found, "manifests": [1]}), encoding="utf-8")
    capsys.readouterr()
    assert main(["report", str(ws), "--format", "markdown", "-o", "-"]) == 2
    assert "internal error" not in capsys.readouterr().err
