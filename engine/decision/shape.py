"""Whether a report referee wrote (grading.json, benchmark.json) still has the shape its
readers need, and if not, which field is wrong.

A report edited by hand or by another tool may hold ``null`` or a list where referee
wrote an object. Its readers name the field and what stands there, so the user knows
what to look at: a Python exception's words ("'NoneType' object is not iterable")
name nothing in the file.

A shape is a type (or a tuple of types), ``{field: shape}`` for an object (a field
whose name ends in ``?`` may be absent), ``[shape]`` for a list of such items,
``MapOf`` for an object of any names, ``OneOf`` for the values a field may hold, or
``Either`` for shapes a field may take.

grading.json's shape is its model's (``engine.report.models``), derived from it by
``engine.report.model_shape``, so the model alone says what the file holds: each
reader names only the fields it reads (``READS``) and every reader judges a field
alike, in the same words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from referee.dsl.frozen import frozen
from referee.engine.caps import cut
from referee.engine.text import plain

NAME = (str, int)  # an eval id or an assertion key: skill-creator's ids are numbers
OPTIONAL_OBJECT = (dict, type(None))


@dataclass(frozen=True)
class OneOf:
    """A field that holds one of ``values`` (the model's ``Literal``)."""

    values: tuple
    kinds: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", frozenset(type(allowed) for allowed in self.values))

    def holds(self, value: Any) -> bool:
        # of a type of its values too: true is no 1, though Python holds them equal
        return type(value) in self.kinds and value in self.values


@frozen
class MapOf:
    """An object of any field names, each holding ``values`` (the model's ``dict[str, X]``)."""

    values: Any


@frozen
class Either:
    """A field of one of several shapes (the model's ``X | None``, when X is an object)."""

    shapes: tuple


WHOLE = ...  # a field read whole, as the model describes it

# What each reader reads of a grading.json, by field name (``WHOLE`` or the names read
# inside it); the types are the model's. ``report`` (and ``diff``, ``compare``) read it all.
# ``aggregate``: the expectations and counts it recounts, and who graded.
AGGREGATED = {"expectations": ("key", "text", "outcome", "precision", "passed", "gated"), "summary": WHOLE,
              "gate": ("counted",), "grader": ("version", "llm")}
READS = {
    "report": WHOLE,
    "aggregate": AGGREGATED,
    # ``merge`` besides: the eval whose critique it gives the run, the configuration it
    # counts the gate in, the digest of its files; and the claims, without which the
    # report it writes again cannot be written.
    "merge": {**AGGREGATED, "eval_feedback": WHOLE, "claims": WHOLE,
              "run": ("rules_eval", "configuration", "files_digest")},
}


@cache
def grading_shape(reader: str) -> Any:
    """The shape of the grading.json fields ``reader`` (a key of ``READS``) reads."""
    from referee.engine.report.model_shape import shape_of
    from referee.engine.report.models import GradingReport

    return shape_of(GradingReport, READS[reader])


# benchmark.json has no model (aggregate writes it as plain data): its shape is written here.
BENCHMARK_SHAPE = {
    "metadata": {"grader?": OPTIONAL_OBJECT},
    "runs": [{"eval_id": NAME, "configuration": str,
              # each count is compared with the one its expectations give (compare.regress)
              "result": {"passed": object, "failed": object, "total": object, "gate_errors": object},
              "expectations": [{"key": NAME, "text": str, "outcome": str, "passed": bool, "counted": bool}]}],
    "unusable_runs?": [{"path": str, "reason": str, "eval_id": NAME, "configuration": str}],
}


def shape_problem(document: Any, shape: Any) -> str | None:
    """What in ``document`` is not where or what ``shape`` says referee writes it, or None."""
    return _first_wrong(document, shape, "")


def _first_wrong(value: Any, shape: Any, where: str) -> str | None:
    kind = type(shape)
    if kind is type or kind is tuple:  # a leaf, the most of any report: judged first
        if _leaf_holds(value, shape):
            return None
        return _wrong(where, value, _words(shape if kind is tuple else (shape,)))
    if kind is dict:
        return _object(value, shape, where)
    if kind is list:
        return _items(value, shape[0], where)
    if kind is MapOf:
        if not isinstance(value, dict):
            return _wrong(where, value, "an object")
        for name, inner in value.items():
            found = _first_wrong(inner, shape.values, f"{where}.{name}")
            if found is not None:
                return found
        return None
    if kind is OneOf:
        return None if shape.holds(value) else _wrong(where, value, _expected(shape))
    return _either(value, shape, where)


def _object(value: Any, shape: dict, where: str) -> str | None:
    if not isinstance(value, dict):
        return _wrong(where, value, "an object")
    for name, inner in shape.items():
        key = name.rstrip("?")
        place = f"{where}.{key}" if where else key
        if key not in value:
            if name.endswith("?"):
                continue
            return f"its {place} is missing"
        found = _first_wrong(value[key], inner, place)
        if found is not None:
            return found
    return None


def _items(value: Any, shape: Any, where: str) -> str | None:
    if not isinstance(value, list):
        return _wrong(where, value, "a list")
    for index, item in enumerate(value):
        found = _first_wrong(item, shape, f"{where}[{index}]")
        if found is not None:
            return found
    return None


def _either(value: Any, shape: Either, where: str) -> str | None:
    """None when ``value`` fits one of the shapes; else what is wrong inside the one
    of its own kind (an object that lacks a field), or that it is of none of them."""
    found = None
    for inner in shape.shapes:
        if _of_kind(value, inner):
            problem = _first_wrong(value, inner, where)
            if problem is None:
                return None
            found = found or problem
    return found or _wrong(where, value, " or ".join(_expected(inner) for inner in shape.shapes))


def _of_kind(value: Any, shape: Any) -> bool:
    """Whether ``value`` is of the JSON kind ``shape`` describes (its content aside)."""
    if isinstance(shape, (dict, MapOf)):
        return isinstance(value, dict)
    if isinstance(shape, list):
        return isinstance(value, list)
    if isinstance(shape, (OneOf, Either)):
        return _first_wrong(value, shape, "") is None
    return _leaf_holds(value, shape)


def _leaf_holds(value: Any, shape: type | tuple) -> bool:
    """Whether ``value`` is of the type ``shape`` names (or of one it lists): true and
    false are no numbers here, though Python counts them as ints."""
    if not isinstance(value, shape):
        return False
    return type(value) is not bool or shape is bool or (type(shape) is tuple and bool in shape)


def _expected(shape: Any) -> str:
    if isinstance(shape, (dict, MapOf)):
        return "an object"
    if isinstance(shape, list):
        return "a list"
    if isinstance(shape, OneOf):
        return "one of " + ", ".join(json.dumps(allowed, ensure_ascii=False) for allowed in shape.values)
    if isinstance(shape, Either):
        return " or ".join(_expected(inner) for inner in shape.shapes)
    return _words(shape if isinstance(shape, tuple) else (shape,))


_WORDS = {str: "a string", int: "a whole number", float: "a number", bool: "true or false", dict: "an object",
          list: "a list", type(None): "null"}


def _words(kinds: tuple) -> str:
    if float in kinds:  # a whole number is a number too: said once
        kinds = tuple(kind for kind in kinds if kind is not int)
    return " or ".join(_WORDS.get(kind, kind.__name__) for kind in kinds)


def _wrong(where: str, value: Any, wanted: str) -> str:
    shown = cut(json.dumps(plain(value), ensure_ascii=False), 40)
    return f"its {where or 'content'} is {shown}, not {wanted}"
