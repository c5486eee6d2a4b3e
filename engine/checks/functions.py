"""The built-in functions: ``count first last number text lower upper trim
collapse replace lines length keys header``, and the parts of a text (``section
headings parts quotes code``, in ``textparts``; ``words numbers``, in ``textwords``).
Arity is checked by the compiler from ``ARITY``; every function takes one argument
but ``replace(text, old, new)`` and ``section(text, title)``.

Each function takes present values (``Val``); a missing argument makes the result
missing with the same reason, so ``first(calls to "x").args`` on a run without
such a call is a FAIL with an explanation, not an error. Type errors raise
``EvalError`` (an ERROR verdict).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from referee.engine.budget import spend
from referee.engine.checks import markdown_lines, textparts, textwords
from referee.engine.checks.access import elements
from referee.engine.values import (EvalError, Missing, Prov, Result, Val, is_number, parse_number,
                           render, to_text, type_name)

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _derived(arg: Val, name: str, value: Any, items: tuple[Val, ...] | None = None,
             support: tuple[Val, ...] = ()) -> Val:
    """A value computed from ``arg``: same source and place, label ``name(arg)``."""
    label = f"{name}({arg.label})"
    prov = arg.prov
    new = Prov(prov.source, label, prov.file, prov.line, prov.step) if prov else None
    return Val(value, new, items, arg.claims, support)


def _need(arg: Val, name: str, *types: str) -> None:
    if type_name(arg.value) not in types:
        raise EvalError(f"{name}() needs {' or '.join(types)}, got {type_name(arg.value)} "
                        f"{render(arg.value)[:60]} ({arg.label})")


def _count(arg: Val) -> Result:
    _need(arg, "count", "list")
    found = elements(arg)
    return _derived(arg, "count", len(found), support=found)


def _first(arg: Val) -> Result:
    return _end(arg, 0)


def _last(arg: Val) -> Result:
    return _end(arg, -1)


def _end(arg: Val, index: int) -> Result:
    _need(arg, "first" if index == 0 else "last", "list")
    items = elements(arg)
    if items:
        return items[index]
    reason = arg.empty or f"{arg.label} is empty"
    return Missing(reason, arg.prov, arg.claims)


def _number(arg: Val) -> Result:
    if is_number(arg.value):
        return arg
    if isinstance(arg.value, str):
        parsed = parse_number(arg.value)
        if parsed is not None:
            return _derived(arg, "number", parsed)
        raise EvalError(f"number(): {arg.label} is text {render(arg.value)[:60]}, not a number")
    raise EvalError(f"number() needs text or a number, got {type_name(arg.value)} ({arg.label})")


def _text(arg: Val) -> Result:
    return arg if isinstance(arg.value, str) else _derived(arg, "text", to_text(arg.value))


def _text_fn(name: str, fn: Callable[[str], str]) -> Callable[[Val], Result]:
    def apply(arg: Val) -> Result:
        _need(arg, name, "text")
        return _derived(arg, name, fn(arg.value))

    return apply


_WHITESPACE = re.compile(r"\s+")


def _collapse(text: str) -> str:
    """Runs of whitespace (line breaks and tabs too) as one space, ends trimmed."""
    return _WHITESPACE.sub(" ", text).strip()


def _replace(arg: Val, old: Val, new: Val) -> Result:
    """Every occurrence of the text ``old`` replaced by ``new`` (no regex)."""
    for val, role in ((arg, "the text"), (old, "the text to replace"), (new, "the replacement")):
        if not isinstance(val.value, str):
            raise EvalError(f"replace() needs text as {role}, got {type_name(val.value)} "
                            f"{render(val.value)[:60]} ({val.label})")
    if not old.value:
        raise EvalError("replace() needs a non-empty text to replace")
    return _derived(arg, "replace", arg.value.replace(old.value, new.value))


def _lower(text: str) -> str:
    """``text`` in lower case, with İ (U+0130) as i, as ``ignoring case`` and a regex's
    ``/i`` take it: Python lowers it to i and a combining dot above, so
    ``lower("İSTANBUL") == "istanbul"`` failed where the same test ignoring case passed."""
    return text.replace("\u0130", "i").lower()


def _lines(arg: Val) -> Result:
    _need(arg, "lines", "text")
    count = markdown_lines.line_count(arg.value) if arg.value else 0  # the empty text has no line here
    spend(count, f"taking {count:,} lines of a text")  # before any line is made
    parts = _LINE_BREAK.split(arg.value)
    if parts and parts[-1] == "":
        parts.pop()  # a final line break ends the last line; it does not start one
    base = arg.prov.line if arg.prov and arg.prov.line else 1
    items = tuple(Val(text, _line_prov(arg, base + i)) for i, text in enumerate(parts))
    return _derived(arg, "lines", list(parts), items)


def _line_prov(arg: Val, line: int) -> Prov | None:
    prov = arg.prov
    if prov is None:
        return None
    return Prov(prov.source, f"{prov.label} line {line}", prov.file, line, prov.step)


def _length(arg: Val) -> Result:
    _need(arg, "length", "text", "list", "object")
    size = len(elements(arg)) if type_name(arg.value) == "list" else len(arg.value)
    return _derived(arg, "length", size)


def _keys(arg: Val) -> Result:
    _need(arg, "keys", "object")
    return _derived(arg, "keys", list(arg.value))


FUNCTIONS: dict[str, Callable[..., Result]] = {
    "count": _count,
    "first": _first,
    "last": _last,
    "number": _number,
    "text": _text,
    "lower": _text_fn("lower", _lower),
    "upper": _text_fn("upper", str.upper),
    "trim": _text_fn("trim", str.strip),
    "collapse": _text_fn("collapse", _collapse),
    "replace": _replace,
    "lines": _lines,
    "length": _length,
    "keys": _keys,
}

FUNCTIONS.update(textparts.FUNCTIONS)  # section, headings, parts, quotes, code
FUNCTIONS.update(textwords.FUNCTIONS)  # words, numbers

# header() reads a CSV file's first row; compiled separately (it needs the file).
ARITY = {name: 1 for name in FUNCTIONS} | {"header": 1, "replace": 3} | textparts.ARITY
