"""Record and replay: offline, byte-identical, and loud about what is missing."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from llm_server import KEY_NOTE, SCRIPTED_NOTE, small_run, ScriptedServer, reading_judge, verdicts

from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.llm_adapter import make_judge
from referee.llm_adapter.cassette import FORMAT

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_CASSETTE = REPO / "examples" / "booking-skill" / "judge.cassette.jsonl"
EXAMPLE_WORKSPACE = REPO / "examples" / "booking-skill-workspace"
EXAMPLE_EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
EXAMPLE_RULES = REPO / "examples" / "booking-skill" / "booking.rules"

RUN = small_run({"transcript.md": "## [tool_calls] Step 1: lookup\nTool: search_flights\n"
                                "Args: {\"to\": \"LIS\"}\nReturn: {\"flight\": \"LX2084\"}\n",
               "response.md": "Booked LX2084 for you.\nHave a good trip!\n"})
ITEMS = (SemanticItem("1#1", "The response names flight LX2084", "names LX2084"),
         SemanticItem("1#2", "The response is friendly", "friendly"))


def record(path: Path, server: ScriptedServer, spec: str = "record"):
    return make_judge(f"{spec}:{path}", inner="openai:scripted", base_url=server.url,
                      timeout=5.0, note=SCRIPTED_NOTE)


def test_record_then_replay_offline(tmp_path):
    cassette = tmp_path / "judge.cassette.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        live = record(cassette, server).grade(RUN, ITEMS)
    replayed = make_judge(f"replay:{cassette}").grade(RUN, ITEMS)
    assert replayed.verdicts == live.verdicts
    assert replayed.usage.replayed and not live.usage.replayed
    assert replayed.usage.duration_seconds == round(
        sum(json.loads(line)["seconds"] for line in cassette.read_text().splitlines()[1:]), 3)
    again = make_judge(f"replay:{cassette}").grade(RUN, ITEMS)
    assert again == replayed  # durations come from the cassette, not the clock


def test_first_line_says_what_produced_it(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        record(cassette, server).grade(RUN, ITEMS)
    meta = json.loads(cassette.read_text().splitlines()[0])
    assert meta["format"] == FORMAT and meta["judge"] == SCRIPTED_NOTE
    assert meta["model"] == "scripted" and meta["params"] == {"temperature": 0, "seed": 0}


def test_re_recording_the_same_replies_gives_the_same_bytes(tmp_path):
    cassette = tmp_path / "c.jsonl"
    other = small_run({"response.md": "Nothing booked.\n"})
    with ScriptedServer(default=reading_judge) as server:
        record(cassette, server).grade(RUN, ITEMS)
        record(cassette, server).grade(other, ITEMS)
        first = cassette.read_bytes()
        record(cassette, server).grade(other, ITEMS)  # other order, same exchanges
        record(cassette, server).grade(RUN, ITEMS)
    assert cassette.read_bytes() == first
    keys = [json.loads(line)["key"] for line in first.decode().splitlines()[1:]]
    assert keys == sorted(keys) and len(keys) == 2


def test_replay_miss_is_an_error_naming_the_assertion(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        record(cassette, server).grade(RUN, ITEMS)
    changed = small_run({"response.md": "Something else entirely.\n"})
    result = make_judge(f"replay:{cassette}").grade(changed, ITEMS)
    for item in ITEMS:
        verdict = result.verdicts[item.key]
        assert verdict.outcome is Outcome.ERROR
        assert "no recorded grader reply" in verdict.message and item.text in verdict.message


def test_auto_replays_what_it_has_and_records_the_rest(tmp_path):
    cassette = tmp_path / "c.jsonl"
    changed = small_run({"response.md": "Booked LX2084.\n"})
    with ScriptedServer(default=reading_judge) as server:
        record(cassette, server).grade(RUN, ITEMS)
        judge = record(cassette, server, "auto")
        assert judge.grade(RUN, ITEMS).usage.replayed
        assert len(server.requests) == 1
        assert not judge.grade(changed, ITEMS).usage.replayed
        assert len(server.requests) == 2
    assert len(cassette.read_text().splitlines()) == 3


def test_retry_exchanges_are_recorded_too(tmp_path):
    cassette = tmp_path / "c.jsonl"
    good = verdicts(("named", [("response", "Booked LX2084 for you.")], "PASS"),
                    ("friendly", [("response", "Have a good trip!")], "PASS"))
    with ScriptedServer("garbage", good) as server:
        live = record(cassette, server).grade(RUN, ITEMS)
    replayed = make_judge(f"replay:{cassette}").grade(RUN, ITEMS)
    assert replayed.verdicts == live.verdicts and replayed.usage.requests == 2
    assert all(v.passed for v in replayed.verdicts.values())


@pytest.mark.parametrize("spec, message", [
    ("replay:{dir}/missing.jsonl", "no cassette"),
    ("record:{dir}/c.jsonl", "needs a backend"),
    ("cassette:{dir}/c.jsonl", "bad grader spec"),
    ("openai:", "bad grader spec"),
])
def test_configuration_errors_are_value_errors(tmp_path, spec, message):
    with pytest.raises(ValueError, match=message):
        make_judge(spec.format(dir=tmp_path))


def test_cassette_of_another_model_is_not_mixed(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        record(cassette, server).grade(RUN, ITEMS)
        with pytest.raises(ValueError, match="record into a new file"):
            make_judge(f"record:{cassette}", inner="anthropic:other", base_url=server.url)


def test_damaged_cassette_names_the_line(tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text('{"format": "%s", "version": 1}\nnot json\n' % FORMAT)
    with pytest.raises(ValueError, match=":2: not a JSON line"):
        make_judge(f"replay:{cassette}")


def _grade_copy(tmp_path: Path, name: str) -> dict[str, bytes]:
    workspace = tmp_path / name
    shutil.copytree(EXAMPLE_WORKSPACE, workspace)
    done = subprocess.run(
        [sys.executable, "-m", "referee.engine.cli", "grade", str(workspace), "--rules", str(EXAMPLE_RULES),
         "--evals", str(EXAMPLE_EVALS), "--llm", f"replay:{EXAMPLE_CASSETTE}"],
        cwd=REPO, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode in (0, 1), done.stderr
    assert "not graded" not in done.stdout  # every semantic assertion was in the cassette
    return {str(p.relative_to(workspace)): p.read_bytes()
            for p in sorted(workspace.rglob("grading.json"))}


def test_example_cassette_replays_byte_identically_without_a_key(tmp_path):
    first = _grade_copy(tmp_path, "a")
    second = _grade_copy(tmp_path, "b")
    assert len(first) == 6 and first == second
    methods = [item["method"] for data in first.values()
               for item in json.loads(data)["expectations"] if item["precision"] == "semantic"]
    assert methods == ["grader"] * 6  # the example's one semantic assertion per run
    meta = json.loads(EXAMPLE_CASSETTE.read_text(encoding="utf-8").splitlines()[0])
    assert meta["judge"] == KEY_NOTE  # says no language model made it


def _readme_statuses() -> dict[str, str]:
    """Each run's status in the README's console example (graded without a model)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ referee grade (.*?)```", readme, flags=re.S).group(1)
    return dict((path, status) for status, path in re.findall(r"^(PASS|FAIL|EMPTY) +(\S+)", block, flags=re.M))


def test_the_example_cassette_passes_every_run_the_readme_says_passes(tmp_path):
    """Replayed, the judge's verdicts keep each run's status as the README shows it:
    the runs with the skill pass (their replies are polite, say what happens next,
    and say which flight was left out and why), the runs without fail."""
    graded = _grade_copy(tmp_path, "c")
    statuses = {}
    for name, data in graded.items():
        report = json.loads(data)
        gate = report["gate"]
        statuses[name.rsplit("/grading.json", 1)[0]] = "PASS" if gate["total"] and gate["passed"] == gate["total"] \
            else "FAIL"
        judged = [item for item in report["expectations"] if item["precision"] == "semantic"]
        if "with_skill" in name:
            assert [item["outcome"] for item in judged] == ["pass"]
            assert judged[0]["evidence_location"][0]["file"] == "outputs/response.md"
    assert statuses == _readme_statuses() and "PASS" in statuses.values()


@pytest.mark.parametrize("first, said", [
    ("garbage", "not JSON"),
    # deep enough for every Python: 3.13 decodes 5,000 levels without a RecursionError
    ('{"assertions": ' + "[" * 100_000 + "]" * 100_000 + "}", "not usable JSON (nested too deeply)"),
])
def test_a_refused_reply_whose_retry_is_not_recorded_says_why_it_was_refused(tmp_path, first, said):
    # A cassette that keeps a malformed reply and lost the reply to the retry (cut
    # short, or the line removed). The verdict said "no recorded grader reply", as if
    # the cassette held none, and a reply nested too deeply read "(RecursionError)".
    cassette = tmp_path / "c.jsonl"
    good = verdicts(("named", [("response", "Booked LX2084 for you.")], "PASS"),
                    ("friendly", [("response", "Have a good trip!")], "PASS"))
    with ScriptedServer(first, good) as server:
        record(cassette, server).grade(RUN, ITEMS)
    lines = cassette.read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines[1:] if json.loads(line)["reply"] == first]
    cassette.write_text("\n".join([lines[0], *kept]) + "\n", encoding="utf-8")
    result = make_judge(f"replay:{cassette}").grade(RUN, ITEMS)
    for item in ITEMS:
        message = result.verdicts[item.key].message
        assert result.verdicts[item.key].outcome is Outcome.ERROR
        assert f"the recorded reply is unusable ({said}" in message, message
        assert "for the request that asks again" in message and "Error" not in message
