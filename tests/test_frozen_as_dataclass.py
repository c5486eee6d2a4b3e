"""``@frozen`` makes what ``@dataclass(frozen=True)`` makes, for every call.

Most of the project's frozen value classes are made by ``dsl.frozen.frozen``, which
builds their methods without ``exec``. Here classes of up to five fields (the last
ones with defaults, in every number) are made both ways and called in every way
up to a bound: from no positional argument to one too many, with every set of
keywords among the fields' names and an unknown one (a field given in order and by
keyword too, a required one left out). Both refuse the same calls with the same
TypeError and build the same values from the others, with the same ``repr``,
equality, hash and ``replace``.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields, replace
from itertools import combinations

import pytest

from referee.dsl.frozen import frozen

_NAMES = ("a", "b", "c", "d", "e")


def _pair(count: int, defaults: int) -> tuple[type, type]:
    """The class of the first ``count`` names, the last ``defaults`` of them with a
    default, made by ``@dataclass(frozen=True)`` and by ``@frozen``."""
    names = _NAMES[:count]
    made = []
    for decorate in (dataclass(frozen=True), frozen):
        body = {"__annotations__": {name: "object" for name in names}, "__qualname__": "Node", "__module__": __name__}
        body.update({name: f"default-{name}" for name in names[count - defaults:]} if defaults else {})
        made.append(decorate(type("Node", (), body)))
    return made[0], made[1]


def _call(cls: type, args: tuple, kwargs: dict) -> tuple[str, object]:
    try:
        return "made", cls(*args, **kwargs)
    except TypeError as refused:
        return "refused", str(refused)


_SHAPES = [(count, defaults) for count in range(len(_NAMES) + 1) for defaults in range(count + 1)]
_KEYWORDS = [dict.fromkeys(chosen, 7) for size in range(len(_NAMES) + 2)
             for chosen in combinations((*_NAMES, "z"), size)]


@pytest.mark.parametrize("shape", _SHAPES)
def test_every_call_is_made_or_refused_alike(shape):
    reference, ours = _pair(*shape)
    for positional in range(len(_NAMES) + 2):
        args = tuple(range(100, 100 + positional))
        for kwargs in _KEYWORDS:
            _alike(reference, ours, args, kwargs)


def _alike(reference: type, ours: type, args: tuple, kwargs: dict) -> None:
    (said, expected), (ours_said, found) = _call(reference, args, kwargs), _call(ours, args, kwargs)
    assert ours_said == said, (args, kwargs)
    if said == "refused":
        assert found == expected  # in the same words
        return
    assert [getattr(found, f.name) for f in fields(ours)] == [getattr(expected, f.name) for f in fields(reference)]
    assert repr(found) == repr(expected)
    again = _call(ours, args, kwargs)[1]
    assert found == again and hash(found) == hash(again) and hash(found) == hash(expected)
    if fields(ours):
        name = fields(ours)[0].name
        assert repr(replace(found, **{name: "new"})) == repr(replace(expected, **{name: "new"}))


def test_a_field_cannot_be_set_or_deleted():
    _, ours = _pair(2, 1)
    node = ours(1)
    with pytest.raises(FrozenInstanceError):
        node.a = 2  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        del node.b  # type: ignore[attr-defined]


@pytest.mark.parametrize("body", [
    {"__post_init__": lambda self: None},
    {"__repr__": lambda self: "mine"},
    {"__eq__": lambda self, other: True},
])
def test_a_class_of_its_own_methods_is_refused(body):
    with pytest.raises(TypeError, match="of its own is not supported"):
        frozen(type("Node", (), {"__annotations__": {"a": "int"}, **body}))


def test_a_field_made_another_way_is_refused():
    from dataclasses import field

    with pytest.raises(TypeError, match="init=False is not supported"):
        frozen(type("Node", (), {"__annotations__": {"a": "int"}, "a": field(init=False, default=1)}))
