"""After ``referee merge``, a grade of the same workspace without ``--shard`` by other
rules rewrites the reports the shard files describe. The readers then refused with a
"changed: ... grade its shard again and merge" line per report, and nothing said that
the files of the sharded grade stood in the way, nor which. Now the grade warns, naming
them, and the refusal says exactly what to do; nothing is removed for the user."""

from __future__ import annotations

from referee.engine.cli import main
from sharded import EVALS, RULES, sharded

SHARD_FILES = "shard-1-of-2.json, shard-2-of-2.json, shard-merge.json"


def test_a_plain_grade_after_a_merge_says_which_files_to_move(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    assert main(["merge", str(merged), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    other = tmp_path / "other.rules"
    other.write_text(RULES.read_text(encoding="utf-8").replace("LX2084", "LX2085"), encoding="utf-8")
    capsys.readouterr()
    assert main(["grade", str(merged), "--rules", str(other), "--evals", str(EVALS)]) == 1
    assert f"holds the files of a sharded grade ({SHARD_FILES})" in capsys.readouterr().err
    assert main(["aggregate", str(merged), "--check"]) == 2
    err = capsys.readouterr().err
    assert "changed: " in err and f"the shard files ({SHARD_FILES}) describe the grade before it: move them" in err
    moved = tmp_path / "moved"
    moved.mkdir()
    for name in SHARD_FILES.split(", "):
        (merged / name).rename(moved / name)
    assert main(["aggregate", str(merged), "--check"]) == 1  # the new grade, read: the rules fail LX2084


def test_the_same_grade_again_is_the_merge_and_warns_of_nothing(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    assert main(["merge", str(merged), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    capsys.readouterr()
    assert main(["grade", str(merged), "--rules", str(RULES), "--evals", str(EVALS)]) == 1
    assert "sharded grade" not in capsys.readouterr().err
    assert main(["aggregate", str(merged), "--check"]) == 3
