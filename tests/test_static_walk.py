"""``checks.static`` reads every property of an assertion off one walk of its tree:
the walk visits what a plain recursive walk visits, in the same order, and the
properties read together are those read one by one."""

from __future__ import annotations

import dataclasses

import pytest
from test_dsl_tables import rules_texts

from referee.dsl import ast
from referee.dsl.parser import parse_rules_partial
from referee.engine.checks import static


def _reference_walk(node, lets, seen=frozenset()):
    """The walk as its definition says: each node, then what its fields hold (spans
    aside), a let name by the let's value (each let once per path)."""
    yield node
    if isinstance(node, ast.NameRef) and node.name in lets and node.name not in seen:
        yield from _reference_walk(lets[node.name].value, lets, seen | {node.name})
        return
    if not dataclasses.is_dataclass(node):
        return
    for f in dataclasses.fields(node):
        if f.name != "span":
            yield from _reference_value(getattr(node, f.name), lets, seen)


def _reference_value(value, lets, seen):
    if isinstance(value, tuple):
        for item in value:
            yield from _reference_value(item, lets, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield from _reference_walk(value, lets, seen)


def _checks():
    """(check, lets) of every expect of the examples and conformance cases."""
    found = []
    for text in rules_texts():
        tree, _ = parse_rules_partial(text)
        for block in tree.evals:
            lets = {let.name: let for let in block.lets}
            found += [(e.check, lets) for e in block.expects if e.check is not None]
    return found


CYCLE = """eval 1
let a = b.x
let b = [a, count(calls to "T")]
expect: a == 1 and semantic "fine?"
"""


def _cycle():
    tree, _ = parse_rules_partial(CYCLE)
    block = tree.evals[0]
    return block.expects[0].check, {let.name: let for let in block.lets}


def test_the_walk_is_the_recursive_walk():
    checks = _checks() + [_cycle()]
    assert len(checks) > 50
    for check, lets in checks:
        for named in (lets, {}):  # the very nodes, not equal ones
            assert [id(n) for n in static.walk(check, named)] == \
                [id(n) for n in _reference_walk(check, named)], check


@pytest.mark.parametrize("lets", [True, False])
def test_properties_are_those_read_one_by_one(lets):
    for check, named in _checks() + [_cycle(), (None, {})]:
        named = named if lets else {}
        found = static.properties(check, named)
        assert found.precision == static.precision(check, named)
        assert found.evidence_source == static.evidence_source(check, named)
        assert found.tool_patterns == static.tool_patterns(check, named)
        assert found.reads == (static.reads(check, named) if check is not None else ())


def test_a_let_cycle_is_walked_once_per_path():
    check, lets = _cycle()
    names = [n.name for n in static.walk(check, lets) if isinstance(n, ast.NameRef)]
    assert names == ["a", "b", "a"]  # a, its b, and b's a, not followed again
