"""``referee grade --shard i/n`` and ``referee merge``: the partition, the manifest,
the merge and each of its refusals, and what aggregate and report do with shards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.shards.part import Shard, parse_shard, shard_of
from sharded import RULE_ARGS, RULES, copy_shard, files, fresh, grade, grade_shard, sharded


def merge(workspace: Path, *extra: str) -> int:
    return main(["merge", str(workspace), *RULE_ARGS, *extra])


def manifest(workspace: Path, index: int, count: int) -> dict:
    return json.loads((workspace / f"shard-{index}-of-{count}.json").read_text(encoding="utf-8"))


# ---- the partition -------------------------------------------------------------------


def test_a_runs_shard_is_a_fixed_hash_of_its_identity():
    # Fixed values: a change of the hash would move runs between the shards of
    # grades already made, so it must show here.
    assert [shard_of(("1", "with_skill", 1), 8), shard_of(("1", "with_skill", 2), 8),
            shard_of(("2", "without_skill", 1), 8), shard_of(("sales-summary", "new_skill", 12), 256)] == [2, 7, 7, 168]
    assert shard_of(("1", "with_skill", 1), 1) == 1
    assert {shard_of((str(e), c, r), 4) for e in range(5) for c in ("a", "b") for r in range(5)} == {1, 2, 3, 4}


@pytest.mark.parametrize("text, message", [
    ("2", "expected i/n"), ("0/3", "from 1 to 3"), ("4/3", "from 1 to 3"), ("1/0", "from 1 to"),
    ("a/b", "expected i/n"), ("1/100001", "from 1 to"),
])
def test_a_bad_shard_is_a_usage_error(text, message):
    with pytest.raises(ValueError, match=message):
        parse_shard(text)


def test_parse_shard():
    assert parse_shard(" 2/8 ") == Shard(2, 8) and str(Shard(2, 8)) == "2/8"
    assert Shard(2, 8).file_name == "shard-2-of-8.json"


def test_a_shard_of_source_files_is_a_usage_error(capsys):
    session = Path(__file__).parent / "fixtures" / "import" / "claude-code" / "session.jsonl"
    assert main(["grade", str(session), "--rules", str(session.with_suffix(".rules")), "--shard", "1/2"]) == 2
    assert "--shard grades a workspace folder" in capsys.readouterr().err


def test_every_run_is_graded_by_exactly_one_shard_and_an_empty_shard_is_valid(tmp_path, capsys):
    ws = fresh(tmp_path)
    for index in range(1, 9):
        assert grade_shard(ws, index, 8) == 0
    listed = [entry["path"] for index in range(1, 9) for entry in manifest(ws, index, 8)["runs"]]
    assert len(listed) == len(set(listed)) == 6
    empty = [index for index in range(1, 9) if not manifest(ws, index, 8)["runs"]]
    assert empty  # 6 runs in 8 shards: some shard has none, and says so
    assert manifest(ws, empty[0], 8)["left_out"] == []


def test_a_shard_exits_0_whatever_its_verdicts(tmp_path, capsys):
    ws = fresh(tmp_path)
    assert grade(ws) == 1  # the example fails some assertions
    assert grade_shard(fresh(tmp_path, "again"), 1, 1) == 0
    assert "the decision comes from `referee merge`" in capsys.readouterr().err


def test_the_manifest_records_what_graded_the_shard(tmp_path, capsys):
    ws = fresh(tmp_path)
    assert grade_shard(ws, 1, 2, "--eval", "1") == 0
    found = manifest(ws, 1, 2)
    assert (found["shard"], found["shards"], found["format"]) == (1, 2, "referee-shard")
    assert found["rules"][0]["file"] == "booking.rules" and found["evals"].startswith("sha256:")
    assert found["options"]["selection"] == "--eval 1"
    assert all(entry["eval_id"] == "1" for entry in found["runs"])
    assert all(entry["reason"] == "not selected" for entry in found["left_out"])
    for entry in found["runs"]:
        assert entry["grading"].startswith("sha256:")
    assert [e["path"] for e in found["runs"]] == sorted(e["path"] for e in found["runs"])


# ---- the merge -----------------------------------------------------------------------


def test_merged_shards_are_the_unsharded_grade_byte_for_byte(tmp_path, capsys):
    whole = fresh(tmp_path / "whole")
    expected_code = grade(whole)
    merged = sharded(tmp_path, 3, hosts={1: 1, 2: 2, 3: 1}, order=[3, 1, 2])
    assert files(merged) != files(whole)  # each shard's critique saw a part of each eval
    assert merge(merged) == expected_code == 1
    assert files(merged) == files(whole)
    assert merge(merged) == 1  # again: nothing left to change
    assert files(merged) == files(whole)


def test_shards_graded_with_several_processes_merge_alike(tmp_path, capsys):
    whole = fresh(tmp_path / "whole")
    grade(whole)
    merged = sharded(tmp_path, 2, jobs=2)
    assert merge(merged) == 1
    assert files(merged) == files(whole)


def test_shards_given_one_response_file_spelled_two_ways_merge(tmp_path, capsys):
    # --response outputs/response.md in one shard and ./outputs//response.md in the
    # other read the same file and write the same reports; the merge called them mixed.
    whole = fresh(tmp_path / "whole")
    grade(whole, "--response", "outputs/response.md")
    merged = fresh(tmp_path / "ws")
    assert grade_shard(merged, 1, 2, "--response", "outputs/response.md") == 0
    assert grade_shard(merged, 2, 2, "--response", "./outputs//response.md") == 0
    assert merge(merged) == 1
    assert files(merged) == files(whole)


def test_shards_given_one_selection_in_two_orders_merge(tmp_path, capsys):
    # --eval 1 --eval 2 and --eval 2 --eval 1 select the same runs: not mixed options.
    whole = fresh(tmp_path / "whole")
    grade(whole, "--eval", "1", "--eval", "2")
    merged = fresh(tmp_path / "ws")
    assert grade_shard(merged, 1, 2, "--eval", "1", "--eval", "2") == 0
    assert grade_shard(merged, 2, 2, "--eval", "2", "--eval", "1", "--eval", "2") == 0
    assert merge(merged) == 1
    assert files(merged) == files(whole)


def test_merge_check_writes_nothing(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    before = files(merged)
    assert merge(merged, "--check") == 1
    assert files(merged) == before and not (merged / "shard-merge.json").exists()


def _refusal(code: int, capsys) -> str:
    assert code == 2
    return capsys.readouterr().err


def test_mixed_rules_are_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    other = tmp_path / "other.rules"
    other.write_text(RULES.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    host = fresh(tmp_path / "host-3")
    main(["grade", str(host), "--rules", str(other), *RULE_ARGS[2:], "--shard", "2/2"])
    copy_shard(host, merged, 2, 2)
    err = _refusal(merge(merged), capsys)
    assert "mixed: the shards were graded with different rules" in err
    assert "booking.rules" in err and "other.rules" in err
    assert not (merged / "shard-merge.json").exists()


def test_a_missing_shard_is_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 3)
    (merged / "shard-2-of-3.json").unlink()
    err = _refusal(merge(merged), capsys)
    assert "missing: shard 2 of 3 (shard-2-of-3.json)" in err
    assert "ungraded:" in err  # shard 2's runs: in the workspace, graded by no shard


def test_a_duplicate_shard_is_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    shutil.copy2(merged / "shard-1-of-2.json", merged / "shard-2-of-2.json")
    err = _refusal(merge(merged), capsys)
    assert "duplicate: shard-1-of-2.json and shard-2-of-2.json are both shard 1" in err
    assert "missing: shard 2 of 2" in err


def test_a_foreign_shard_is_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(fresh(tmp_path / "x"), elsewhere / "ws")
    moved = elsewhere / "ws" / "iteration-1"
    moved.rename(elsewhere / "ws" / "iteration-7")  # other runs: other paths
    assert grade_shard(elsewhere / "ws", 1, 2) == 0
    shutil.copy2(elsewhere / "ws" / "shard-1-of-2.json", merged / "shard-1-of-2.json")
    err = _refusal(merge(merged), capsys)
    assert "foreign: shard-1-of-2.json lists iteration-7/" in err and "not a run of this workspace" in err


def test_a_manifest_of_other_runs_is_foreign(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    found = manifest(merged, 1, 2)
    entry = found["runs"][0]
    entry["run_number"] += 10  # the same path, another run: made for other runs, or by hand
    (merged / "shard-1-of-2.json").write_text(json.dumps(found), encoding="utf-8")
    err = _refusal(merge(merged), capsys)
    assert f"foreign: shard-1-of-2.json lists {entry['path']} as eval" in err


def test_a_run_listed_by_the_wrong_shard_is_foreign(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    first, second = manifest(merged, 1, 2), manifest(merged, 2, 2)
    moved = second["runs"].pop()
    first["runs"].append(moved)
    (merged / "shard-1-of-2.json").write_text(json.dumps(first), encoding="utf-8")
    (merged / "shard-2-of-2.json").write_text(json.dumps(second), encoding="utf-8")
    err = _refusal(merge(merged), capsys)
    assert f"foreign: shard-1-of-2.json lists {moved['path']}, which belongs to shard 2 of 2" in err


def test_mixed_numbers_of_shards_are_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    host = fresh(tmp_path / "host-3")
    grade_shard(host, 3, 3)
    copy_shard(host, merged, 3, 3)
    err = _refusal(merge(merged), capsys)
    assert "mixed: the shards were graded with different number of shards" in err


def test_a_report_changed_since_its_shard_is_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    path = manifest(merged, 2, 2)["runs"][0]["path"]
    report = merged / path / "grading.json"
    report.write_text(report.read_text(encoding="utf-8").replace('"passed": true', '"passed": false', 1),
                      encoding="utf-8")
    err = _refusal(merge(merged), capsys)
    assert f"changed: {path}/grading.json is not the one shard-2-of-2.json wrote" in err


def test_a_run_added_after_the_shards_is_ungraded(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    source = merged / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1"
    added = source.parent / "run-9"
    shutil.copytree(source, added, ignore=shutil.ignore_patterns("*.json"))
    err = _refusal(merge(merged), capsys)
    assert "ungraded: iteration-1/eval-1-book-flight/with_skill/run-9 is in the workspace" in err


def test_other_rules_at_the_merge_are_refused(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    weak = RULES.parent / "weak.rules"
    code = main(["merge", str(merged), "--rules", str(weak), *RULE_ARGS[2:]])
    assert "the rules given differ" in _refusal(code, capsys)


def test_a_bad_manifest_names_its_file(tmp_path, capsys):
    merged = sharded(tmp_path, 2)
    (merged / "shard-2-of-2.json").write_text('{"format": "referee-shard",\n "version": 1,\n', encoding="utf-8")
    err = _refusal(merge(merged), capsys)
    assert "foreign: shard-2-of-2.json:3:1: not JSON" in err
    assert "missing" not in err  # it is there, unreadable: not "not in the workspace" too
    found = manifest(merged, 1, 2)
    found["runs"][0]["run_number"] = "1"
    (merged / "shard-2-of-2.json").write_text(json.dumps({**found, "shard": 2}), encoding="utf-8")
    assert "shard-2-of-2.json: runs.0.run_number" in _refusal(merge(merged), capsys)
    (merged / "shard-2-of-2.json").write_text(json.dumps({**manifest(merged, 1, 2), "shards": 10 ** 9}),
                                              encoding="utf-8")  # no loop over a billion shards
    assert "shard-2-of-2.json: shards: Input should be less than or equal to 10000" in _refusal(merge(merged), capsys)


# ---- aggregate and report read a sharded workspace only once merged -------------------


def test_aggregate_and_report_refuse_unmerged_shards_then_read_the_merge(tmp_path, capsys):
    whole = fresh(tmp_path / "whole")
    grade(whole)
    merged = sharded(tmp_path, 2)
    assert main(["aggregate", str(merged)]) == 2
    assert "not merged yet: run `referee merge" in capsys.readouterr().err
    assert main(["report", str(merged)]) == 2
    assert merge(merged) == 1
    assert main(["aggregate", str(merged)]) == main(["aggregate", str(whole)])
    assert (merged / "benchmark.json").read_bytes() == (whole / "benchmark.json").read_bytes()
    report = merged / "iteration-1" / "eval-2-fare-export" / "with_skill" / "run-1" / "grading.json"
    report.write_bytes(report.read_bytes().replace(b'"passed": true', b'"passed": false', 1))
    assert main(["report", str(merged)]) == 2
    assert "is not the one the merge wrote" in capsys.readouterr().err


def test_compare_and_diff_refuse_unmerged_shards_then_read_the_merge(tmp_path, capsys):
    """A comparison of a sharded grade that was never merged (shard 2's reports left
    from an earlier grade, say) would rest on part of it: refused, as aggregate does."""
    merged = sharded(tmp_path, 2)
    for command in (["compare", str(merged), "--check"], ["diff", str(merged), str(merged)]):
        assert main(command) == 2, command
        assert "not merged yet: run `referee merge" in capsys.readouterr().err
    assert merge(merged) == 1
    assert main(["compare", str(merged), "--check"]) in (0, 1)


def test_a_lone_run_graded_as_a_shard_is_not_stale_for_its_manifest(tmp_path, capsys):
    # The workspace is the run folder itself: the manifests beside its files are
    # referee's, not the run's, and its files' digest leaves them out.
    run = fresh(tmp_path) / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1"
    assert grade_shard(run, 1, 1) == 0 and (run / "shard-1-of-1.json").is_file()
    assert merge(run) == 0
    assert main(["report", str(run), "--format", "markdown", "-o", "-"]) == 0


def _edit_tally(workspace: Path, index: int, count: int, edit) -> None:
    data = manifest(workspace, index, count)
    for part in data["feedback"]:
        edit(part["tally"])
    (workspace / f"shard-{index}-of-{count}.json").write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("edit, field", [
    (lambda t: t.update(passed_everywhere=[True] * t["positions"]), "passed_everywhere["),
    (lambda t: t.update(runs=t["runs"] + 1), ".tally.runs: "),
    (lambda t: t.update(configurations=[*t["configurations"], "zzz"]), ".tally.configurations: ")])
def test_critique_facts_the_reports_contradict_are_refused(tmp_path, capsys, edit, field):
    # Each edit alone would write a critique no grade of these runs makes, such as
    # "passed in every run of every configuration" of an assertion that failed.
    merged = sharded(tmp_path, 2)
    before = files(merged)
    _edit_tally(merged, 1, 2, edit)
    err = _refusal(merge(merged), capsys)
    assert "tally: shard-1-of-2.json: the reports of the runs it lists say otherwise" in err
    assert field in err
    assert files(merged) == before  # nothing written


@pytest.mark.parametrize("field", ["runs", "working"])
def test_a_count_too_large_for_any_manifest_is_refused_not_an_internal_error(tmp_path, capsys, field):
    # A count no manifest of at most MAX_BYTES can hold: the critique made from it
    # counted a range of that many runs, which Python cannot size ("internal error:
    # OverflowError"). It is refused as any manifest out of shape is.
    merged = sharded(tmp_path, 2)
    before = files(merged)
    _edit_tally(merged, 1, 2, lambda t: t.update({field: 10 ** 30}))
    err = _refusal(merge(merged), capsys)
    assert "shard-1-of-2.json" in err and "internal error" not in err
    assert files(merged) == before
