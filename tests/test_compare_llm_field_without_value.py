"""``compare --llm`` holds the model's quotes to the rule the grade's grader holds its
quotes to (``quotes.proves_nothing``): a point whose quote ends at a field's name and
leaves its value out (``"booking_confirmed"`` of ``{"booking_confirmed": false}``, or
``booking_confirmed`` of ``booking_confirmed: false``) proves nothing and is dropped,
as a quote the grader gave for a PASS counts as none. It was kept as a strength of the
output whose file says the booking was not confirmed. The field with its value is kept,
and the comparison replays from its cassette with no network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_server import SCRIPTED_NOTE, ScriptedServer

from compare_workspace import build, grade
from referee.engine.cli import main

FETCH_ONLY = "".join(f'\neval {i} "task-{i}"\nexpect "fetches item E{i}": any calls to "api_fetch" have '
                     f'.args.id == "E{i}"\n' for i in range(1, 3))


def judge(quote: str):
    def reply(body: dict) -> str:
        point = {"strengths": [{"point": "the booking is confirmed", "quote": quote}], "weaknesses": []}
        return json.dumps({"reasoning": "Both say the same.", "criteria": [], "A": point, "B": point,
                           "preference": "TIE"})
    return reply


def compare(tmp_path: Path, status: str, quote: str, name: str) -> dict:
    workspace = build(tmp_path / name, {"with_skill": [["good"], ["good"]], "without_skill": [["partial"], ["partial"]]},
                      extra={"status.txt": status})
    rules_file = tmp_path / "fetch.rules"
    rules_file.write_text(FETCH_ONLY, encoding="utf-8")
    grade(workspace, rules_file)
    out = tmp_path / f"{name}-out"
    out.mkdir()
    cassette = tmp_path / f"{name}.jsonl"
    with ScriptedServer(default=judge(quote)) as server:
        main(["compare", str(workspace), "--llm", f"record:{cassette}", "--llm-backend",
              "openai:scripted-loopback-judge", "--llm-base-url", server.url, "--llm-note", SCRIPTED_NOTE,
              "--out", str(out)])
    recorded = (out / "comparison-1.json").read_bytes()
    again = tmp_path / f"{name}-replayed"
    again.mkdir()
    main(["compare", str(workspace), "--llm", f"replay:{cassette}", "--out", str(again)])
    assert (again / "comparison-1.json").read_bytes() == recorded
    return json.loads(recorded)


@pytest.mark.parametrize("status, quote", [
    ('{"booking_confirmed": false, "ref": "LX2084"}\n', '"booking_confirmed"'),
    ('{"booking_confirmed": false, "ref": "LX2084"}\n', '"booking_confirmed":'),
    ("booking_confirmed: false\nref: LX2084\n", "booking_confirmed"),
])
def test_a_point_quoting_a_fields_name_without_its_value_is_dropped(tmp_path, capsys, status, quote):
    doc = compare(tmp_path, status, quote, "ws")
    (reading, *_) = doc["referee"]["model"]["readings"]
    assert len(reading["rejected"]) == 2 and all("proves nothing" in r for r in reading["rejected"])
    assert not any("booking" in s for side in doc["output_quality"].values() for s in side["strengths"])


def test_the_field_with_its_value_is_kept(tmp_path, capsys):
    doc = compare(tmp_path, '{"booking_confirmed": true, "ref": "LX2084"}\n', '"booking_confirmed": true', "ws")
    (reading, *_) = doc["referee"]["model"]["readings"]
    assert reading["rejected"] == []
