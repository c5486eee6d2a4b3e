"""A CI log reads a workflow command in the legacy form ``##[name]data`` anywhere in a
line, not only at its start: GitHub's runner looks for ``##[`` in every line it prints,
and acts on a known name (``error``, ``warning``, ``add-mask``, ``stop-commands``,
``set-output`` ...). Text from a run (a tool name, a quoted argument, the response)
reaches referee's console made inert, and so never holds ``##[``: it is written
``##\\x5b``, as a control character is written as its escape."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.report.inert import inert

COMMANDS = "##[add-mask]FAIL ##[error]forged ##[stop-commands]token"


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    args = json.dumps({"q": COMMANDS})
    (outputs / "transcript.md").write_text(
        f"## [tool_calls] Step 1: search\nTool: search##[warning]tool\nArgs: {args}\nReturn: {{}}\n"
        "Status: success\n", encoding="utf-8")
    (outputs / "response.md").write_text(f"Done. {COMMANDS}\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\n'
                     'expect "asks for cats": any calls to glob "search*" have .args.q == "cats"\n'
                     'expect "quiet": not response contains "Done"\n', encoding="utf-8")
    return tmp_path / "ws", rules


def test_grade_prints_no_legacy_workflow_command(tmp_path, capsys):
    # Input: a tool named "search##[warning]tool", an argument and the response holding
    # "##[add-mask]FAIL", "##[error]forged" and "##[stop-commands]token"; grade's lines
    # quoted them as they are, and a runner would have masked "FAIL" in the rest of the
    # log, added an error annotation and stopped reading commands.
    ws, rules = _workspace(tmp_path)
    assert main(["grade", str(ws), "--rules", str(rules), "--verbose"]) == 1
    out = capsys.readouterr().out
    assert "##[" not in out
    assert "search##\\x5bwarning]tool" in out and "##\\x5badd-mask]FAIL" in out


def test_show_prints_none_either(tmp_path, capsys):
    ws, _ = _workspace(tmp_path)
    assert main(["show", str(ws / "eval-1-x" / "with_skill" / "run-1")]) == 0
    out = capsys.readouterr().out
    assert "##[" not in out and "##\\x5b" in out


def test_inert_writes_the_prefix_once_and_keeps_other_text():
    assert inert("a ##[error]b") == "a ##\\x5berror]b"
    assert inert(inert("##[error]b")) == inert("##[error]b")
    assert inert("## [tool_calls] Step 1") == "## [tool_calls] Step 1"
    assert inert("#[x] [y]") == "#[x] [y]"
