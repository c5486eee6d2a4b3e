"""A count compared with a number claims what the comparison says, however it is
written: `count(x) != 0` needs x there as `count(x) >= 1` does, and
`not count(x) > 0` forbids x as `count(x) == 0` does. The critique tests each
as it tests its plainer twin."""

from __future__ import annotations

import json

import pytest

import referee
from referee.engine.critique.assess import critique_run
from referee.engine.run.memory import memory_run

CALLS = "\n".join(
    f"## [tool_calls] Step {n}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\nReturn: \"ok\"\nStatus: success\n"
    for n, (tool, args) in enumerate([("Read", {"path": "a.md"}), ("Write", {"path": "b.md"})], start=1))
RUN = {"outputs/transcript.md": CALLS, "outputs/response.md": "Done.\n"}


def critique(check: str):
    (ev,) = referee.compile(f"eval 1\nexpect: {check}\n").evals
    found: dict = {}
    critique_run(ev, memory_run(RUN), {}, found)
    (result,) = found.values()
    assert result.passing_runs, "the assertion passes on the run"
    return result


def breaking(result) -> dict[str, bool]:
    """Each mutant that must fail, and whether it still passed."""
    return {t.mutant: t.passed for t in result.tried if t.must_fail}


@pytest.mark.parametrize("check, twin", [
    ('count(calls to "Read") != 0', 'count(calls to "Read") >= 1'),
    ('not count(calls to "Read") == 0', 'count(calls to "Read") >= 1'),
    ('not count(calls to "Read") < 1', 'count(calls to "Read") >= 1'),
    ('0 != count(calls to "Read")', 'count(calls to "Read") > 0'),
])
def test_a_count_that_must_not_be_zero_needs_the_call(check, twin):
    found, plain = critique(check), critique(twin)
    assert breaking(found) == breaking(plain)
    assert breaking(found)["drop-call"] is False


@pytest.mark.parametrize("check, twin", [
    ('not count(calls to "Bash") > 0', 'count(calls to "Bash") == 0'),
    ('not count(calls to "Bash") >= 1', 'count(calls to "Bash") == 0'),
    ('not count(calls to "Bash") != 0', 'count(calls to "Bash") == 0'),
    ('not 0 < count(calls to "Bash")', 'count(calls to "Bash") < 1'),
])
def test_a_negated_count_that_must_be_zero_forbids_the_call(check, twin):
    found, plain = critique(check), critique(twin)
    assert breaking(found) == breaking(plain) == {"inject-call": False}


@pytest.mark.parametrize("check", [
    'not count(calls to "Read") == 3',
    'count(calls to "Read") != 3',
    'count(calls to "Read") >= 0',
])
def test_a_count_that_zero_satisfies_does_not_need_the_call(check):
    assert "drop-call" not in breaking(critique(check))
