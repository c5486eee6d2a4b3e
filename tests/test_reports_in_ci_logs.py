"""``referee report -o -`` prints a report to standard output, which in CI is a log
whose runner reads a workflow command in a line starting with ``::`` (after blanks)
and, in its legacy form ``##[name]``, anywhere in a line. Run text (an argument, a
folder name holding a line break) starts neither in any format: each writes the
character in its own escape (``&#91;`` and ``&#58;`` in XML and HTML, ``\\u005b``
in the page's JSON data, ``\\x5b`` and ``\\x3a`` in a Markdown code block, as on the
console), so a file written with ``-o FILE`` holds the same values."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.engine.cli import main

COMMAND = "##[add-mask]FAIL"
CONFIG = "with_skill\n::error::pwned"
TRANSCRIPT = ("## [tool_calls] Step 1: search\nTool: search\nArgs: {args}\nReturn: {{}}\nStatus: success\n")
# What a runner reads as a command: a line starting with "::" after blanks, or "##[" anywhere.
_COMMAND_LINE = re.compile(r"^\s*::|##\[", re.MULTILINE)


def _graded(tmp_path: Path) -> Path:
    outputs = tmp_path / "ws" / "eval-1-x" / CONFIG / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "transcript.md").write_text(TRANSCRIPT.format(args=json.dumps({"q": COMMAND})), encoding="utf-8")
    (outputs / "response.md").write_text(f"Done {COMMAND}\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "asks for cats": any calls to "search" have .args.q == "cats"\n',
                     encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    return tmp_path / "ws"


def _printed(tmp_path: Path, capsys, fmt: str) -> str:
    ws = _graded(tmp_path)
    capsys.readouterr()
    assert main(["report", str(ws), "--format", fmt, "-o", "-"]) == 1
    return capsys.readouterr().out


def test_junit_starts_no_command_and_holds_the_same_values(tmp_path, capsys):
    # Input: an argument "##[add-mask]FAIL", and a configuration folder whose name holds
    # a line break before "::error::pwned". The JUnit file printed both as they are: a
    # line "::error::pwned/run-1/outputs/transcript.md:2: ...", and "##[add-mask]".
    out = _printed(tmp_path, capsys, "junit")
    assert not _COMMAND_LINE.search(out)
    failure = ET.fromstring(out.encode("utf-8")).find(".//failure")
    assert COMMAND in failure.get("message")
    assert f"{CONFIG}/run-1/outputs/transcript.md:3: " in failure.text


def test_the_html_page_starts_no_command_and_holds_the_same_values(tmp_path, capsys):
    out = _printed(tmp_path, capsys, "html")
    assert not _COMMAND_LINE.search(out)
    data = re.search(r'<script type="application/json" id="referee-run-0">(.*?)</script>', out).group(1)
    assert COMMAND in json.dumps(json.loads(data), ensure_ascii=False)
    assert "with_skill\n&#58;:error::pwned" in out  # the configuration's name in the page


def test_markdown_starts_no_command(tmp_path, capsys):
    out = _printed(tmp_path, capsys, "markdown")
    assert not _COMMAND_LINE.search(out)
    assert "##\\x5badd-mask]FAIL" in out  # in a code block, as the console shows it


@pytest.mark.parametrize("fmt", ["junit", "markdown"])  # an HTML file has its runs beside it
def test_a_file_holds_what_stdout_does(tmp_path, capsys, fmt):
    out = _printed(tmp_path, capsys, fmt)
    target = tmp_path / f"report.{fmt}"
    main(["report", str(tmp_path / "ws"), "--format", fmt, "-o", str(target)])
    assert target.read_text(encoding="utf-8") == out


def test_markdown_s_decision_line_starts_no_command(tmp_path, capsys):
    # Input: the primary configuration's folder named "\u00a0::warning title=x::pwned". The
    # summary's decision line starts with its name: printed, a line a runner reads as a
    # warning annotation once it has trimmed the no-break space.
    primary = "\u00a0::warning title=x::pwned"
    for config in (primary, "without_skill"):
        outputs = tmp_path / "ws" / "eval-1-x" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text("nope\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "says done": response contains "done"\n', encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    capsys.readouterr()
    assert main(["report", str(tmp_path / "ws"), "--format", "markdown", "-o", "-", "--primary", primary]) == 1
    out = capsys.readouterr().out
    assert not _COMMAND_LINE.search(out)
    assert "\u00a0\\::warning title=x:" in out  # Markdown's escape of ":": the same text on the page
