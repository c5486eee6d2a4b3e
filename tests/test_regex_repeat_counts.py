"""A regex whose repetition counts, multiplied out, are too large to compile.

The ``regex`` module writes out every copy a count asks for: ``/a{99999999}/``
took gigabytes of memory (an internal MemoryError, or the process killed),
``/(?:ab|c){1000000}/`` crashed the interpreter, and a count of 5000 digits raised
ValueError; none was a diagnostic. Such a pattern is now ``bad-regex``, pointed at,
before it is compiled; counts that stay within the bound read as before."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import check_rules


def _diagnostics(pattern: str):
    rules = f"eval 1\nexpect 1: response matches /{pattern}/\nexpect 2: calls to /{pattern}/ before response\n"
    try:
        tree = dsl.parse_rules(rules, "case.rules")
        return check_rules([tree], None)
    except dsl.RulesError as err:
        return err.diagnostics


@pytest.mark.parametrize("pattern", [
    "a{99999999}", "(?:ab|c){1000000}", "(?:a{1000}){1000}", "a{" + "9" * 5000 + "}", "x{2,}{" + "9" * 30 + "}",
    "(?<=a)b{99999999}", r"\p{L}{99999999}",
])
def test_a_count_too_large_is_a_bad_regex(pattern: str):
    found = _diagnostics(pattern)
    assert [(d.code, d.line) for d in found] == [("bad-regex", 2), ("bad-regex", 3)], found
    assert all("repeat" in d.message for d in found), [d.message for d in found]


@pytest.mark.parametrize("pattern", [r"[0-9a-f]{64}", r"\d{4}-\d{2}", "a{1,1000000}", "(?:ab|c){1000}", "a{10000}"])
def test_counts_within_the_bound_compile(pattern: str):
    assert _diagnostics(pattern) == []
