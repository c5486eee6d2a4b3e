"""A merge decides over the runs as they are in the workspace it merges: a run whose
files changed since its shard graded it (edited, imported again, or another copy of
it where the shard ran) is refused, naming the run, and nothing is written."""

from __future__ import annotations

import json

from referee.engine.cli import main
from sharded import RULE_ARGS, files, sharded


def test_a_run_edited_since_its_shard_graded_it_is_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    manifest = json.loads((merged / "shard-2-of-2.json").read_text(encoding="utf-8"))
    path = manifest["runs"][0]["path"]
    response = merged / path / "outputs" / "response.md"
    response.write_text("Something else entirely.\n", encoding="utf-8")
    before = files(merged)
    capsys.readouterr()
    assert main(["merge", str(merged), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert f"changed: {path}: its files changed since shard-2-of-2.json graded it" in err
    assert files(merged) == before and not (merged / "shard-merge.json").exists()
    assert main(["merge", str(merged), *RULE_ARGS, "--check"]) == 2


def test_runs_as_their_shards_graded_them_merge(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    assert main(["merge", str(merged), *RULE_ARGS]) == 1
    assert (merged / "shard-merge.json").is_file()
