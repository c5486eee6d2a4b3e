"""``report --format github`` prints workflow commands to standard output: a CI log,
or a terminal. Text from a run (a tool name, an argument it quotes, a file name)
reaches them made inert, as on every other console line of referee: an escape
sequence is written as ``\\x1b``, never sent (it could recolour or hide the log's
text, or rewrite a terminal's earlier lines), and a bidi override as ``\\u202e``."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

HOSTILE = "\x1b[2K\x1b[1A\x1b]8;;https://example.com\x07PASS\x1b]8;;\x07\x9b31m\u202eSSAP"


def _unsafe(text: str) -> list[str]:
    return sorted({c for c in text if c in "\x1b\x07\x9b\u202e"})


def test_escape_sequences_from_a_run_are_written_as_text(tmp_path: Path, capsys):
    # Input: a call whose argument holds a CSI (U+009B) and U+202E (its ESCs are quoted
    # as JSON escapes), and an output file whose name holds ESC; two failing assertions
    # quote them, and the annotations held them raw (and the file's name too).
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    args = json.dumps({"q": HOSTILE}, ensure_ascii=False)
    (outputs / "transcript.md").write_text(
        f"## [tool_calls] Step 1: search\nTool: search\nArgs: {args}\nReturn: {{}}\nStatus: success\n",
        encoding="utf-8")
    (outputs / "notes\x1b[8m.txt").write_text("x\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\n'
                     'expect "asks for cats": any calls to "search" have .args.q == "cats"\n'
                     'expect "notes": first(lines(file "notes\\u001b[8m.txt")) == "y"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    capsys.readouterr()
    assert main(["report", str(tmp_path / "ws"), "--format", "github", "-o", "-", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert _unsafe(out) == []
    assert out.count("\n") == 3 and all(line.startswith("::") for line in out.splitlines())
    assert "\\x9b31m\\u202eSSAP" in out
    assert "notes\\x1b[8m.txt line 1 is" in out
    # The file cannot be named as it is: the annotation stands on the job, not on a path with an ESC.
    assert out.splitlines()[1].startswith("::error title=")
    assert out.splitlines()[0].startswith("::error file=ws/eval-1-x/with_skill/run-1/outputs/transcript.md,line=2,")
