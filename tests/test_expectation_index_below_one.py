"""``expect -1: ...``: an expectation index below 1 is a ``bad-index`` error at the
number, reported by ``referee check`` with the file's other errors, never an
internal error of the compiler that reads the index."""

from __future__ import annotations

import json

import pytest

from referee.engine.cli import main


@pytest.mark.parametrize("statement", ["expect -1: exists calls", "expect -3", "expect -1 \"s\": exists calls"])
def test_a_negative_index_is_a_bad_index(tmp_path, capsys, statement):
    rules = tmp_path / "x.rules"
    rules.write_text(f"eval 1\n{statement}\nexpect 2: cuont(calls) == 1\n", encoding="utf-8")
    code = main(["check", "--color", "never", str(rules)])
    out = capsys.readouterr().out
    assert code == 1
    assert f"x.rules:2:8: error[bad-index]" in out
    assert "x.rules:3:11: error[unknown-function]" in out  # the rest is still checked


def test_with_evals_json_too(tmp_path, capsys):
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "p", "expected_output": "o", "expectations": ["a", "b", "c"]}]}),
        encoding="utf-8")
    rules = tmp_path / "x.rules"
    rules.write_text("eval 1\nexpect -1: exists calls\n", encoding="utf-8")
    code = main(["check", "--color", "never", "--evals", str(evals), str(rules)])
    out = capsys.readouterr().out
    assert code == 1 and "x.rules:2:8: error[bad-index]" in out
