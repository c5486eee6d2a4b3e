"""A SWE-agent ``.traj`` file is one JSON object: the run's messages under ``history``,
beside the ``trajectory`` of the same steps (each as the agent saw it, with the
``query`` sent to the model), ``info``, ``replay_config`` and ``environment``. It is read
as its history, each line cited where it is in the file; a history beside another
message list, or none that is a list, is never read without a word."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import referee
from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.jsondoc import message_array
from referee.engine.run.importers.record import Call
from referee.engine.run.importers.source import read_source

FIXTURE = Path(__file__).parent / "fixtures/real/openai/swe-agent-test-repo/sweagenttestrepo-1c2844.history.json"
RULES = ('eval 1\nexpect 1: count(calls) == 4\nexpect 2: no calls where .args.command contains "rm"\n'
         'expect 3: first(calls to "bash").return contains "8.2"\n')


def _trajectory(history: list) -> dict:
    """A ``.traj`` as SWE-agent 1.x writes it (``get_trajectory_data``), trimmed: the
    real history whole, one step of its trajectory."""
    call = next(m for m in history if m.get("tool_calls"))
    step = {"action": call["action"], "observation": "Found 1 matches", "response": call["content"],
            "thought": call["thought"], "execution_time": 0.1, "state": {"open_file": "n/a"},
            "query": history[:history.index(call)] + [call], "extra_info": {}}
    return {"trajectory": [step], "history": history, "info": {"submission": "diff --git a/tests/missing_colon.py"},
            "replay_config": "{}", "environment": "main"}


def _write(tmp_path: Path, value: dict, name: str = "run.traj") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    return path


def _read(path: Path) -> list:
    return openai_sources.read_conversations(read_source(path))


def test_a_trajectory_file_is_read_as_its_history(tmp_path: Path):
    history = json.loads(FIXTURE.read_text(encoding="utf-8"))
    path = _write(tmp_path, _trajectory(history))
    result, = referee.grade(RULES, path, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass", "pass", "pass"]
    conversation, = _read(path)
    # as the history alone gives: it ends on the answer to bash, the agent at work
    assert [p.code for p in conversation.problems] == ["no-reply", "statuses-assumed"]


def test_each_message_is_cited_on_its_own_line_of_the_file(tmp_path: Path):
    history = json.loads(FIXTURE.read_text(encoding="utf-8"))
    path = _write(tmp_path, _trajectory(history))
    shift = path.read_text(encoding="utf-8").splitlines().index('  "history": [')  # the fixture's "[" is line 1
    alone, = _read(FIXTURE)
    conversation, = _read(path)
    assert len(conversation.entries) == len(alone.entries) and shift > 10
    for entry, expected in zip(conversation.entries, alone.entries):
        assert entry.origin.line == expected.origin.line + shift
        assert entry.origin.source == "run.traj"
    calls = [e for e in conversation.entries if isinstance(e, Call)]
    assert [c.tool for c in calls] == ["find_file", "open", "edit", "bash"]
    assert message_array(path.read_bytes()).base == "/history"


def test_a_history_beside_a_messages_list_leaves_the_calls_and_response_unknown(tmp_path: Path):
    history = json.loads(FIXTURE.read_text(encoding="utf-8"))
    value = _trajectory(history)
    value["messages"] = [{"role": "assistant", "content": "", "tool_calls": [
        {"id": "x", "type": "function", "function": {"name": "bash", "arguments": '{"command": "rm -rf /"}'}}]}]
    path = _write(tmp_path, value)
    result, = referee.grade(RULES, path, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["error", "error", "error"]
    conversation, = _read(path)
    assert {"calls-may-be-missing", "unread-text"} <= {p.code for p in conversation.problems}


def test_a_history_beside_messages_is_a_second_list_without_a_trajectory_too(tmp_path: Path):
    messages = [{"role": "user", "content": "remove /tmp/x"}, {"role": "assistant", "content": "Done."}]
    value = {"messages": messages, "history": [{"role": "assistant", "content": "", "tool_calls": [
        {"id": "x", "type": "function", "function": {"name": "bash", "arguments": '{"command": "rm -rf /tmp/x"}'}}]}]}
    for order in (value, dict(reversed(value.items()))):
        path = _write(tmp_path, order, "run.json")
        result, = referee.grade(RULES, path, as_eval="1")
        assert [item["outcome"] for item in result.expectations][1] == "error"


def test_a_history_alone_is_no_trajectory(tmp_path: Path):
    path = _write(tmp_path, {"history": [{"role": "user", "content": "hi"}]}, "run.json")
    assert message_array(path.read_bytes()) is None


def test_a_trajectory_whose_history_is_no_list_is_one_clear_error(tmp_path: Path):
    path = _write(tmp_path, {"trajectory": [{"action": "ls", "observation": "x"}], "history": {"role": "user"},
                             "info": {}})
    out = tmp_path / "out"
    code, errors = _import(path, out)
    assert code == 2
    assert len(errors) == 1 and "whose \"history\" is no list of messages" in errors[0]


def _import(path: Path, out: Path) -> tuple[int, list[str]]:
    found = subprocess.run([sys.executable, "-m", "referee.engine.cli", "import", "openai", str(path), "--out",
                            str(out)], capture_output=True, text=True, check=False)
    return found.returncode, [line for line in found.stderr.splitlines() if path.name in line]


def test_a_step_only_the_trajectory_holds_leaves_the_runs_calls_unknown(tmp_path: Path):
    # SWE-agent's test-repo run ran submit as its last step, which its history does not
    # show: read from the history alone, 'no calls to "submit"' passed
    history = json.loads(FIXTURE.read_text(encoding="utf-8"))
    value = _trajectory(history)
    calls = [m for m in history if m.get("role") == "assistant" and (m.get("action") or m.get("tool_calls"))]
    step = dict(value["trajectory"][0])
    value["trajectory"] = [{**step, "action": m["action"]} for m in calls] + [{**step, "action": "submit"}]
    rules = 'eval 1\nexpect 1: no calls to "submit"\nexpect 2: count(calls) == 4\n'
    result, = referee.grade(rules, _write(tmp_path, value), as_eval="1")
    assert [e["outcome"] for e in result.expectations] == ["error", "error"]
    assert any("the trajectory holds 5 steps that ran a command, the history 4" in p
               for p in result.grading["problems"])
    value["trajectory"] = value["trajectory"][:-1]  # as many steps as the history shows: read as before
    result, = referee.grade(rules, _write(tmp_path, value, "whole.traj"), as_eval="1")
    assert [e["outcome"] for e in result.expectations] == ["pass", "pass"]
