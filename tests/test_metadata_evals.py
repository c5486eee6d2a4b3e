"""Metadata as harnesses write it (engine/run/metadata_evals.py): eval_metadata.json's
expectations are the eval's sentences when no evals.json is given, and eval ids that
repeat across skill folders are kept apart by the folder they are in."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.metadata_evals import gathered
from referee.engine.run.workspace import discover


def _skill(root: Path, folder: str, metadata: dict, text: str) -> None:
    eval_dir = root / folder / "iteration-1" / "eval-1"
    for config in ("with_skill", "without_skill"):
        outputs = eval_dir / config / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "result.md").write_text(f"{text} ({config})\n", encoding="utf-8")
    (eval_dir / "eval_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")


def _graded(root: Path, capsys, *args: str) -> tuple[int, list[dict]]:
    code = main(["grade", str(root), "--response", "outputs/result.md", "--check", "--json", *args])
    return code, json.loads(capsys.readouterr().out)["runs"]


def test_the_expectations_of_eval_metadata_are_the_eval_sentences(tmp_path, capsys):
    _skill(tmp_path, "", {"eval_id": 1, "name": "plain", "prompt": "Rewrite it plainly.",
                          "expectations": ["Uses plain words", {"text": "Keeps the title", "passed": False}, 7]},
           "Plain words. Title kept.")
    rules = tmp_path.parent / "plain.rules"
    rules.write_text('eval 1\nexpect 2: response contains "Title kept"\n', encoding="utf-8")
    code, runs = _graded(tmp_path, capsys, "--rules", str(rules))
    assert code == 0
    (first, second) = runs[0]["expectations"]
    assert (first["text"], first["outcome"]) == ("Uses plain words", "not_graded")
    assert (second["text"], second["outcome"]) == ("Keeps the title", "pass")


def test_without_rules_the_sentences_alone_are_graded_as_semantic(tmp_path, capsys):
    _skill(tmp_path, "", {"eval_id": 1, "expectations": ["Uses plain words"]}, "Plain.")
    code, runs = _graded(tmp_path, capsys)
    assert code == 1  # nothing counted toward the gate: not a pass
    assert [a["outcome"] for run in runs for a in run["expectations"]] == ["not_graded", "not_graded"]


def test_a_rules_eval_without_metadata_is_still_an_eval(tmp_path, capsys):
    _skill(tmp_path, "", {"eval_id": 1, "expectations": ["Uses plain words"]}, "Plain.")
    rules = tmp_path.parent / "two.rules"
    rules.write_text('eval 1\nexpect 1: response contains "Plain"\neval 9\nexpect "x": response is not empty\n',
                     encoding="utf-8")
    code, runs = _graded(tmp_path, capsys, "--rules", str(rules))
    # eval 9 has no run: graded, eval 1 passes, and the gate says eval 9 is missing
    assert code == 1 and [a["outcome"] for a in runs[0]["expectations"]] == ["pass"]


def test_eval_ids_that_repeat_across_skill_folders_are_kept_apart(tmp_path, capsys):
    _skill(tmp_path, "humanize-workspace", {"eval_id": 1, "expectations": ["Sounds human"]}, "Sounds human.")
    _skill(tmp_path, "shorten-workspace", {"eval_id": 1, "expectations": ["Is short", "Keeps links"]}, "Short.")
    found = discover(tmp_path)
    assert [(run.id.eval_id, run.id.configuration) for run in found.runs] == [
        ("humanize-workspace/1", "with_skill"), ("humanize-workspace/1", "without_skill"),
        ("shorten-workspace/1", "with_skill"), ("shorten-workspace/1", "without_skill")]
    assert [(e.eval_id, e.sentences) for e in found.expectations] == [
        ("humanize-workspace/1", ("Sounds human",)), ("shorten-workspace/1", ("Is short", "Keeps links"))]
    assert found.expectations == gathered(found.runs)  # what the walk gathers is what the runs say
    rules = tmp_path.parent / "apart.rules"
    rules.write_text('eval "shorten-workspace/1"\nexpect 1: response contains "Short."\n', encoding="utf-8")
    code, runs = _graded(tmp_path, capsys, "--rules", str(rules))
    texts = {(run["eval_id"], run["configuration"]): [a["text"] for a in run["expectations"]] for run in runs}
    assert texts[("humanize-workspace/1", "with_skill")] == ["Sounds human"]
    assert texts[("shorten-workspace/1", "with_skill")] == ["Is short", "Keeps links"]
    assert main(["show", str(tmp_path / "shorten-workspace"), "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)["runs"][0]["run"]
    assert alone["eval_id"] == "1"  # one skill's workspace on its own: nothing to keep apart


def test_iterations_of_one_skill_are_the_same_eval(tmp_path):
    for iteration in (1, 2):
        (tmp_path / "skill-workspace" / f"iteration-{iteration}" / "eval-1" / "with_skill" / "outputs").mkdir(parents=True)
    assert {run.id.eval_id for run in discover(tmp_path).runs} == {"1"}


def test_rules_that_name_an_eval_no_run_has_are_said_to_apply_to_none(tmp_path, capsys):
    # Two skills' eval 1 are kept apart as "<folder>/1" when graded together, so rules
    # written for "1" apply to neither: each is graded by its metadata sentences alone,
    # which without a word would read as "nothing to check here".
    for folder in ("a-workspace", "b-workspace"):
        _skill(tmp_path, folder, {"eval_id": 1, "expectations": ["Says hello"]}, "Hello")
    rules = tmp_path.parent / "one.rules"
    rules.write_text('eval 1\nexpect 1: response contains "Hello"\n', encoding="utf-8")
    main(["grade", str(tmp_path), "--rules", str(rules), "--response", "outputs/result.md", "--check"])
    err = capsys.readouterr().err
    assert ("the rules for eval '1' applied to no run, while evals 'a-workspace/1', 'b-workspace/1' were "
            "graded by the sentences of eval_metadata.json alone") in err
    # Rules that name the evals as they are read: no such word.
    rules.write_text('eval "a-workspace/1"\nexpect 1: response contains "Hello"\n'
                     'eval "b-workspace/1"\nexpect 1: response contains "Hello"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path), "--rules", str(rules), "--response", "outputs/result.md", "--check"]) == 0
    assert "applied to no run" not in capsys.readouterr().err
