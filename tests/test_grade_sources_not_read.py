"""``referee grade SOURCE...`` grades nothing when a source given cannot be read (no
format referee imports, a FIFO): before, it was a warning and the other sources were
graded, so the gate passed (exit 0) over a run file nobody read, a corrupt log in
``runs/*.jsonl`` among clean ones. ``referee.grade`` already refused it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import referee
from referee.engine.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "import" / "claude-code"
RULES_TEXT = 'eval "session"\nexpect 1: count(calls) >= 1\n'


def _unread(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / ("notes.txt" if kind == "text" else "fifo.jsonl")
    if kind == "text":
        path.write_text("no conversation here\n", encoding="utf-8")
    else:
        os.mkfifo(path)
    return path


@pytest.mark.parametrize("kind", ["text", "fifo"])
def test_a_source_not_read_beside_one_read_is_an_input_error(tmp_path: Path, capsys, kind):
    session = FIXTURES / "session.jsonl"
    rules = tmp_path / "r.rules"
    rules.write_text(RULES_TEXT, encoding="utf-8")
    rules_args = ["--rules", str(rules)]
    assert main(["grade", str(session), *rules_args, "--check"]) == 0  # the session alone passes
    capsys.readouterr()
    unread = _unread(tmp_path, kind)
    assert main(["grade", str(session), str(unread), *rules_args, "--check"]) == 2
    err = capsys.readouterr().err
    assert unread.name in err and "nothing graded" in err


def test_the_python_api_refuses_it_too(tmp_path: Path):
    with pytest.raises(ValueError, match="notes.txt"):
        referee.grade(RULES_TEXT, [FIXTURES / "session.jsonl", _unread(tmp_path, "text")])
