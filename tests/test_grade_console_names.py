"""Names a run holds (its configuration's folder, its output files) on grade's
console: shown, never acted on. An escape sequence is written as an escape, and a
line break as ``\\n``, so a name can neither drive the terminal nor start a line of
its own: one that reads as referee's, or as a GitHub Actions workflow command
(``::add-mask::FAIL``), which the runner reads at the start of any line of a job's
log, after leading blanks."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

FORGED = "::add-mask::FAIL"
TRANSCRIPT = '## [tool_calls] Step 1: read\nTool: Read\nArgs: {}\nReturn: "ok"\nStatus: success\n'


def _workspace(base: Path, configurations: list[str]) -> tuple[Path, Path]:
    for configuration in configurations:
        outputs = base / "ws" / "eval-1" / configuration / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
        (outputs / "response.md").write_text("ok\n", encoding="utf-8")
    rules = base / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "answers": response contains "zzz"\n', encoding="utf-8")
    return base / "ws", rules


def _printed(capsys, *argv) -> str:
    capsys.readouterr()
    main([str(a) for a in argv])
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_the_context_line_shows_an_escape_sequence_in_a_configuration_name_as_escapes(tmp_path, capsys):
    # Input: a baseline configuration folder named "\x1b]0;pwn\x07" (a terminal's
    # "set the window title"), graded with --primary with_skill: its runs are
    # summed up on a context line, which printed the name as it is.
    workspace, rules = _workspace(tmp_path, ["with_skill", "\x1b]0;pwn\x07"])
    out = _printed(capsys, "grade", workspace, "--rules", rules, "--check", "--primary", "with_skill",
                   "--color", "never")
    assert "\x1b" not in out and "\x07" not in out
    assert "context  \\x1b]0;pwn\\x07: 1 run" in out
