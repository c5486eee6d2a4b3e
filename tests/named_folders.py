"""Workspaces whose folder names are hostile text, for the tests that what referee
prints keeps each name on its line: the GitHub Actions runner reads a workflow
command at the start of any line of a job's log, after leading blanks."""

from __future__ import annotations

from pathlib import Path

TRANSCRIPT = '## [tool_calls] Step 1: read\nTool: Read\nArgs: {}\nReturn: "ok"\nStatus: success\n'


def forged_lines(text: str) -> list[str]:
    """The lines of ``text`` the runner would read as a workflow command."""
    return [line for line in text.split("\n") if line.strip().startswith("::")]


def configurations(base: Path, names: list[str], runs: int = 1, expect: str = 'response contains "ok"',
                   eval_folder: str = "eval-1") -> tuple[Path, Path]:
    """``base/ws`` holding ``runs`` runs of each configuration in ``names`` (a Read
    call, the response "ok"), and a rules file of one assertion ``expect``."""
    for name in names:
        for number in range(1, runs + 1):
            outputs = base / "ws" / eval_folder / name / f"run-{number}" / "outputs"
            outputs.mkdir(parents=True)
            (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
            (outputs / "response.md").write_text("ok\n", encoding="utf-8")
    rules = base / "r.rules"
    rules.write_text(f'eval 1 "x"\nexpect "answers": {expect}\n', encoding="utf-8")
    return base / "ws", rules


def one_run(base: Path) -> tuple[Path, Path]:
    """``base/ws`` holding one run that says "hi" (eval-1-x, with_skill), and a rules
    file whose one assertion it passes: the workspace hostile folders are added to."""
    run = base / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    run.mkdir(parents=True)
    (run / "response.md").write_text("hi\n", encoding="utf-8")
    rules = base / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "greets": response contains "hi"\n', encoding="utf-8")
    return base / "ws", rules
