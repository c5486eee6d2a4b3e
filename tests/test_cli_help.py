"""Every subcommand's ``--help`` says what each argument is and what each exit code
means, and the commands that print verdicts all take the same ``--color``."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from referee.engine.cli import WORDS, main
from referee.engine.report.terminal import paint

COLOURED = ("grade", "check", "aggregate", "critique", "report")  # the commands that print verdicts


def _help(word: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main([word, "--help"])
    assert done.value.code == 0
    return out.getvalue()


def _entries_without_help(text: str) -> list[str]:
    """The arguments of argparse's "positional arguments:" and "options:" sections
    that have no description: an entry line (two spaces, then the argument) with
    nothing after it and no deeper-indented line under it."""
    missing = []
    sections = re.findall(r"^(?:positional arguments|options):\n(.*?)(?:\n\n|\Z)", text, flags=re.S | re.M)
    for section in sections:
        lines = section.splitlines()
        for n, line in enumerate(lines):
            entry = re.match(r"^  (\S.*?)(?:\s{2,}(\S.*))?$", line)
            if entry is None:
                continue
            described = entry.group(2) or (n + 1 < len(lines) and re.match(r"^\s{4,}\S", lines[n + 1]))
            if not described:
                missing.append(entry.group(1))
    return missing


@pytest.mark.parametrize("word", sorted(WORDS))
def test_every_help_has_an_exit_code_section_and_a_word_for_every_argument(word):
    text = _help(word)
    assert re.search(r"^exit codes\b.*:$", text, flags=re.M), f"referee {word} --help says no exit codes"
    codes = re.findall(r"^  ([0-9]+)  ", text.split("exit codes", 1)[1], flags=re.M)
    assert {"0", "2"} <= set(codes), codes
    assert _entries_without_help(text) == [], f"referee {word} --help: arguments without help"


def test_the_help_walker_finds_a_missing_description():
    text = "options:\n  -h, --help  show this help\n  --bare\n  --long-one LONG_METAVAR_NAME\n                 described\n"
    assert _entries_without_help(text) == ["--bare"]


@pytest.mark.parametrize("word", COLOURED)
def test_one_color_option_everywhere(word):
    text = _help(word)
    assert re.search(r"--color \{auto,always,never\}", text), f"referee {word} has no --color"


def _example_outputs(tmp_path, color: str) -> dict[str, str]:
    from conftest import REPO
    import shutil

    ws = tmp_path / color
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", ws)
    rules = str(REPO / "examples" / "booking-skill" / "booking.rules")
    weak = str(REPO / "examples" / "booking-skill" / "weak.rules")
    calls = {"check": ["check", weak], "aggregate": ["aggregate", str(ws), "--check"],
             "critique": ["critique", str(ws), "--rules", weak, "--check"],
             "report": ["report", str(ws), "--format", "markdown", "-o", str(tmp_path / f"{color}.md")],
             "grade": ["grade", str(ws), "--rules", rules, "--check"]}
    said = {}
    for word, argv in calls.items():
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(argv + ["--color", color])
        said[word] = out.getvalue() + err.getvalue()
    return said


def test_color_always_colours_the_verdicts_and_never_leaves_them_plain(tmp_path, monkeypatch):
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    always, never = _example_outputs(tmp_path, "always"), _example_outputs(tmp_path, "never")
    for word in COLOURED:
        assert "\033[" in always[word], f"referee {word} --color always printed no colour"
        assert "\033[" not in never[word], f"referee {word} --color never printed colour"
    assert paint("PASS", "PASS", True) in always["check"] or paint("ok", "PASS", True) in always["check"]
    assert paint("CONDITIONAL PASS", "CONDITIONAL PASS", True) in always["aggregate"]
    assert paint("WEAK", "FAIL", True) in always["critique"]
