"""An assertion that is part rule, part judgement keeps the grader's earlier verdict
(grade without --llm) only while its rule part finds what it found when the grader
judged: the verdict carried over quotes that rule part, its finding and its places."""

from __future__ import annotations

import json
from pathlib import Path

from llm_server import ScriptedServer, reading_judge
from sharded import fresh

from referee.engine.cli import main

RUN = Path("iteration-1") / "eval-1-book-flight" / "with_skill" / "run-1"
SENTENCE = "The response names the flight LX2084"


def rules(tmp_path: Path, rule_part: str) -> str:
    path = tmp_path / f"rules-{len(list(tmp_path.glob('rules-*')))}.rules"
    path.write_text(f'eval 1 "book-flight"\nexpect "{SENTENCE}": {rule_part} and semantic "names LX2084"\n',
                    encoding="utf-8")
    return str(path)


def item(workspace: Path) -> dict:
    report = json.loads((workspace / RUN / "grading.json").read_text(encoding="utf-8"))
    return next(found for found in report["expectations"] if found["text"] == SENTENCE)


def test_another_rule_part_drops_the_carried_verdict(tmp_path, monkeypatch, capsys):
    # input: `response contains "LX2084" and semantic ...` judged with --llm; then the rule
    # part becomes `response contains "SWISS"` (the sentence and the judgement part unchanged)
    # and the run is graded again without --llm
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    workspace, cassette = fresh(tmp_path), tmp_path / "judge.jsonl"
    first = rules(tmp_path, 'response contains "LX2084"')
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(workspace), "--rules", first, "--llm", f"record:{cassette}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    assert (item(workspace)["method"], item(workspace)["outcome"]) == ("grader", "pass")
    main(["grade", str(workspace), "--rules", first])
    assert item(workspace)["method"] == "grader (carried over)"  # nothing changed: kept
    main(["grade", str(workspace), "--rules", rules(tmp_path, 'response contains "SWISS"')])
    now = item(workspace)
    # was: carried over, its evidence "the rule part: response.md contains "LX2084"", a rule no longer there
    assert (now["method"], now["outcome"]) == ("not_graded", "not_graded")
    assert 'contains "LX2084"' not in now["evidence"] and 'contains "SWISS"' in now["evidence"]
    assert "an earlier LLM grader verdict was not kept" in now["evidence"]


def test_a_plain_semantic_sentence_is_still_carried(tmp_path, monkeypatch, capsys):
    # input: the same, with a rule part whose finding does not change between the grades
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    workspace, cassette = fresh(tmp_path), tmp_path / "judge.jsonl"
    first = rules(tmp_path, 'response contains "LX2084"')
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(workspace), "--rules", first, "--llm", f"record:{cassette}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    main(["grade", str(workspace), "--rules", rules(tmp_path, 'response contains "LX2084"')])
    assert (item(workspace)["method"], item(workspace)["outcome"]) == ("grader (carried over)", "pass")
