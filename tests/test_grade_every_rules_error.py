"""``referee grade`` refuses rules with errors naming every one, as ``referee check``
does: a bad string in one rule of a rules file, or in one check of evals.json, showed
alone, and the unknown names of the others only once it was fixed."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main


def _workspace(tmp_path: Path) -> Path:
    outputs = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("ok\n", encoding="utf-8")
    return tmp_path / "ws"


def _codes(err: str) -> list[str]:
    return [line.split(": ")[0] + " " + line.split("error[")[1].split("]")[0]
            for line in err.splitlines() if "error[" in line]


def test_a_rules_file_s_errors_are_all_named(tmp_path, capsys):
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "a": respons contains "x"\nexpect "b": response contains "\\q"\n'
                     'expect "c": count(foo) == 1\n', encoding="utf-8")
    assert main(["grade", str(_workspace(tmp_path)), "--rules", str(rules), "--check"]) == 2
    err = capsys.readouterr().err
    assert _codes(err) == [f"{rules}:2:13 unknown-name", f"{rules}:3:32 bad-string", f"{rules}:4:19 unknown-name"]
    assert "3 errors in the rules; nothing was graded" in err


def test_evals_json_s_errors_are_all_named(tmp_path, capsys):
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"evals": [{"id": 1, "expectations": ["a", "b"], "referee": {
        "checks": {"1": "respons contains \"x\"", "2": "response contains \"\\q\""}}}]}), encoding="utf-8")
    assert main(["grade", str(_workspace(tmp_path)), "--evals", str(evals), "--check"]) == 2
    err = capsys.readouterr().err
    assert [code.split(" ")[1] for code in _codes(err)] == ["unknown-name", "bad-string"]


def test_a_broken_evals_json_is_not_also_said_to_be_missing(tmp_path, capsys):
    rules, evals = tmp_path / "r.rules", tmp_path / "evals.json"
    rules.write_text('eval 1\nexpect 1: response contains input "a.md"\nexpect 2: foo\n', encoding="utf-8")
    evals.write_text('{"evals": [\n', encoding="utf-8")
    assert main(["grade", str(_workspace(tmp_path)), "--rules", str(rules), "--evals", str(evals), "--check"]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and "no evals.json was given" not in err
    assert "unknown name 'foo'" in err
