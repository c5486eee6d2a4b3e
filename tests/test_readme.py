"""The README's commands and examples are run, so the README cannot drift."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee import dsl
from conftest import REPO
from referee.engine.compile import check_rules

README = (REPO / "README.md").read_text(encoding="utf-8")


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```$", README, flags=re.S | re.M)


def test_quick_start_has_the_two_commands_and_ci_runs_the_second():
    section = README.split("## Quick start", 1)[1]
    block = re.search(r"```\w*\n(.*?)```", section, flags=re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[0].startswith("python -m pip install . && referee grade examples/")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()


@pytest.mark.parametrize("text", _blocks("rules"))
def test_rules_examples_compile(text):
    assert check_rules([dsl.parse_rules(text, "README.md")]) == []


@pytest.mark.parametrize("block", _blocks("console"))
def test_console_examples_print_what_the_readme_shows(block, tmp_path: Path):
    """Each ``$ referee ...`` line is run in a copy of the repository's examples;
    the lines the README shows under it are exactly what it prints."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    shutil.copytree(REPO / "rules", tmp_path / "rules")
    command, *shown = block.rstrip("\n").splitlines()
    assert command.startswith("$ referee ")
    args = command[len("$ referee "):].split()
    out = subprocess.run([sys.executable, "-m", "referee.engine.cli", *args], cwd=tmp_path,
                         capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert out.returncode in (0, 1), out.stderr
    assert out.stdout.rstrip("\n").splitlines() == shown


@pytest.mark.parametrize("code", _blocks("python"))
def test_python_examples_run(code, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed, "the example prints its results"
    assert all(line.endswith((" True", " False")) for line in printed)
