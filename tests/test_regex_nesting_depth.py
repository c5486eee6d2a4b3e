"""A regex nested in more groups than can be read is bad-regex, not an internal error.

'response matches /((((...a...))))/' with 200 nested groups made ``referee check``
stop with "internal error: RecursionError" (reading the pattern's shape recurses
once per group, and the regex module itself does past some hundreds). Patterns
nested more than 100 groups deep, as the language's own brackets may be, are now
a diagnostic under the pattern; shallower ones compile as before."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import check_rules


def _diagnostics(pattern: str):
    try:
        return check_rules([dsl.parse_rules(f"eval 1\nexpect 1: response matches /{pattern}/\n", "r.rules")], None)
    except dsl.RulesError as err:
        return err.diagnostics


@pytest.mark.parametrize("depth", [101, 200, 500, 3000])
def test_groups_nested_too_deep_are_a_bad_regex(depth: int):
    found = _diagnostics("(" * depth + "a" + ")" * depth)
    assert [d.code for d in found] == ["bad-regex"], found
    assert "deep" in found[0].message


@pytest.mark.parametrize("pattern", ["(?:" * 101 + "a" + ")" * 101, "(?=" * 101 + "a" + ")" * 101])
def test_other_groups_count_too(pattern: str):
    assert [d.code for d in _diagnostics(pattern)] == ["bad-regex"]


def test_groups_nested_100_deep_compile():
    assert _diagnostics("(" * 100 + "a" + ")" * 100) == []


def test_groups_after_a_conditional_group_count_as_well():
    found = _diagnostics("(a)(?(1)a|b)" + "(" * 600 + "a" + ")" * 600)
    assert [d.code for d in found] == ["bad-regex"], found
    assert "deep" in found[0].message
