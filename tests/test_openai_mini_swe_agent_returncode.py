"""mini-swe-agent's answer to a command it ran, in a tool message (its tool-calling
mode, v2): the observation template opens with the command's exit code,
``<returncode>N</returncode>``, and a command it killed for taking too long is
answered "The last command <command>...</command> timed out and has been killed.".
That is the tool's own flag: an exit code other than 0, or a timeout, is an error;
0 a success. Before, with no other flag, every such answer was read as a success
(statuses assumed) and ``no calls with status error`` passed on a failed command."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import graded, json_file

RULES = ('eval 1\nexpect 1: no calls with status error\n'
         'expect 2: all calls to "bash" have .status == "success"\n')


def _run(answer: str) -> list[dict]:
    call = {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "pytest -q"}'}}
    return [{"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
            {"role": "user", "content": "Please solve this issue: the tests fail"},
            {"role": "assistant", "content": "THOUGHT: run the tests", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": answer},
            {"role": "assistant", "content": "Done."}]


def _grade(tmp_path: Path, answer: str) -> tuple[list[str], bool]:
    """The outcomes, and whether the run says its statuses were assumed."""
    verdicts, problems = graded(RULES, json_file(tmp_path / "traj.json", _run(answer)))
    return verdicts, any("warning[statuses-assumed]" in problem for problem in problems)


@pytest.mark.parametrize("answer", [
    "<returncode>1</returncode>\n<output>\nFAILED tests/test_a.py::test_x\n</output>",
    "<returncode>127</returncode>\n<output>\nbash: pytst: command not found\n</output>",
    "<returncode>-9</returncode>\n<warning>\nThe output of your last command was too long.\n</warning>",
    "The last command <command>pytest -q</command> timed out and has been killed.\nThe output of the command "
    "was:\n<output>\n</output>\nPlease try another command and make sure to avoid those requiring interactive input.",
])
def test_a_command_that_failed_or_timed_out_is_an_error(tmp_path: Path, answer: str):
    assert _grade(tmp_path, answer) == (["fail", "fail"], False)


def test_an_exit_code_of_0_is_a_success(tmp_path: Path):
    assert _grade(tmp_path, "<returncode>0</returncode>\n<output>\n3 passed\n</output>") == (["pass", "pass"], False)


@pytest.mark.parametrize("answer", [
    "The command printed <returncode>1</returncode> in its output",  # not at the start
    "<returncode>one</returncode>\n<output></output>",
])
def test_other_text_says_nothing(tmp_path: Path, answer: str):
    assert _grade(tmp_path, answer) == (["pass", "pass"], True)
