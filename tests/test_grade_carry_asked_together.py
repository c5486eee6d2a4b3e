"""A run's semantic assertions are asked in one request: an earlier verdict is carried
over (grade without --llm) only while every assertion asked with it is worded the same,
since the grader asked again would be asked another question."""

from __future__ import annotations

import json
from pathlib import Path

from llm_server import ScriptedServer, reading_judge
from sharded import fresh

from referee.engine.cli import main

RUN = Path("iteration-1") / "eval-1-book-flight" / "with_skill" / "run-1"
RULES = ('eval 1 "book-flight"\n'
         'expect "The response names the flight LX2084": semantic "names LX2084"\n'
         'expect "The response gives the bookingRef": semantic "{second}"\n')


def rules(tmp_path: Path, second: str) -> str:
    path = tmp_path / f"rules-{len(list(tmp_path.glob('rules-*')))}.rules"
    path.write_text(RULES.format(second=second), encoding="utf-8")
    return str(path)


def methods(workspace: Path) -> dict[str, tuple[str, str]]:
    report = json.loads((workspace / RUN / "grading.json").read_text(encoding="utf-8"))
    return {item["text"]: (item["method"], item["outcome"]) for item in report["expectations"]}


def test_a_reworded_neighbour_drops_the_carried_verdict(tmp_path, monkeypatch, capsys):
    # input: two semantic assertions graded together with --llm; then the second one's
    # rubric is reworded and the run is graded again without --llm
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    workspace, cassette = fresh(tmp_path), tmp_path / "judge.jsonl"
    first = rules(tmp_path, "gives bookingRef")
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(workspace), "--rules", first, "--llm", f"record:{cassette}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    named = "The response names the flight LX2084"
    assert methods(workspace)[named] == ("grader", "pass")
    main(["grade", str(workspace), "--rules", first])
    assert methods(workspace)[named] == ("grader (carried over)", "pass")  # nothing changed: kept
    main(["grade", str(workspace), "--rules", rules(tmp_path, "gives the booking reference")])
    assert methods(workspace)[named] == ("not_graded", "not_graded")
    main(["grade", str(workspace), "--rules", rules(tmp_path, "gives the booking reference"),
          "--llm", f"replay:{cassette}"])
    assert methods(workspace)[named][1] == "error"  # asked again, it is another request
