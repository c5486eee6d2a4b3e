"""Evidence in a source that holds a whole conversation on one line (an OpenAI message
list, ``chat.json``) names its place by JSON Pointer: ``chat.json#/messages/2/...``,
line 1. The reports quote, and the HTML viewer highlights, the line of the written
view that the source map maps to that pointer, never merely the first line that
came from line 1 of the source (which every line of the view did)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main
from referee.engine.report.collect import collect
from referee.engine.report.viewer_data import run_data

CHAT = REPO / "tests" / "fixtures" / "import" / "openai" / "chat.json"
RULES = ('eval "chat"\n'
         'let search = first(calls to "travel_searchFlights")\n'
         'expect "searches on the 99th": search.args.date == "2026-05-99"\n'
         'expect "answers with the fare": first(calls to "travel_searchFlights").return.flights[0].price_eur == 1\n')


def _graded(tmp_path: Path) -> Path:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(json.loads(CHAT.read_text(encoding="utf-8"))), encoding="utf-8")  # one line
    assert main(["import", "openai", str(source), "--out", str(tmp_path / "ws")]) == 0
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules")]) == 1
    return tmp_path / "ws"


def test_the_reports_quote_the_line_the_pointer_names(tmp_path: Path, capsys):
    # Input: the OpenAI fixture on one line, imported; two assertions fail, citing
    # chat.json#/messages/2/tool_calls/0/function/arguments:1 (the search's Args) and
    # chat.json#/messages/4/content:1 (its Return). Markdown, JUnit and the GitHub
    # annotations quoted, for both, "Booked LX2084 for Ana Müller. Booking reference:
    # ZR4P9D.": the first written line mapped to chat.json:1, in response.md.
    workspace = _graded(tmp_path)
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 1
    out = capsys.readouterr().out
    assert ('chat.json#/messages/2/tool_calls/0/function/arguments:1: Args: {"origin": "ZRH", '
            '"destination": "LIS", "date": "2026-05-14"}') in out
    assert 'chat.json#/messages/4/content:1: Return: {"flights": [{"flightId": "LX2084", "price_eur": 189}]}' in out
    assert "Booking reference: ZR4P9D" not in out


def test_the_viewer_links_the_evidence_to_the_line_the_pointer_names(tmp_path: Path):
    workspace = _graded(tmp_path)
    run = collect(workspace).runs[0]
    data = run_data(run)
    transcript = next(n for n, f in enumerate(data["files"]) if f["name"] == "outputs/transcript.md")
    lines = data["files"][transcript]["lines"]
    places = {item["key"]: item["places"] for item in data["assertions"]}
    (args,) = places["chat#1"]
    (returned,) = places["chat#2"]
    assert args["at"][0] == transcript and lines[args["at"][1] - 1].startswith('Args: {"origin": "ZRH"')
    assert returned["at"][0] == transcript and lines[returned["at"][1] - 1].startswith('Return: {"flights"')
