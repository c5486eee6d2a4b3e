"""mini-swe-agent 2 calls its bash tool (tests/fixtures/real/openai/mini-swe-agent-2-tool-calls)
and keeps, in each assistant message's ``extra``, the provider's raw completion it came
from (``response``, as LiteLLM returns it), whose choice holds the message's calls again.
That copy is where the calls came from, not calls beside them: the run's calls are read
as the message gives them. A completion kept there that holds other calls than the
message (or calls where the message has none) is still a call this importer does not
read, and the run's calls are unknown."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import referee

TRAJECTORY = (Path(__file__).resolve().parent / "fixtures" / "real" / "openai" / "mini-swe-agent-2-tool-calls"
              / "astropy__astropy-12907.traj.json")
RULES = ('eval 1\nexpect 1: count(calls) == 4\nexpect 2: no calls where .args.command contains "pytest"\n'
         'expect 3: first(calls).args.command contains "find . -path"\n')


def _grade(tmp_path: Path, document: dict) -> tuple[list[str], set[str]]:
    source = tmp_path / "run.traj.json"
    source.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    codes = {p.split("warning[")[1].split("]")[0] for p in result.grading["problems"]}
    return [e["outcome"] for e in result.grading["expectations"]], codes


def _document() -> dict:
    return json.loads(TRAJECTORY.read_text(encoding="utf-8"))


def test_the_raw_completion_beside_each_message_is_no_call_missing(tmp_path: Path):
    outcomes, codes = _grade(tmp_path, _document())
    assert outcomes == ["pass", "pass", "pass"]
    assert "calls-may-be-missing" not in codes


def _other_call(message: dict) -> None:
    choice = message["extra"]["response"]["choices"][0]["message"]
    choice["tool_calls"] = copy.deepcopy(choice["tool_calls"]) + [
        {"index": 1, "function": {"arguments": '{"command": "pytest"}', "name": "bash"}, "id": "call_9",
         "type": "function"}]


def _call_without_message_calls(message: dict) -> None:
    message["tool_calls"] = None


def _calls_dropped(message: dict) -> None:
    message["extra"]["response"]["choices"][0]["message"]["tool_calls"][0]["function"]["name"] = "str_replace"


CHANGED = {
    "another-call-in-the-completion": _other_call,
    "calls-only-in-the-completion": _call_without_message_calls,
    "a-call-of-another-tool-in-the-completion": _calls_dropped,
}


@pytest.mark.parametrize("change", CHANGED.values(), ids=CHANGED.keys())
def test_a_completion_holding_other_calls_leaves_the_calls_unknown(tmp_path: Path, change):
    document = _document()
    change(document["messages"][2])
    outcomes, codes = _grade(tmp_path, document)
    assert "calls-may-be-missing" in codes
    assert "pass" not in outcomes[:2]
