"""A rules file's lines end at a line feed, a CR LF or a lone carriage return (old Mac
editors), as every other file's lines do (engine.text.file_lines): its errors stand on
the line and column an editor shows, with that line under them, and its assertions
cite the lines they are written on, whichever line ends the file uses."""

from __future__ import annotations

import subprocess
import sys

import pytest

from referee import dsl
from referee.dsl.errors import RulesError, render

LINES = ['eval 1 "x"', "", "expect 1: response contains \"a\"", "expect 2: respons contains \"b\""]
ENDS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


@pytest.mark.parametrize("end", ENDS.values(), ids=ENDS.keys())
def test_an_error_stands_on_its_line_whatever_ends_the_lines(tmp_path, end: str):
    path = tmp_path / "r.rules"
    path.write_bytes(end.join(LINES).encode() + end.encode())
    found = subprocess.run([sys.executable, "-m", "referee.engine.cli", "check", str(path)],
                           capture_output=True, text=True)
    assert found.returncode == 1
    assert "r.rules:4:11: error[unknown-name]" in found.stdout
    assert "  expect 2: respons contains \"b\"\n            ^^^^^^^" in found.stdout
    assert "\r" not in found.stdout


@pytest.mark.parametrize("end", ENDS.values(), ids=ENDS.keys())
def test_a_syntax_error_stands_on_its_line_whatever_ends_the_lines(end: str):
    text = end.join(['eval 1 "x"', "expect 1: response contains", "expect 2: response contains \"b\""]) + end
    with pytest.raises(RulesError) as caught:
        dsl.parse_rules(text, "r.rules")
    first = caught.value.diagnostics[0]
    assert first.line == 2, render(first)
    assert "\r" not in render(first)


@pytest.mark.parametrize("end", ENDS.values(), ids=ENDS.keys())
def test_an_assertion_cites_its_line_whatever_ends_the_lines(end: str):
    tree = dsl.parse_rules(end.join(LINES[:3] + ['expect 2: response contains "b"']) + end, "r.rules")
    expects = tree.evals[0].expects
    assert [e.span.line for e in expects] == [3, 4]
