"""GitHub's runner reads a workflow command on any line of a CI log that starts with
``::`` once its leading blanks are trimmed. grade prints each assertion's evidence on
a line of its own, indented; evidence can start with a name the run chose (an output
file's, as the label of ``first(outputs)``), so a name ``::error::x`` would have made
that line a command. The evidence is printed with such a start written ``\\x3a:``."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.cli import main

NAMES = ("::error::forged", "\u00a0::add-mask::FAIL")


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)


def _commands(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.lstrip().startswith("::")]


@pytest.mark.parametrize("name", NAMES)
def test_no_evidence_line_starts_a_workflow_command(tmp_path: Path, capsys, name: str):
    # Input: an output file named "::error::forged" (or with a no-break space first, which
    # the runner trims too) and `first(outputs) == "x"`. grade's evidence line read
    # `          ::error::forged is "::error::forged", expected "x"`: an error annotation
    # (or "FAIL" masked in the rest of the log) in CI.
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / name).write_text("x\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "named x": first(outputs) == "x"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--color", "never"]) == 1
    out = capsys.readouterr().out
    assert _commands(out) == []
    assert '\\x3a:' in out and 'is "' in out


def test_evidence_that_starts_otherwise_is_printed_as_it_is(tmp_path: Path, capsys):
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "a::b").write_text("x\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "named x": first(outputs) == "x"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--color", "never"]) == 1
    out = capsys.readouterr().out
    assert '          a::b is "a::b", expected "x"' in out
