"""An output file whose name is not UTF-8 (a byte such as 0xE9 from a Latin-1 system)
is shown to the grader under the name referee writes everywhere else, with the byte
escaped (``caf\\udce9.txt``); the request is text, and the run is graded."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from llm_server import ScriptedServer, reading_judge, user_text
from sharded import fresh

from referee.engine.cli import main

RUN = Path("iteration-1") / "eval-1-book-flight" / "with_skill" / "run-1"
RULES = 'eval 1 "book-flight"\nexpect "The response names the flight LX2084": semantic "names LX2084"\n'


def outcome(workspace: Path) -> tuple[str, str]:
    report = json.loads((workspace / RUN / "grading.json").read_text(encoding="utf-8"))
    (item,) = [found for found in report["expectations"] if found["text"] == "The response names the flight LX2084"]
    return item["outcome"], item["evidence"]


def test_an_output_named_in_latin1_is_shown_and_graded(tmp_path, monkeypatch, capsys):
    # input: outputs/caf<0xE9>.txt beside the response, a semantic assertion, --llm record: then replay:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    workspace, cassette = fresh(tmp_path), tmp_path / "judge.jsonl"
    try:
        with open(os.fsencode(workspace / RUN / "outputs") + b"/caf\xe9.txt", "w", encoding="utf-8") as handle:
            handle.write("Menu of the day.\n")
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 names")
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(workspace), "--rules", str(rules), "--llm", f"record:{cassette}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    # was: an error verdict, "internal error in the LLM grader (UnicodeEncodeError ...)", nothing asked
    shown = [user_text(r["body"]) for r in server.requests if "Menu of the day." in user_text(r["body"])]
    assert len(shown) == 1 and "--- outputs/caf\\udce9.txt line 1 ---\nMenu of the day." in shown[0]
    recorded = outcome(workspace)
    assert recorded[0] == "pass", recorded
    main(["grade", str(workspace), "--rules", str(rules), "--llm", f"replay:{cassette}"])
    assert outcome(workspace) == recorded
