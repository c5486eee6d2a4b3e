"""A verdict carried over (grade without --llm) says who gave it: the model, its
backend, the server that answered (or that the reply was replayed) and the version of
referee that asked, copied from the grade that judged it. The grade that carries it
over asked no model: its ``grader.llm`` stays null, claiming no tokens and no cost."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import REPO
from llm_server import ScriptedServer, reading_judge

from referee import __version__
from referee.engine.cli import main
from referee.engine.report.models import GradingReport

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
RULES = 'eval "session"\nexpect "The reply names the flight LX2084": semantic "names LX2084"\n'


def _report(ws: Path) -> dict:
    return json.loads((ws / "session" / "grading.json").read_text(encoding="utf-8"))


def _judged(tmp_path: Path, monkeypatch) -> tuple[Path, Path, str]:
    """The fixture session imported, and graded once by the scripted judge on a server."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["import", "claude-code", str(SESSION), "--out", str(tmp_path / "ws")]) == 0
    rules = tmp_path / "s.rules"
    rules.write_text(RULES, encoding="utf-8")
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--llm", f"record:{tmp_path / 'judge.jsonl'}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
        url = server.url
    report = _report(tmp_path / "ws")
    assert report["expectations"][0]["method"] == "grader"
    assert report["grader"]["llm"]["endpoint"] == url.rstrip("/")
    return tmp_path / "ws", rules, report["grader"]["llm"]["endpoint"]


def test_a_carried_verdict_names_the_model_and_server_that_gave_it(tmp_path, monkeypatch, capsys):
    ws, rules, endpoint = _judged(tmp_path, monkeypatch)
    main(["grade", str(ws), "--rules", str(rules)])
    report = _report(ws)
    (item,) = report["expectations"]
    assert item["method"] == "grader (carried over)"
    assert item["judged_by"] == {"model": "m", "backend": "openai", "endpoint": endpoint, "replayed": False,
                                 "referee_version": __version__}
    assert report["grader"]["llm"] is None  # this grade asked no model: no tokens, no cost
    GradingReport.model_validate(report)
    before = (ws / "session" / "grading.json").read_bytes()
    main(["grade", str(ws), "--rules", str(rules)])  # carried over again: still named, same bytes
    assert (ws / "session" / "grading.json").read_bytes() == before


def test_a_replayed_verdict_carried_over_says_it_was_replayed(tmp_path, monkeypatch, capsys):
    ws, rules, _ = _judged(tmp_path, monkeypatch)
    main(["grade", str(ws), "--rules", str(rules), "--llm", f"replay:{tmp_path / 'judge.jsonl'}"])
    main(["grade", str(ws), "--rules", str(rules)])
    (item,) = _report(ws)["expectations"]
    assert item["judged_by"] == {"model": "m", "backend": "openai", "endpoint": None, "replayed": True,
                                 "referee_version": __version__}


def test_a_verdict_judged_now_has_no_judged_by(tmp_path, monkeypatch, capsys):
    ws, _, _ = _judged(tmp_path, monkeypatch)
    (item,) = _report(ws)["expectations"]
    assert "judged_by" not in item  # grader.llm says who judged it
