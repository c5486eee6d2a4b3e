"""``--response ""`` (``--response "$RESPONSE"`` with the variable unset) names no file:
it left every run without a response, so 'not response contains "x"' passed on every
run whatever the agent answered. Like every other path flag, an empty one is a usage
error naming the flag, in each command that takes it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main

REPO = Path(__file__).resolve().parents[1]
RULES = 'eval 1 "book-flight"\nexpect 1: not response contains "LX2084"\n'


@pytest.fixture
def workspace(tmp_path) -> Path:
    target = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", target)
    (tmp_path / "neg.rules").write_text(RULES, encoding="utf-8")
    return target


@pytest.mark.parametrize("command", ["grade", "critique", "show"])
@pytest.mark.parametrize("blank", ["", "  "])
def test_an_empty_response_flag_is_a_usage_error(workspace, capsys, command, blank):
    extra = [] if command == "show" else ["--rules", str(workspace.parent / "neg.rules"), "--check"]
    with pytest.raises(SystemExit) as stopped:
        main([command, str(workspace), *extra, "--response", blank])
    assert stopped.value.code == 2
    assert "argument --response: an empty path" in capsys.readouterr().err


def test_import_refuses_it_too(tmp_path, capsys):
    source = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
    with pytest.raises(SystemExit) as stopped:
        main(["import", "claude-code", str(source), "--out", str(tmp_path / "out"), "--response", ""])
    assert stopped.value.code == 2
    assert "argument --response: an empty path" in capsys.readouterr().err


def test_the_negative_check_fails_on_a_response_that_holds_the_text(workspace, capsys):
    # what the empty flag hid: the response names LX2084
    assert main(["grade", str(workspace), "--rules", str(workspace.parent / "neg.rules"), "--check",
                 "--eval", "1", "--config", "with_skill", "--run", "1"]) == 1
