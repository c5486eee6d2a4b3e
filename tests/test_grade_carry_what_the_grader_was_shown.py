"""An LLM grader's earlier verdict is carried over (grade without --llm) only while
everything behind it is unchanged: besides the run's files and the assertions'
wording, an imported run's ``source_map.json`` (by which the verdict's evidence
names the source's file and line), the grader's own page (its instructions and
standards) and how its request is laid out (its headings, the lines of the
expectations, how much of a long segment is shown), which an upgrade of referee
may change."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import REPO
from llm_server import ScriptedServer, reading_judge

from referee.engine import grader_page
from referee.engine.cli import main
from referee.llm_adapter import evidence, prompt

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
RULES = 'eval "session"\nexpect "The reply names the flight LX2084": semantic "names LX2084"\n'


def _judged(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """The fixture session imported, and graded once by the scripted judge."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["import", "claude-code", str(SESSION), "--out", str(tmp_path / "ws")]) == 0
    rules = tmp_path / "s.rules"
    rules.write_text(RULES, encoding="utf-8")
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--llm", f"record:{tmp_path / 'judge.jsonl'}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    assert _item(tmp_path)["method"] == "grader"
    return tmp_path / "ws", rules


def _item(tmp_path: Path) -> dict:
    report = json.loads((tmp_path / "ws" / "session" / "grading.json").read_text(encoding="utf-8"))
    (item,) = report["expectations"]
    return item


def test_the_verdict_is_carried_while_nothing_changed(tmp_path, monkeypatch, capsys):
    ws, rules = _judged(tmp_path, monkeypatch)
    main(["grade", str(ws), "--rules", str(rules)])
    assert _item(tmp_path)["method"] == "grader (carried over)"


def test_a_changed_source_map_drops_the_verdict(tmp_path, monkeypatch, capsys):
    # Input: the run's source_map.json names another source file (the session imported
    # again under another name, the written views the same). The carried verdict kept
    # its evidence citing "session.jsonl", a file the run no longer names.
    ws, rules = _judged(tmp_path, monkeypatch)
    assert "session.jsonl" in json.dumps(_item(tmp_path)["evidence_location"])
    source_map = ws / "session" / "source_map.json"
    document = json.loads(source_map.read_text(encoding="utf-8"))
    document["sources"] = ["renamed.jsonl"]
    source_map.write_text(json.dumps(document), encoding="utf-8")
    main(["grade", str(ws), "--rules", str(rules)])
    item = _item(tmp_path)
    assert item["method"] == "not_graded"
    assert "an earlier LLM grader verdict was not kept" in item["evidence"]


def test_a_changed_grader_page_drops_the_verdict(tmp_path, monkeypatch, capsys):
    # Input: the grader's instructions reworded (an upgrade of referee), the run and the
    # assertion unchanged. The verdict judged under the old page was carried over.
    ws, rules = _judged(tmp_path, monkeypatch)
    monkeypatch.setattr(grader_page, "INSTRUCTIONS", grader_page.INSTRUCTIONS + "Quote whole lines.\n")
    main(["grade", str(ws), "--rules", str(rules)])
    assert _item(tmp_path)["method"] == "not_graded"


def test_a_changed_standard_drops_the_verdict(tmp_path, monkeypatch, capsys):
    ws, rules = _judged(tmp_path, monkeypatch)
    standards = {**grader_page.STANDARDS, "mcp_based": grader_page.STANDARDS["mcp_based"] + " Read every Return."}
    monkeypatch.setattr(grader_page, "STANDARDS", standards)
    main(["grade", str(ws), "--rules", str(rules)])
    assert _item(tmp_path)["method"] == "not_graded"


def test_showing_less_of_each_segment_drops_the_verdict(tmp_path, monkeypatch, capsys):
    # Input: MAX_SHOWN lowered (an upgrade of referee), the run, the assertion and the
    # grader's page unchanged. The grader would now see each segment cut short, yet the
    # verdict given on the whole text was carried over.
    ws, rules = _judged(tmp_path, monkeypatch)
    monkeypatch.setattr(evidence, "MAX_SHOWN", 20)
    main(["grade", str(ws), "--rules", str(rules)])
    item = _item(tmp_path)
    assert (item["method"], item["outcome"]) == ("not_graded", "not_graded")
    assert "an earlier LLM grader verdict was not kept" in item["evidence"]


def test_another_layout_of_the_request_drops_the_verdict(tmp_path, monkeypatch, capsys):
    # Input: the heading of each segment of the record laid out otherwise (prompt.py).
    ws, rules = _judged(tmp_path, monkeypatch)
    laid_out = prompt._segment_text
    monkeypatch.setattr(prompt, "_segment_text", lambda segment: laid_out(segment).replace("--- ", "### ", 1))
    main(["grade", str(ws), "--rules", str(rules)])
    assert _item(tmp_path)["method"] == "not_graded"
