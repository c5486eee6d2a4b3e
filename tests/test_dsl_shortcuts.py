"""The parser's shortcuts answer as the long ways do: the nesting bound never hides a
statement nested too deeply, and a ``frozen`` node fills its ``__dict__`` only
where setting each field would have put it there."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields

import pytest
from hypothesis import given, strategies as st

from referee.dsl import parser
from referee.dsl.frozen import frozen
from referee.dsl.parser import MAX_NESTING


def _scanned(fragment: str) -> int | None:
    """``_too_deep`` without its bound: every fragment is tokenized."""
    bound = parser._nesting_bound
    parser._nesting_bound = lambda _: MAX_NESTING + 1
    try:
        return parser._too_deep(fragment)
    finally:
        parser._nesting_bound = bound


@given(st.lists(st.sampled_from(["(", ")", "[", "]", "{", "}", "not", "note", "\"(\"",
                                 "# ((", "/[(/", "x", " "]), max_size=260))
def test_the_bound_never_hides_too_deep_nesting(pieces):
    fragment = "".join(pieces)
    assert parser._too_deep(fragment) == _scanned(fragment)


@pytest.mark.parametrize("fragment", ["(" * (MAX_NESTING + 1), "not " * (MAX_NESTING + 1),
                                      "[" * 60 + "not " * 41, "(" * MAX_NESTING])
def test_the_limit_is_where_it_was(fragment):
    assert parser._too_deep(fragment) == _scanned(fragment)


@frozen
class Plain:
    a: int
    b: str = "b"


@frozen
class Slotted:
    __slots__ = ("a",)
    a: int


def test_a_plain_node_keeps_its_fields_in_its_dict():
    node = Plain(1)
    assert vars(node) == {"a": 1, "b": "b"}
    assert node == Plain(a=1, b="b")
    with pytest.raises(FrozenInstanceError):
        node.a = 2  # type: ignore[misc]


def test_a_slotted_node_sets_its_slots():
    node = Slotted(3)
    assert node.a == 3 and node == Slotted(a=3)
    with pytest.raises(FrozenInstanceError):
        node.a = 4  # type: ignore[misc]


class _Base:
    __slots__ = ("a",)


class _Open(_Base):  # a class below a slotted one, without slots: instances have a dict
    pass


@frozen
class WithDictSlot:
    __slots__ = ("__dict__",)
    a: int


@frozen
class SlotBelowDict(_Open):
    a: int


@pytest.mark.parametrize("cls", [Plain, Slotted, WithDictSlot, SlotBelowDict])
def test_a_node_holds_its_fields_where_setting_each_would_put_them(cls):
    node = cls(5)
    reference = object.__new__(cls)
    for name in [f.name for f in fields(cls)]:
        object.__setattr__(reference, name, getattr(node, name))
    assert getattr(node, "__dict__", None) == getattr(reference, "__dict__", None)
    assert node == reference and node.a == 5
