"""Property: the verdict on a list of calls read in part (a transcript cut inside a
record) is an ERROR, or the verdict of EVERY completion of it: the calls read, the cut
record whole, and any calls after them."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import referee
from referee.engine.run.memory import memory_run

CHECKS = (
    'no calls to "Bash"',
    'any calls to "Bash"',
    'exists calls to "Write" with status error',
    "count(calls) <= 2",
    'count(calls to "Bash") >= 2',
    "count(calls) == 3",
    "count(calls with status error) != 1",
    'exactly 1 calls to "Read"',
    "exactly 2 calls with status error",
    "no calls with status error",
    'all calls have .tool != "Write"',
    'any calls to "Bash" have .args.n > 1',
    'no calls where .args.n == 0',
)
RULES = "eval 1\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(CHECKS, 1))
PROGRAM = referee.compile(RULES)

call = st.tuples(st.sampled_from(["Bash", "Read", "Write"]), st.sampled_from(["success", "error"]),
                 st.integers(0, 2))


def _record(step: int, tool: str, status: str, n: int) -> str:
    return (f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {{\"n\": {n}}}\n"
            f"Return: r{step}\nStatus: {status}\n\n")


def _outcomes(text: str) -> list[str]:
    (result,) = referee.grade(PROGRAM, memory_run({"outputs/transcript.md": text}))
    return [item["outcome"] for item in result.expectations]


@settings(max_examples=60, deadline=None)
@given(read=st.lists(call, max_size=4), cut_tool=st.sampled_from(["Bash", "Read", "Write"]),
       after=st.lists(st.lists(call, max_size=3), min_size=1, max_size=3))
def test_a_verdict_on_calls_read_in_part_holds_for_every_completion(read, cut_tool, after):
    head = "".join(_record(k, *c) for k, c in enumerate(read, 1))
    cut_step = len(read) + 1
    partial = _outcomes(f"{head}## [tool_calls] Step {cut_step}: {cut_tool}\nTool: {cut_tool}\nArgs: {{\"n")
    # No check need be an ERROR: calls read may decide every one (four calls read already fail
    # "count(calls) == 3"). Where completions disagree on a check, the loop below asks for one.
    for status in ("success", "error"):
        for n in (0, 2):
            for more in [[], *after]:
                whole = head + _record(cut_step, cut_tool, status, n) + \
                    "".join(_record(cut_step + k, *c) for k, c in enumerate(more, 1))
                for check, cut, full in zip(CHECKS, partial, _outcomes(whole)):
                    assert cut in ("error", full), (check, cut, full, read, cut_tool, more)
