"""SWE-agent may put a demonstration (a past run shown to the model as an example) in
the history it keeps: as one user turn, or, with ``put_demos_in_history``, as the demo's
own messages, its assistant turns with their calls and the answers to them. It marks
each such message ``"is_demo": true``. The harness wrote them, whatever their role: their
words are harness text, their calls are not the run's, and the eval prompt is the
instance's issue, never the demonstration's."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import read_sources
from referee.engine.run.importers.writer import render_run
from referee.engine.run.memory import memory_run

SYSTEM = {"role": "system", "content": "SETTING: You are an autonomous programmer.", "agent": "main",
          "message_type": "system_prompt"}
ISSUE = {"role": "user", "content": "We're currently solving the following issue: fix the rounding in fields.py",
         "agent": "main", "message_type": "observation"}


def _demo(message: dict) -> dict:
    return {**message, "agent": "main", "is_demo": True}


def _call(call_id: str, command: str) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": "bash",
                                                           "arguments": json.dumps({"command": command})}}


def _grade(tmp_path: Path, messages: list, rules: str) -> list[str]:
    source = tmp_path / "history.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    result, = referee.grade("eval 1\n" + rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def _demo_steps() -> list[dict]:
    # a demonstration put in the history step by step (put_demos_in_history), with tool calls
    return [_demo({"role": "user", "content": "We're currently solving the following issue: TimeDelta "
                   "serialization precision", "message_type": "observation"}),
            _demo({"role": "assistant", "content": "Let's reproduce it.", "thought": "Let's reproduce it.",
                   "action": "python reproduce.py", "tool_calls": [_call("d1", "python reproduce.py")],
                   "message_type": "action"}),
            _demo({"role": "tool", "content": "344", "tool_call_ids": ["d1"], "message_type": "observation"}),
            _demo({"role": "assistant", "content": "Let's remove the script.", "thought": "Let's remove it.",
                   "action": "rm reproduce.py", "tool_calls": [_call("d2", "rm reproduce.py")],
                   "message_type": "action"}),
            _demo({"role": "tool", "content": "", "tool_call_ids": ["d2"], "message_type": "observation"})]


def _run() -> list[dict]:
    step = {"role": "assistant", "content": "Let me look.", "thought": "Let me look.", "action": "ls",
            "tool_calls": [_call("c1", "ls")], "agent": "main", "message_type": "action"}
    answer = {"role": "tool", "content": "fields.py", "tool_call_ids": ["c1"], "agent": "main",
              "message_type": "observation"}
    return [ISSUE, step, answer, {"role": "assistant", "content": "The rounding is fixed.", "agent": "main"}]


def test_a_demonstrations_calls_are_not_the_runs(tmp_path: Path):
    rules = ('expect 1: count(calls) == 1\nexpect 2: no calls where .args.command contains "rm"\n'
             'expect 3: exists harness where .text contains "Let\'s remove the script."\n'
             'expect 4: not response contains "reproduce"\n')
    assert _grade(tmp_path, [SYSTEM, *_demo_steps(), *_run()], rules) == ["pass", "pass", "pass", "pass"]


def test_a_demonstration_is_never_the_eval_prompt(tmp_path: Path):
    # SWE-agent's default: the whole demonstration as one user turn, before the issue
    demo = _demo({"role": "user", "content": "Here is a demonstration of how to correctly accomplish this task.\n"
                  "--- DEMONSTRATION ---\nWe're currently solving the following issue: TimeDelta serialization "
                  "precision\n--- END OF DEMONSTRATION ---\n", "message_type": "demonstration"})
    for messages in ([SYSTEM, demo, *_run()], [SYSTEM, *_demo_steps(), *_run()]):
        source = tmp_path / "history.json"
        source.write_text(json.dumps(messages), encoding="utf-8")
        (_, _, conversation), = read_sources("openai", [source]).found
        run = memory_run(render_run(conversation).files, eval_id="1")
        prompt = next(iter(referee.grade('eval 1\nexpect 1: exists harness where .text contains "rounding"\n',
                                         run)))
        assert prompt.expectations[0]["outcome"] == "pass"
        transcript = render_run(conversation).files["outputs/transcript.md"]
        eval_prompt = transcript.split("## Eval Prompt", 1)[1].split("\n## ", 1)[0]
        assert "fix the rounding" in eval_prompt and "TimeDelta" not in eval_prompt, eval_prompt
