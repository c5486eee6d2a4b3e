"""``--response PATH`` naming a file outside the run folder (``../answer.md``, an absolute
path) is not read: the run has no response, as when the run is graded where it lies
with that ``--response``, never the agent's last words, which the harness did not
deliver as the answer. ``import`` and ``grade SOURCE`` took the last words: ``response
contains "done"`` passed on text that was not the response."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

CHAT = [{"role": "user", "content": "answer in a file"}, {"role": "assistant", "content": "done"}]
RULES = 'eval "chat"\nexpect 1: response contains "done"\n'


@pytest.mark.parametrize("named", ["../answer.md", "ABSOLUTE"])
def test_a_response_named_outside_the_run_folder_leaves_no_response(named: str, tmp_path: Path, capsys):
    (tmp_path / "answer.md").write_text("the answer\n", encoding="utf-8")
    named = str(tmp_path / "answer.md") if named == "ABSOLUTE" else named
    source = tmp_path / "run" / "chat.json"
    source.parent.mkdir()
    source.write_text(json.dumps(CHAT), encoding="utf-8")
    rules = tmp_path / "chat.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["import", "openai", str(source), "--response", named, "--out", str(tmp_path / "ws")]) == 0
    assert "warning[bad-response]" in capsys.readouterr().out
    code = main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"])
    imported = json.loads(capsys.readouterr().out)
    (expectation,) = imported["runs"][0]["expectations"]
    assert code == 1 and expectation["outcome"] == "fail"  # was: a pass on the agent's last words
    assert main(["grade", str(source), "--rules", str(rules), "--response", named, "--json"]) == code
    assert json.loads(capsys.readouterr().out) == imported
