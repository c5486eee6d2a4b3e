"""A count that says only "something is there" is critiqued as ``exists`` is.

``exists calls to "saveDoc"`` is weak by design: it passes whatever saveDoc was
called with, returned, or whether it failed. ``count(calls to "saveDoc") >= 1``
says the same, yet was called "ok": the critique read only the precision, and a
count is an exact match. Every check that asks only whether something is there
(``count(x) >= 1``, ``> 0``, ``!= 0``, ``0 < count(x)``, ``any x`` without
``have``; ``count(x) == 0`` and ``no x`` for "nothing is") now gets the verdict
``exists`` gets."""

from __future__ import annotations

import pytest

from critique_one import critique, transcript

RUN = {"outputs/transcript.md": transcript(("Read", {"path": "a.txt"}), ("saveDoc", {"doc": "1"})),
       "outputs/response.md": "Saved.\n"}


def _verdict(check: str) -> tuple[bool, list[str]]:
    found = critique(check, RUN)
    return found.weak, found.reasons()


@pytest.mark.parametrize("check", [
    'count(calls to "saveDoc") >= 1',
    'count(calls to "saveDoc") > 0',
    'count(calls to "saveDoc") != 0',
    '0 < count(calls to "saveDoc")',
    'count(calls to "saveDoc") >= 1.0',
    'any calls to "saveDoc"',
    'not (count(calls to "saveDoc") == 0)',
])
def test_a_count_that_says_something_is_there_is_as_weak_as_exists(check: str):
    expected = _verdict('exists calls to "saveDoc"')
    assert expected[0], expected
    assert _verdict(check) == expected


def test_a_count_that_says_more_than_presence_is_judged_as_before():
    weak, reasons = _verdict('count(calls to "saveDoc") == 1')
    assert not weak, reasons
    weak, reasons = _verdict('any calls to "saveDoc" have .args.doc == "1"')
    assert not any("arguments" in reason for reason in reasons), reasons
