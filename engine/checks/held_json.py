"""A text that is a JSON object or array whole: JSON written as a string.

Harnesses and tools pass JSON encoded twice: a call's arguments given as the string
``"{\\"command\\": \\"rm -rf /\\"}"``, an ``arguments`` field holding one, a tool's
result returned as the text of a JSON object. The program that receives it reads the
object; a rule that asks the text for a field, or whether it includes or matches a
structure, would find none (text has no fields) and ``no calls have .args.command
contains "rm"`` would pass. What the rule asks of it cannot be told, so it is an ERROR
saying so, with the test that decides: a text test on the text itself.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.engine.run.safejson import json_value, may_open_json
from referee.engine.values import EvalError, render, short

_JSON_SPACE = " \t\n\r"


def held_json(value: Any) -> dict | list | None:
    """The JSON object or array ``value`` is when it is text holding one whole; else None."""
    if not isinstance(value, str) or not may_open_json(value.lstrip(_JSON_SPACE)):
        return None
    return _read(value)


@lru_cache(maxsize=64)  # a query's nodes ask one text in turn: it is read once
def _read(text: str) -> dict | list | None:
    read = json_value(text)
    return read[0] if read is not None and isinstance(read[0], (dict, list)) else None


def held_json_error(label: str, asked: str, held: dict | list) -> EvalError:
    """The ERROR of asking ``label``, a text holding ``held``, for ``asked`` (its field "x", ...)."""
    kind = "an object" if isinstance(held, dict) else "a list"
    return EvalError(f"{label} is text holding JSON, {kind} written as a string, which a program reading it "
                     f"as JSON takes for {kind}: this rule reads text, so {asked} cannot be told; test its "
                     f"text (`... contains \"...\"`) or its words")


def against_structure(actual: Any, expected: Any, asked: str) -> None:
    """An EvalError when ``actual`` is text holding JSON and ``expected`` a structure, an
    object or a list: whether one is (or includes, or matches) the other cannot be told."""
    if isinstance(expected, (dict, list)):
        held = held_json(actual)
        if held is not None:
            raise held_json_error(text_label(actual), f"{asked} {short(render(expected), 60)}", held)


def against_shape(actual: Any, shape: str) -> None:
    """An EvalError when ``actual`` is text holding JSON, matched against ``shape``
    (an object's or a list's, as ``matches {...}`` gives one)."""
    held = held_json(actual)
    if held is not None:
        raise held_json_error(text_label(actual), f"whether it matches {shape}", held)


def text_label(text: str) -> str:
    """A text as a message names it when nothing else does: its first characters."""
    return render(short(text, 60))
