"""Two ``expect`` statements of one eval may not have the same text.

skill-creator's viewer matches an eval's verdicts by their text: its benchmark tab
has one row per text, and in each run's cell it shows the verdict of the first
expectation with that text. Two assertions of one eval written with the same text
(``expect "checks the response": ...`` twice, or two ``expect: CHECK`` with the same
check) were graded apart, and the viewer showed the first one's tick for both: a
failed check read as passed. Such rules are now an error, ``duplicate-text``, at the
second one, naming the first. (A sentence of evals.json counts too:
tests/test_assertions_share_no_text_with_a_sentence.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main


def _workspace(tmp_path: Path) -> Path:
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("Done fine\n", encoding="utf-8")
    return tmp_path / "ws"


def _rules(tmp_path: Path, text: str) -> Path:
    (path := tmp_path / "r.rules").write_text(text, encoding="utf-8")
    return path


def test_two_assertions_with_one_text_are_an_error(tmp_path, capsys):
    rules = _rules(tmp_path, 'eval 1\nexpect "checks the response": response contains "Done"\n'
                             'expect "checks the response": not response contains "fine"\n')
    assert main(["check", str(rules)]) == 1
    out = capsys.readouterr().out
    assert "r.rules:3:1: error[duplicate-text]" in out and "1#1" in out, out
    assert main(["grade", str(_workspace(tmp_path)), "--rules", str(rules)]) == 2
    assert not list((tmp_path / "ws").rglob("grading.json"))


def test_two_unnamed_assertions_with_one_check_are_an_error(tmp_path, capsys):
    rules = _rules(tmp_path, 'eval 1\nexpect: response is not empty\nexpect: response is not empty\n')
    assert main(["check", str(rules)]) == 1
    assert "r.rules:3:1: error[duplicate-text]" in capsys.readouterr().out


def test_one_text_in_two_evals_and_texts_of_their_own_are_graded(tmp_path):
    rules = _rules(tmp_path, 'eval 1\nexpect "checks the response": response contains "Done"\n'
                             'expect "has no fine": not response contains "fine"\n'
                             'eval 2\nexpect "checks the response": response contains "Done"\n')
    ws = _workspace(tmp_path)
    assert main(["grade", str(ws), "--rules", str(rules)]) == 1
    report = json.loads(next(ws.rglob("grading.json")).read_text(encoding="utf-8"))
    texts = [e["text"] for e in report["expectations"]]
    assert texts == ["checks the response", "has no fine"]
