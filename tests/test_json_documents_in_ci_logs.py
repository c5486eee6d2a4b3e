"""A JSON document referee prints (``grade --json``, ``show --json``) may end up in a
CI log, whose runner reads a workflow command in the legacy form ``##[name]data``
anywhere in a line (``##[add-mask]FAIL`` hides "FAIL" in the rest of the log). A run's
text holding ``##[`` is printed with the ``[`` as the JSON escape ``\\u005b``: the
document holds the very same values, and the log no command."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

COMMAND = "##[add-mask]FAIL"


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "transcript.md").write_text(
        f"## [tool_calls] Step 1: search\nTool: search\nArgs: {json.dumps({'q': COMMAND})}\nReturn: {{}}\n"
        "Status: success\n", encoding="utf-8")
    (outputs / "response.md").write_text(f"Done {COMMAND}\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "asks for cats": any calls to "search" have .args.q == "cats"\n'
                     'expect "quiet": not response contains "Done"\n', encoding="utf-8")
    return tmp_path / "ws", rules


def test_grade_json_holds_no_legacy_command_and_the_same_values(tmp_path, capsys):
    # Input: an argument and the response holding "##[add-mask]FAIL"; grade --json printed
    # it as it is in the evidence and quotes.
    ws, rules = _workspace(tmp_path)
    capsys.readouterr()
    assert main(["grade", str(ws), "--rules", str(rules), "--json", "--check"]) == 1
    out = capsys.readouterr().out
    assert "##[" not in out
    (run,) = json.loads(out)["runs"]
    assert COMMAND in json.dumps(run, ensure_ascii=False)


def test_show_json_holds_no_legacy_command(tmp_path, capsys):
    ws, _ = _workspace(tmp_path)
    capsys.readouterr()
    assert main(["show", str(ws / "eval-1-x" / "with_skill" / "run-1"), "--json"]) == 0
    out = capsys.readouterr().out
    assert "##[" not in out
    assert COMMAND in json.dumps(json.loads(out), ensure_ascii=False)
