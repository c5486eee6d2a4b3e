"""A run whose folder name is not UTF-8 (a Latin-1 byte, read as a lone surrogate) is
recorded into a cassette under the name referee writes everywhere else, with the byte
escaped (``eval-1-caf\\udce9/...``): the cassette is UTF-8, and the run is graded."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from llm_server import ScriptedServer, reading_judge
from sharded import fresh

from referee.engine.cli import main

RULES = 'eval 1 "book-flight"\nexpect "The response names the flight LX2084": semantic "names LX2084"\n'


def outcomes(workspace: Path) -> dict[str, str]:
    found = {}
    for path in sorted(workspace.rglob("grading.json")):
        for item in json.loads(path.read_text(encoding="utf-8"))["expectations"]:
            if item["text"] == "The response names the flight LX2084":
                found[path.parent.relative_to(workspace).as_posix()] = item["outcome"] + ": " + item["evidence"]
    return found


def test_a_run_in_a_latin1_folder_is_recorded_and_replayed(tmp_path, monkeypatch, capsys):
    # input: the eval folder renamed eval-1-caf<0xE9>, a semantic assertion, --llm record: then replay:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    workspace, cassette = fresh(tmp_path), tmp_path / "judge.jsonl"
    folder = os.fsencode(workspace / "iteration-1")
    try:
        os.rename(folder + b"/eval-1-book-flight", folder + b"/eval-1-caf\xe9")
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 names")
    rules = tmp_path / "one.rules"
    rules.write_text(RULES, encoding="utf-8")
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(workspace), "--rules", str(rules), "--llm", f"record:{cassette}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    recorded = outcomes(workspace)
    assert len(recorded) == 4
    # was: "internal error in the LLM grader (UnicodeEncodeError ...)" for each, and no cassette
    assert not [verdict for verdict in recorded.values() if "internal error" in verdict], recorded
    assert "iteration-1/eval-1-caf\\\\udce9/with_skill/run-1: " in cassette.read_text(encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(rules), "--llm", f"replay:{cassette}"])
    assert outcomes(workspace) == recorded
