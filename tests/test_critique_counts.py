"""A count compared with a number claims what the comparison says, however it is
written: `count(x) != 0` needs x there as `count(x) >= 1` does, and
`not count(x) > 0` forbids x as `count(x) == 0` does. The critique tests each
as it tests its plainer twin."""

from __future__ import annotations

import pytest

import critique_one
from critique_one import transcript

RUN = {"outputs/transcript.md": transcript(("Read", {"path": "a.md"}), ("Write", {"path": "b.md"})),
       "outputs/response.md": "Done.\n"}


def critique(check: str):
    return critique_one.critique(check, RUN)


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
