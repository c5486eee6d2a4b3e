"""A merge stopped before it wrote everything (shard-merge.json cannot be written,
a report cannot be replaced, the disk is full) leaves a workspace that a second
merge completes: no report is left rewritten without the record that accepts it."""

from __future__ import annotations


from referee.engine.cli import main
from referee.engine.shards import merge as merging
from sharded import RULE_ARGS, files, fresh, grade, sharded


def merge(workspace, capsys) -> tuple[int, str]:
    code = main(["merge", str(workspace), *RULE_ARGS])
    return code, capsys.readouterr().err


def test_a_record_that_cannot_be_written_leaves_the_reports_as_the_shards_wrote_them(tmp_path, capsys):
    whole = fresh(tmp_path / "whole")
    grade(whole)
    ws = sharded(tmp_path, 2)
    before = files(ws)
    (ws / "shard-merge.json").mkdir()
    code, err = merge(ws, capsys)
    assert code == 2 and "shard-merge.json is a directory" in err
    assert files(ws) == before
    (ws / "shard-merge.json").rmdir()
    code, err = merge(ws, capsys)
    assert code == 1 and err == ""
    assert files(ws) == files(whole)


def test_a_merge_stopped_among_the_reports_is_completed_by_the_next(tmp_path, capsys, monkeypatch):
    whole = fresh(tmp_path / "whole")
    grade(whole)
    ws = sharded(tmp_path, 2)
    written = []
    real = merging.write_atomic

    def full_disk(path, data):
        if path.name == "grading.json" and written:
            raise OSError(28, "No space left on device", str(path))
        written.append(path)
        real(path, data)

    monkeypatch.setattr(merging, "write_atomic", full_disk)
    code, err = merge(ws, capsys)
    assert code == 2 and "No space left on device" in err
    monkeypatch.setattr(merging, "write_atomic", real)
    code, err = merge(ws, capsys)
    assert code == 1 and err == ""
    assert files(ws) == files(whole)
    assert main(["aggregate", str(ws), "--check"]) in (0, 1, 3)
    assert "not the one" not in capsys.readouterr().err
