"""critique's console lines quote names from the workspace and its runs: eval ids and
sentences (eval_metadata.json), tool names the runs call, what a mutant showed. Each
is printed as grade prints it: a control character as its escape (an escape sequence
would drive the terminal or hide text in a CI log) and a line break as ``\\n`` (the
rest would start a line of its own, one GitHub's runner reads as a workflow command)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

TOOL = "Bash\x1b[2K\x1b[1A"
SENTENCE = "says done\n::error::forged"


def test_critique_prints_names_inert_and_on_their_lines(tmp_path: Path, capsys):
    # Input: runs calling a tool named "Bash" + ESC sequences, and eval_metadata.json's
    # sentence "says done\n::error::forged"; critique printed both as they are: the
    # escape sequences reached the terminal, and "::error::forged" began a line.
    for config in ("with_skill", "without_skill"):
        outputs = tmp_path / "ws" / "eval-1-x" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "transcript.md").write_text(
            f"## [tool_calls] Step 1: run\nTool: {TOOL}\nArgs: {{}}\nReturn: {{}}\nStatus: success\n",
            encoding="utf-8")
        (outputs / "response.md").write_text("done\n", encoding="utf-8")
    (tmp_path / "ws" / "eval-1-x" / "eval_metadata.json").write_text(
        json.dumps({"eval_id": 1, "eval_name": "x", "prompt": "p", "expectations": [SENTENCE]}), encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect 1: response contains "done"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 0
    capsys.readouterr()
    main(["critique", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--color", "never"])
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert [line for line in out.splitlines() if line.lstrip().startswith("::")] == []
    assert "says done\\n::error::forged" in out
    assert "Bash\\x1b[2K\\x1b[1A" in out
