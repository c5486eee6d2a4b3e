"""``referee validate``: can each eval tell? And its place in the release decision."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compare_workspace import build, grade, rules
from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
BOOKING = REPO / "examples" / "booking-skill"


def run(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_null_run_fails_every_eval_of_the_bundled_example(tmp_path, capsys):
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    code, out = run(capsys, "validate", tmp_path / "ws", "--rules", BOOKING / "booking.rules",
                    "--evals", BOOKING / "evals" / "evals.json")
    doc = json.loads((tmp_path / "ws" / "validity.json").read_text(encoding="utf-8"))
    assert code == 0, out
    assert [(e["eval_id"], e["null_run"]["gate"], e["can_tell"]) for e in doc["evals"]] == [
        ("1", "FAIL", True), ("2", "FAIL", True)]
    assert doc["evals"][0]["null_run"]["passing"] == [] and doc["cannot_tell"] == []
    assert doc["power"] == {"evals_with_both": 2, "min_non_tie": 5, "enough": False}
    mutation = doc["evals"][0]["mutation"]
    assert mutation["mutants"] > 0 and 0 < mutation["score"] <= 1
    discrimination = {row["key"]: row for row in doc["evals"][1]["discrimination"]}
    assert discrimination["2#1"]["discriminates"] is False and discrimination["2#2"]["discriminates"] is True


def test_the_weak_rules_pass_an_assertion_on_nothing(tmp_path, capsys):
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    code, out = run(capsys, "validate", tmp_path / "ws", "--rules", BOOKING / "weak.rules", "--check",
                    "--no-critique")
    assert code == 0
    assert "a null run passes 1#3 (the gate still fails)" in out
    assert not (tmp_path / "ws" / "validity.json").exists()


def negative_workspace(tmp_path: Path) -> tuple[Path, Path]:
    plan = {"with_skill": [["good"] * 3] * 3, "without_skill": [["partial"] * 3] * 3}
    workspace = build(tmp_path / "ws", plan)
    rules_file = rules(tmp_path / "neg.rules", 3, negative=[2])
    grade(workspace, rules_file)
    return workspace, rules_file


def test_an_eval_a_null_run_passes_blocks_a_pass(tmp_path, capsys):
    workspace, rules_file = negative_workspace(tmp_path)
    code, out = run(capsys, "aggregate", workspace, "--check")
    assert code == 0 and out.startswith("PASS"), out
    code, out = run(capsys, "validate", workspace, "--rules", rules_file, "--no-critique")
    assert code == 1
    assert "FAIL eval 2: null run PASS (1/1 gated passed)" in out
    doc = json.loads((workspace / "validity.json").read_text(encoding="utf-8"))
    assert doc["cannot_tell"] == ["2"]
    code, out = run(capsys, "aggregate", workspace, "--check")
    assert code == 1 and out.startswith("FAIL"), out
    assert "FAIL eval_validity: 1 of 3 evals cannot tell (referee validate): eval 2: a null run" in out


def test_validity_is_left_out_once_the_runs_are_graded_again(tmp_path, capsys):
    workspace, rules_file = negative_workspace(tmp_path)
    run(capsys, "validate", workspace, "--rules", rules_file, "--no-critique")
    grade(workspace, rules(tmp_path / "other.rules", 3))  # other verdicts now
    code, out = run(capsys, "aggregate", workspace, "--check")
    assert "eval_validity" not in out
    assert "validity.json is about other verdicts than the runs aggregated" in out


def test_reference_runs_must_pass(tmp_path, capsys):
    workspace, _ = negative_workspace(tmp_path)
    reference = build(tmp_path / "reference", {"reference": [["good"], ["bad"]]}, iteration=None)
    capsys.readouterr()
    code = main(["validate", str(workspace), "--rules", str(rules(tmp_path / "all.rules", 3)),
                 "--reference", str(reference), "--check", "--json", "--no-critique"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1
    by_eval = {e["eval_id"]: e for e in doc["evals"]}
    assert by_eval["1"]["reference"][0]["gate"] == "PASS" and by_eval["1"]["can_tell"]
    assert by_eval["2"]["reference"][0]["gate"] == "FAIL" and not by_eval["2"]["can_tell"]
    assert by_eval["3"]["reference"] == [] and by_eval["3"]["can_tell"]
    assert "the reference run eval-2-task-2/reference/run-1 does not pass its gate" in by_eval["2"]["findings"][0]


def test_bad_rules_are_a_usage_error(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text('eval 1\nexpect: response contains\n', encoding="utf-8")
    code = main(["validate", str(EXAMPLE), "--rules", str(bad), "--check"])
    assert code == 2 and "bad.rules:2" in capsys.readouterr().err


@pytest.mark.parametrize("header", ['eval "a/b"', 'eval ".."', 'eval 1 "a/b"', 'eval 1 ""', 'eval 1 "."'])
def test_an_eval_key_or_name_no_folder_could_have_gets_its_null_run(tmp_path, capsys, header):
    """The rules may key or name an eval so (`referee check` passes them); the null run is
    built in memory under a place of its own, so the key and name need not be a folder's."""
    written = tmp_path / "odd.rules"
    written.write_text(header + '\nexpect "replies": response contains "x"\n', encoding="utf-8")
    code, out = run(capsys, "validate", EXAMPLE, "--rules", written, "--check", "--no-critique")
    assert code == 0 and "null run FAIL (0/1 gated passed)" in out, out


def test_errors_in_evals_json_name_that_file(tmp_path, capsys):
    """The sentences of evals.json are read as rules too: its errors are its own, not "the rules"'."""
    evals = json.loads((BOOKING / "evals" / "evals.json").read_text(encoding="utf-8"))
    evals["evals"][0]["expectations"][0] = {"text": "x"}
    bad = tmp_path / "evals.json"
    bad.write_text(json.dumps(evals), encoding="utf-8")
    good = tmp_path / "good.rules"
    good.write_text('eval 1\nexpect: response contains "x"\n', encoding="utf-8")
    code = main(["validate", str(EXAMPLE), "--rules", str(good), "--evals", str(bad), "--check"])
    err = capsys.readouterr().err
    assert code == 2 and f"error: {bad} has errors; nothing was validated" in err, err
    assert "the rules have errors" not in err


def test_a_validity_made_before_grading_is_left_out(tmp_path, capsys):
    workspace = build(tmp_path / "ws", {"with_skill": [["good"] * 3] * 3, "without_skill": [["bad"] * 3] * 3})
    rules_file = rules(tmp_path / "gen.rules", 3)
    code, out = run(capsys, "validate", workspace, "--rules", rules_file, "--no-critique")
    assert code == 0 and "discrimination and power not measured" in out
    assert json.loads((workspace / "validity.json").read_text(encoding="utf-8"))["inputs"] is None
    grade(workspace, rules_file)
    code, out = run(capsys, "aggregate", workspace, "--check")
    assert "validity.json was made without runs graded by its rules" in out and "eval_validity" not in out


def test_runs_graded_by_other_rules_are_not_about_the_rules_validated(tmp_path, capsys):
    """A null run graded by good rules says nothing of runs graded by weak ones: the
    workspace graded with weak.rules is not measured against booking.rules, and
    aggregate does not take that validity.json as about its runs."""
    workspace = shutil.copytree(EXAMPLE, tmp_path / "ws")
    weak, evals = BOOKING / "weak.rules", BOOKING / "evals" / "evals.json"
    assert run(capsys, "grade", workspace, "--rules", weak, "--evals", evals)[0] == 1
    code, out = run(capsys, "validate", workspace, "--rules", BOOKING / "booking.rules", "--evals", evals,
                    "--no-critique")
    assert code == 0 and "power: 0 evals" in out
    assert "graded by weak.rules@" in out and "not by the rules given (booking.rules@" in out
    code, out = run(capsys, "aggregate", workspace, "--check")
    assert "validity.json was made without runs graded by its rules" in out and "eval_validity" not in out
    code, out = run(capsys, "validate", workspace, "--rules", weak, "--evals", evals, "--no-critique")
    assert code == 1 and "power: 2 evals" in out
    code, out = run(capsys, "aggregate", workspace, "--check")
    assert code == 1 and "FAIL eval_validity" in out


def test_validity_json_is_byte_identical_across_paths(tmp_path, capsys):
    for name in ("one", "two/deeper"):
        shutil.copytree(EXAMPLE, tmp_path / name / "ws")
        assert run(capsys, "validate", tmp_path / name / "ws", "--rules", BOOKING / "booking.rules",
                   "--evals", BOOKING / "evals" / "evals.json")[0] == 0
    first = (tmp_path / "one/ws/validity.json").read_bytes()
    assert first == (tmp_path / "two/deeper/ws/validity.json").read_bytes() and str(tmp_path).encode() not in first
