"""``--llm`` for compare (holistic reading in both orders) and validate (A/A flip rate),
recorded against scripted judges on a loopback server and replayed offline."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from llm_server import SCRIPTED_NOTE, ScriptedServer, asked_ids, section, user_text, verdicts

from compare_workspace import build, grade
from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
BOOKING = REPO / "examples" / "booking-skill"
# Rules that decide only the fetch: the reply's layout is left to the model.
FETCH_ONLY = "".join(f'\neval {i} "task-{i}"\nexpect "fetches item E{i}": any calls to "api_fetch" have '
                     f'.args.id == "E{i}"\n' for i in range(1, 3))


def outputs(body: dict) -> dict[str, list[str]]:
    """The lines of output A and output B as the comparison request shows them."""
    text = user_text(body)
    found = {}
    for letter in "AB":
        block = re.search(rf"Output {letter}:\n<<<RUN-DATA-\w+>>>\n(.*?)\n<<<END RUN-DATA-", text, re.S).group(1)
        found[letter] = [x for x in block.splitlines() if x.strip() and not x.startswith("--- ")]
    return found


def asked_criteria(body: dict) -> list[str]:
    line = re.search(r"^Criteria to score: (.*)$", user_text(body), re.M).group(1)
    return [] if line.startswith("none") else line.split(", ")


def table_judge(body: dict) -> str:
    """Prefers the output laid out as a table, in whichever position it stands."""
    shown = outputs(body)
    tables = {k: any(line.startswith("|") for line in v) for k, v in shown.items()}
    preference = "TIE" if tables["A"] == tables["B"] else ("A" if tables["A"] else "B")
    sides = {}
    for letter, lines in shown.items():
        point = [{"point": "lays the value out as a table" if tables[letter] else "answers in prose",
                  "quote": lines[-1] if lines else "nothing"}]
        sides[letter] = {"strengths": point if tables[letter] else [], "weaknesses": [] if tables[letter] else point}
    criteria = [{"criterion": c, "A": 5 if tables["A"] else 2, "B": 5 if tables["B"] else 2}
                for c in asked_criteria(body) if c == "formatting"]
    return json.dumps({"reasoning": "A table is easier to read.", "criteria": criteria, **sides,
                       "preference": preference})


def first_judge(body: dict) -> str:
    """Always prefers the output shown first, and quotes something that is not there."""
    made_up = {"strengths": [{"point": "cites the order number", "quote": "order number ZZ9999"}], "weaknesses": []}
    return json.dumps({"reasoning": "The first one.", "A": made_up, "preference": "A"})


def record(workspace: Path, cassette: Path, judge, *extra: str) -> int:
    with ScriptedServer(default=judge) as server:
        return main(["compare", str(workspace), "--llm", f"record:{cassette}", "--llm-backend",
                     "openai:scripted-loopback-judge", "--llm-base-url", server.url, "--llm-note", SCRIPTED_NOTE,
                     *extra])


@pytest.fixture()
def tied(tmp_path: Path) -> Path:
    """Two evals whose rules cannot tell the sides apart: only the reply's layout differs."""
    workspace = build(tmp_path / "ws", {"with_skill": [["good"], ["good"]], "without_skill": [["partial"], ["partial"]]})
    rules_file = tmp_path / "fetch.rules"
    rules_file.write_text(FETCH_ONLY, encoding="utf-8")
    grade(workspace, rules_file)
    return workspace


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_model_decides_only_what_the_rules_leave_tied_and_replays_byte_for_byte(tied, tmp_path, capsys):
    cassette = tmp_path / "compare.cassette.jsonl"
    for out in ("live", "replayed", "replayed-jobs"):
        (tmp_path / out).mkdir()
    assert record(tied, cassette, table_judge, "--out", str(tmp_path / "live")) == 1  # two evals: underpowered
    live = files(tmp_path / "live")
    first = json.loads(live["comparison-1.json"])
    assert first["referee"]["decided_by"] == "model_rubric"
    assert first["referee"]["assignment"][first["winner"]] == "with_skill"
    model = first["referee"]["model"]
    assert model["flipped"] is False and model["criteria"]["formatting"] and model["unsettled"] == []
    scores = first["referee"]["scores"]
    assert {s["criteria"]["correctness"]["source"] for s in scores.values()} == {"rules"}
    assert {s["criteria"]["formatting"]["source"] for s in scores.values()} == {"model"}
    assert any("lays the value out as a table" in s for side in first["output_quality"].values()
               for s in side["strengths"])
    summary = json.loads(live["summary.json"])
    assert summary["flip_rate"] == {"pairs": 2, "flipped": 0, "unusable": 0, "rate": 0.0}
    assert summary["model"]["requests"] == 4 and summary["model"]["replayed"] is False
    for out in ("replayed", "replayed-jobs"):
        args = ["compare", str(tied), "--llm", f"replay:{cassette}", "--out", str(tmp_path / out)]
        assert main(args + (["--jobs", "3"] if out.endswith("jobs") else [])) == 1
    capsys.readouterr()
    replayed = files(tmp_path / "replayed")
    assert json.loads(replayed["summary.json"])["model"]["replayed"] is True
    strip = lambda docs: {k: v for k, v in docs.items() if k != "summary.json"}  # noqa: E731
    assert strip(replayed) == strip(live)
    assert files(tmp_path / "replayed-jobs") == replayed
    assert b"scripted loopback judge" in cassette.read_bytes().splitlines()[0]


def test_a_judge_that_follows_the_position_flips_and_counts_as_a_tie(tied, tmp_path, capsys):
    (tmp_path / "out").mkdir()
    record(tied, tmp_path / "c.jsonl", first_judge, "--out", str(tmp_path / "out"))
    capsys.readouterr()
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["flip_rate"]["flipped"] == 2 and summary["flip_rate"]["rate"] == 1.0
    assert summary["sign_test"]["votes"]["tie"] == 2
    doc = json.loads((tmp_path / "out" / "comparison-1.json").read_text(encoding="utf-8"))
    assert doc["winner"] == "TIE" and doc["referee"]["model"]["flipped"] is True
    rejected = doc["referee"]["model"]["readings"][0]["rejected"]
    assert rejected and "is not in the output" in rejected[0]
    assert not any("order number" in s for side in doc["output_quality"].values() for s in side["strengths"])


def test_the_judge_never_sees_which_configuration_is_which(tmp_path, capsys):
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    (tmp_path / "out").mkdir()
    with ScriptedServer(default=table_judge) as server:
        main(["compare", str(tmp_path / "ws"), "--evals", str(BOOKING / "evals" / "evals.json"), "--llm",
              f"record:{tmp_path / 'c.jsonl'}", "--llm-backend", "openai:m", "--llm-base-url", server.url,
              "--out", str(tmp_path / "out")])
        sent = [json.dumps(r["body"], ensure_ascii=False) for r in server.requests]
    capsys.readouterr()
    assert sent and not [s for s in sent for word in ("with_skill", "without_skill", "flight-booking", "booking-skill")
                         if word in s]


def aa_judge(body: dict) -> str:
    """FAIL on the first reading; on the second, PASS quoting the response's first line."""
    ids = asked_ids(body)
    second = "second reading" in body["messages"][0]["content"]
    lines = section(body, "response")
    if second and lines:
        return verdicts(*[("The response says so.", [("response", lines[0].strip())], "PASS")] * len(ids))
    return verdicts(*[("Nothing shows it.", [], "FAIL")] * len(ids))


def test_validate_measures_the_judges_flip_rate_and_replays_it(tmp_path, capsys):
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    cassette = tmp_path / "aa.jsonl"
    base = ["validate", str(tmp_path / "ws"), "--rules", str(BOOKING / "booking.rules"), "--evals",
            str(BOOKING / "evals" / "evals.json"), "--no-critique", "--json"]
    with ScriptedServer(default=aa_judge) as server:
        assert main(base + ["--llm", f"record:{cassette}", "--llm-backend", "openai:m", "--llm-base-url",
                            server.url]) == 0
    live = json.loads(capsys.readouterr().out)
    flips = live["judge_flip_rate"]
    assert flips["asked"] == 6 and flips["flipped"] == 6 and flips["rate"] == 1.0
    assert [e["judge"]["asked"] for e in live["evals"]] == [4, 2]
    written = (tmp_path / "ws" / "validity.json").read_bytes()
    assert main(base + ["--llm", f"replay:{cassette}"]) == 0
    capsys.readouterr()
    assert (tmp_path / "ws" / "validity.json").read_bytes() == written


def test_readings_that_are_errors_are_not_compared(tmp_path, capsys):
    # Input: validate --llm replay: of a cassette that holds the first readings only
    # (the example's), and of one that holds none. The first said "6 of 6 semantic
    # verdicts changed when asked again" (a missing second reading, an error, counted
    # as a flip); the second "0 of 6" (two errors agree): a perfect judge from no reply.
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    empty = tmp_path / "empty.jsonl"
    empty.write_text((BOOKING / "judge.cassette.jsonl").read_text(encoding="utf-8").splitlines()[0] + "\n",
                     encoding="utf-8")
    base = ["validate", str(tmp_path / "ws"), "--rules", str(BOOKING / "booking.rules"), "--evals",
            str(BOOKING / "evals" / "evals.json"), "--no-critique", "--json", "--check"]
    for cassette in (BOOKING / "judge.cassette.jsonl", empty):
        main(base + ["--llm", f"replay:{cassette}"])
        flips = json.loads(capsys.readouterr().out)["judge_flip_rate"]
        assert flips == {"asked": 0, "flipped": 0, "unusable": 6, "rate": None}
