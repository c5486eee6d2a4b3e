"""``show`` says when the text where the response would lie cannot be used, as ``grade``
does. A real run of the context-engineering workspace (tests/fixtures/real/
context-engineering-workspace) has no response file and a Copilot CLI export as its
transcript, in no format referee knows: every check on its response is an ERROR, yet
``show`` printed ``response: 5711 bytes, transcript.md`` as if the export were the answer."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

RUN = (Path(__file__).parent / "fixtures" / "real" / "context-engineering-workspace"
       / "iteration-11-gemini-3.1-pro-preview-postfix" / "eval-2-conflict" / "old_skill" / "run-1")


def _response_line(capsys) -> str:
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("response:")]
    return line


def test_show_says_the_response_cannot_be_used(capsys):
    assert main(["show", str(RUN)]) == 0
    line = _response_line(capsys)
    assert line.startswith("response: cannot be used: ")
    assert "transcript.md is in no format referee knows" in line


def test_show_json_gives_the_reason(capsys):
    assert main(["show", str(RUN), "--json"]) == 0
    (view,) = json.loads(capsys.readouterr().out)["runs"]
    assert view["response"]["path"] == "transcript.md"
    assert "transcript.md is in no format referee knows" in view["response"]["unusable"]


def test_a_response_that_can_be_used_has_no_reason(capsys):
    assert main(["show", str(RUN), "--json", "--response", "outputs/conflict.md"]) == 0
    (view,) = json.loads(capsys.readouterr().out)["runs"]
    assert view["response"]["unusable"] is None
    assert view["response"]["path"].endswith("conflict.md")
