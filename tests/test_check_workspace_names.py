"""``check --workspace`` warns about a tool name no run called, and names the tools the
runs did call ("did you mean ..."): names the runs chose. Each is printed as grade
prints it: a control character as its escape (an escape sequence would drive the
terminal or hide text in a CI log) and a line break as ``\\n``."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

TOOL = "Bash\x1b[2K\x1b[1A"


def test_tool_names_the_runs_called_are_printed_inert(tmp_path: Path, capsys):
    # Input: runs calling a tool named "Bash" + ESC sequences, and a rule about "Bash";
    # check printed "(tools called: Bash\x1b[2K\x1b[1A)" and "did you mean 'Bash...'?" raw.
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "transcript.md").write_text(
        f"## [tool_calls] Step 1: run\nTool: {TOOL}\nArgs: {{}}\nReturn: {{}}\nStatus: success\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "once": count(calls to "Bash") == 1\n', encoding="utf-8")
    assert main(["check", str(rules), "--workspace", str(tmp_path / "ws"), "--color", "never"]) == 0
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert "\x1b" not in out
    assert "tools called: Bash\\x1b[2K\\x1b[1A" in out
