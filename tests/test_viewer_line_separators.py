"""The HTML viewer's run files (``report_files/data-N.js``) are scripts: a browser runs
``referee.load(N, {...})``. U+2028 and U+2029 end a line in JavaScript source, and a
string literal holding one raw is a syntax error to every engine older than ES2019, so
the run could not be opened there. A run's text holding them (a response, an argument)
is written with JSON's escapes ``\\u2028`` and ``\\u2029``: the same values."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

TEXT = "one\u2028two\u2029three"


def test_run_files_hold_no_raw_line_separators(tmp_path: Path, capsys):
    # Input: a response and a call argument holding U+2028 and U+2029; data-0.js held them raw.
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    args = json.dumps({"q": TEXT}, ensure_ascii=False)
    (outputs / "transcript.md").write_text(
        f"## [tool_calls] Step 1: search\nTool: search\nArgs: {args}\nReturn: {{}}\nStatus: success\n",
        encoding="utf-8")
    (outputs / "response.md").write_text(f"{TEXT}\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "cats": any calls to "search" have .args.q == "cats"\n'
                     'expect "quiet": not response contains "one"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    assert main(["report", str(tmp_path / "ws"), "--format", "html", "-o", str(tmp_path / "r.html")]) == 1
    text = (tmp_path / "r_files" / "data-0.js").read_text(encoding="utf-8")
    assert "\u2028" not in text and "\u2029" not in text
    assert text.startswith("referee.load(0,") and text.endswith(");\n")
    data = json.loads(text[len("referee.load(0,"):-len(");\n")])
    assert TEXT in json.dumps(data, ensure_ascii=False)
