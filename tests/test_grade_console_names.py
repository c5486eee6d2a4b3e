"""Names a run holds (its configuration's folder, its output files) on grade's
console: shown, never acted on. An escape sequence is written as an escape, and a
line break as ``\\n``, so a name can neither drive the terminal nor start a line of
its own: one that reads as referee's, or as a GitHub Actions workflow command
(``::add-mask::FAIL``), which the runner reads at the start of any line of a job's
log, after leading blanks."""

from __future__ import annotations

from pathlib import Path

from named_folders import configurations
from referee.engine.cli import main

FORGED = "::add-mask::FAIL"


def _workspace(base: Path, names: list[str]) -> tuple[Path, Path]:
    return configurations(base, names, expect='response contains "zzz"')


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


def _forged_lines(out: str) -> list[str]:
    """Lines the GitHub runner would read as workflow commands (it trims leading blanks)."""
    return [line for line in out.split("\n") if line.strip().startswith("::")]


def test_a_line_break_in_a_configuration_name_starts_no_line_of_grade(tmp_path, capsys):
    # Input: a configuration folder named "x\n::add-mask::FAIL". Its run's line, the
    # eval's hint naming every configuration, the context line (--primary) and the
    # files written (--verbose) printed the break as it is: the rest of the name
    # started a line, a workflow command in a CI log.
    workspace, rules = _workspace(tmp_path, ["with_skill", f"x\n{FORGED}"])
    for extra in ([], ["--verbose"], ["--primary", "with_skill"], ["--primary", "with_skill", "--verbose"]):
        out = _printed(capsys, "grade", workspace, "--rules", rules, "--color", "never", *extra)
        assert _forged_lines(out) == [], extra
        assert f"x\\n{FORGED}" in out


def test_a_line_break_in_an_output_file_name_starts_no_line_of_grade_verbose(tmp_path, capsys):
    # Input: output files the agent named "a\n::add-mask::FAIL.txt" (holding a NUL
    # byte) and "b\n::add-mask::FAIL.txt" (a link out of the run). The run's warnings
    # and the evidence of a check over outputs name them; --verbose printed both whole.
    workspace, rules = _workspace(tmp_path, ["with_skill"])
    outputs = workspace / "eval-1" / "with_skill" / "run-1" / "outputs"
    (outputs / f"a\n{FORGED}.txt").write_bytes(b"x\x00")
    (outputs / f"b\n{FORGED}.txt").symlink_to("/etc/hostname")
    rules.write_text('eval 1 "x"\nexpect "no text files": no outputs where . matches /txt/\n', encoding="utf-8")
    out = _printed(capsys, "grade", workspace, "--rules", rules, "--check", "--verbose", "--color", "never")
    assert _forged_lines(out) == []
    assert f"outputs/a\\n{FORGED}.txt:1: warning[binary]" in out
    assert f"found 2 outputs where . matches /txt/: a\\n{FORGED}.txt; b\\n{FORGED}.txt" in out
