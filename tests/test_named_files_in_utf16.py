"""A rules file or an evals.json written in UTF-16 behind its byte order mark (what
Windows PowerShell's `>` and `Out-File` write: `referee suggest evals.json >
drafts.rules`) is read as the text it is, as a run's own files are: it was refused
("byte 0xff on line 1 is not UTF-8"). UTF-16 that is not valid text is still
refused, naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

RULES = 'eval 1 "x"\r\n# café\r\nexpect "greets": response contains "hello"\r\n'


def _workspace(tmp_path: Path) -> Path:
    outputs = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("hello there\n", encoding="utf-8")
    return tmp_path / "ws"


@pytest.mark.parametrize("encode", [lambda t: t.encode("utf-16"), lambda t: b"\xfe\xff" + t.encode("utf-16-be")])
def test_a_utf16_rules_file_is_read_as_its_text(tmp_path: Path, encode, capsys):
    rules = tmp_path / "r.rules"
    rules.write_bytes(encode(RULES))
    assert main(["check", str(rules)]) == 0
    assert main(["grade", str(_workspace(tmp_path)), "--rules", str(rules), "--check"]) == 0
    assert "1 passed" in capsys.readouterr().out


def test_a_utf16_evals_json_is_read_as_its_text(tmp_path: Path, capsys):
    evals = tmp_path / "evals.json"
    evals.write_bytes(json.dumps({"skill_name": "s", "evals": [
        {"id": 1, "prompt": "p", "expectations": ["Says hello"]}]},
        indent=2).replace("\n", "\r\n").encode("utf-16"))
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect 1: response contains "hello"\n', encoding="utf-8")
    assert main(["grade", str(_workspace(tmp_path)), "--rules", str(rules), "--evals", str(evals), "--check"]) == 0


def test_bytes_behind_a_utf16_mark_that_are_not_utf16_are_refused(tmp_path: Path, capsys):
    rules = tmp_path / "r.rules"
    rules.write_bytes(b"\xff\xfe" + RULES.encode("utf-16-le")[:-1])  # cut in the middle of a character
    assert main(["check", str(rules)]) == 2
    assert "r.rules" in capsys.readouterr().err
