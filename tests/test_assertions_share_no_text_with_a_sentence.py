"""No two assertions of one eval have the same text, wherever the text comes from.

skill-creator's viewer shows, for each text of an eval, the verdict of the first
expectation with it. An evals.json sentence graded on its own (by the LLM grader, or
not graded) and a standalone ``expect "that sentence": CHECK`` of the same eval were
two assertions of one text: the rule failing while the sentence passed read as a
pass. Two equal sentences of one evals.json did the same. Both are ``duplicate-text``:
at the ``expect`` (whose hint says how to link it to the sentence), or at the second
sentence inside evals.json.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main


def _files(tmp_path: Path, rules: str, sentences: list[str]) -> tuple[Path, Path, Path]:
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("Done, secret kept\n", encoding="utf-8")
    (rules_path := tmp_path / "r.rules").write_text(rules, encoding="utf-8")
    (evals := tmp_path / "evals.json").write_text(json.dumps(
        {"evals": [{"id": 1, "prompt": "p", "expectations": sentences}]}, indent=1), encoding="utf-8")
    return tmp_path / "ws", rules_path, evals


def test_a_standalone_rule_with_a_sentences_text_is_an_error(tmp_path, capsys):
    ws, rules, evals = _files(tmp_path, 'eval 1\nexpect "no secret": not response contains "secret"\n',
                              ["no secret"])
    assert main(["check", str(rules), "--evals", str(evals)]) == 1
    out = capsys.readouterr().out
    assert "r.rules:2:1: error[duplicate-text]" in out and "expectation 1 of evals.json" in out, out
    assert "expect 1:" in out  # the hint: link the rule to the sentence
    assert main(["grade", str(ws), "--rules", str(rules), "--evals", str(evals)]) == 2
    assert not list(ws.rglob("grading.json"))


def test_the_rule_linked_to_the_sentence_grades_it(tmp_path):
    ws, rules, evals = _files(tmp_path, 'eval 1\nexpect 1: not response contains "secret"\n', ["no secret"])
    assert main(["grade", str(ws), "--rules", str(rules), "--evals", str(evals)]) == 1
    report = json.loads(next(ws.rglob("grading.json")).read_text(encoding="utf-8"))
    assert [(e["text"], e["passed"]) for e in report["expectations"]] == [("no secret", False)]


def test_a_sentence_repeated_in_evals_json_is_an_error(tmp_path, capsys):
    ws, rules, evals = _files(tmp_path, "", ["no secret", "says done", "no secret"])
    assert main(["check", "--evals", str(evals)]) == 1
    out = capsys.readouterr().out
    assert "evals.json:9:" in out and "error[duplicate-text]" in out, out
    assert main(["grade", str(ws), "--evals", str(evals)]) == 2
    assert not list(ws.rglob("grading.json"))


def test_a_repeated_sentence_linked_to_a_rule_is_reported_in_evals_json(tmp_path, capsys):
    ws, rules, evals = _files(tmp_path, 'eval 1\nexpect 3: not response contains "secret"\n',
                              ["no secret", "says done", "no secret"])
    assert main(["check", str(rules), "--evals", str(evals)]) == 1
    out = capsys.readouterr().out
    assert "evals.json:9:" in out and "error[duplicate-text]" in out, out


def test_a_rule_giving_its_own_sentence_to_a_repeat_is_graded(tmp_path):
    ws, rules, evals = _files(tmp_path, 'eval 1\nexpect 3 "no secret in the reply": not response contains "secret"\n',
                              ["no secret", "says done", "no secret"])
    assert main(["grade", str(ws), "--rules", str(rules), "--evals", str(evals)]) == 1
    report = json.loads(next(ws.rglob("grading.json")).read_text(encoding="utf-8"))
    assert [e["text"] for e in report["expectations"]] == ["no secret", "says done", "no secret in the reply"]


def test_suggest_says_where_evals_json_repeats_a_sentence(tmp_path, capsys):
    _, _, evals = _files(tmp_path, "", ["no secret", "says done", "no secret"])
    main(["suggest", str(evals)])
    captured = capsys.readouterr()
    assert "evals.json:9: expectation 3 of eval 1 repeats the sentence of expectation 1" in captured.err
    assert "# 3. no secret\n#    the same sentence as 1:" in captured.out


def test_sentences_from_eval_metadata_are_named_as_theirs(tmp_path, capsys):
    ws, rules, _ = _files(tmp_path, 'eval 1\nexpect "says done": response contains "Done"\n', [])
    (ws / "eval-1" / "eval_metadata.json").write_text(
        json.dumps({"eval_id": 1, "prompt": "p", "assertions": ["says done"]}), encoding="utf-8")
    assert main(["grade", str(ws), "--rules", str(rules)]) == 2
    err = capsys.readouterr().err
    assert "same text as expectation 1 of eval_metadata.json" in err and "expect 1: CHECK" in err, err
