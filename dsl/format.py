"""The canonical text of a syntax tree.

``parse(format(tree)) == tree`` for every tree the parser builds, and formatting is
idempotent. One subtlety drives the ``safe`` flags below: a ``where`` or ``have``
condition takes the longest predicate that follows it (see the grammar), so when
anything that could extend it comes next, the condition is written in parentheses.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any, Callable

from referee.dsl import ast

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_INT_KEY = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_TEXT_OPS = {"contains": "contains", "starts_with": "starts with", "ends_with": "ends with",
             "matches": "matches", "fully_matches": "fully matches"}
_REGEX_OPS = ("matches", "fully_matches")


def format_rules(tree: ast.RulesFile) -> str:
    """A whole rules file: evals separated by a blank line, lets then expects."""
    return "\n".join(_eval_block(block) for block in tree.evals)


def format_condition(condition: ast.Condition) -> str:
    """One check expression, as written after ``expect ...:``."""
    return _cond(condition)


def format_value(value: Any) -> str:
    """One value expression (a literal, a path, a selection, ...)."""
    return _value(value, True)


# ----------------------------------------------------------------- statements


def _eval_block(block: ast.EvalBlock) -> str:
    key = block.key if _INT_KEY.match(block.key) else _string(block.key)
    head = f"eval {key}" + (f" {_string(block.name)}" if block.name is not None else "")
    lines = [head, ""]
    lines += [f"let {let.name} = {format_let_value(let)}" for let in block.lets]
    if block.lets:
        lines.append("")
    lines += [_expect(e) for e in block.expects]
    if block.expects:
        lines.append("")
    return "\n".join(lines)


def format_let_value(let: ast.Let) -> str:
    """What a let names, as written after ``let NAME =``."""
    value = let.value  # the test of ``Let.names``, here so that the type checker narrows it
    if isinstance(value, (ast.RegexLit, *ast.VALUE_TYPES)):
        return _value(value, True)
    return _cond(value)


def _expect(expect: ast.Expect) -> str:
    parts = ["expect"]
    if expect.index is not None:
        parts.append(str(expect.index))
    if expect.sentence is not None:
        parts.append(_string(expect.sentence))
    text = " ".join(parts)
    if expect.check is not None:
        text += ": " + _cond(expect.check)
    return text


# ----------------------------------------------------------------- conditions


def _cond(c: ast.Condition) -> str:
    """A condition in a position where nothing after it can extend it."""
    if isinstance(c, ast.Or):
        return " or ".join(_paren_if(o, ast.Or) for o in c.operands)
    if isinstance(c, ast.And):
        return " and ".join(_paren_if(o, (ast.And, ast.Or)) for o in c.operands)
    if isinstance(c, ast.Not):
        return "not " + _paren_if(c.operand, (ast.And, ast.Or))
    return _predicate(c)


def _paren_if(c: ast.Condition, kinds: type | tuple[type, ...]) -> str:
    return f"({_cond(c)})" if isinstance(c, kinds) else _cond(c)


def _atom(c: ast.Condition, safe: bool) -> str:
    """The condition of ``where``/``have``: one predicate, perhaps negated, else
    parenthesised."""
    if isinstance(c, ast.Not):
        return "not " + _atom(c.operand, safe)
    if not safe or isinstance(c, (ast.And, ast.Or)):
        return f"({_cond(c)})"
    return _predicate(c)


def _predicate(c: ast.Condition) -> str:
    method = _PREDICATES[type(c)]
    return method(c)


def _compare(c: ast.Compare) -> str:
    return (f"{_value(c.left, False)} {c.op} {_value(c.right, not c.ignore_case)}"
            + _ignoring(c.ignore_case))


def _between(c: ast.Between) -> str:
    return f"{_value(c.subject, False)} between {_value(c.low, False)} and {_value(c.high, True)}"


def _text_test(c: ast.TextTest) -> str:
    ignore = c.ignore_case and c.op not in _REGEX_OPS
    operand = _value(c.operand, not ignore)
    return f"{_value(c.subject, False)} {_TEXT_OPS[c.op]} {operand}" + _ignoring(ignore)


def _includes(c: ast.Includes) -> str:
    return f"{_value(c.subject, False)} includes {_value(c.expected, True)}"


def _member(c: ast.Member) -> str:
    word = " not in " if c.negated else " in "
    return (_value(c.item, False) + word + _value(c.collection, not c.ignore_case)
            + _ignoring(c.ignore_case))


def _emptiness(c: ast.Emptiness) -> str:
    return f"{_value(c.subject, False)} is " + ("not empty" if c.negated else "empty")


def _exists(c: ast.Exists) -> str:
    return f"exists {_value(c.target, True)}"


def _quantified(c: ast.Quantified) -> str:
    word = f"exactly {c.count}" if c.quantifier == "exactly" else c.quantifier
    has_condition = c.condition is not None
    text = f"{word} {_value(c.selection, not has_condition)}"
    return text + (f" have {_atom(c.condition, True)}" if c.condition is not None else "")


def _before(c: ast.Before) -> str:
    return f"{_value(c.first, False)} before {_value(c.second, True)}"


def _in_order(c: ast.InOrder) -> str:
    return ("exactly in order " if c.exact else "in order ") + _selection_list(c.items)


def _each(c: ast.EachDistinct) -> str:
    return "each of " + _selection_list(c.items)


def _only(c: ast.Only) -> str:
    return "only " + _selection_list(c.items)


def _selection_list(items: tuple[ast.Value, ...]) -> str:
    return "[" + ", ".join(_value(s, True) for s in items) + "]"


def _ignoring(flag: bool) -> str:
    return " ignoring case" if flag else ""


_PREDICATES: dict[type, Callable[[Any], str]] = {
    ast.Compare: _compare, ast.Between: _between, ast.TextTest: _text_test,
    ast.Includes: _includes, ast.Member: _member, ast.Emptiness: _emptiness, ast.Exists: _exists,
    ast.Quantified: _quantified, ast.Before: _before, ast.InOrder: _in_order,
    ast.EachDistinct: _each, ast.Only: _only, ast.Semantic: lambda c: f"semantic {_string(c.text)}",
    ast.Truthy: lambda c: _value(c.value, True),
}

# --------------------------------------------------------------------- values


def _value(v: ast.Value | ast.RegexLit, safe: bool) -> str:
    """A value; ``safe`` is False when a token that could extend it comes next."""
    if isinstance(v, ast.Selection):
        return _selection(v, safe)
    if isinstance(v, ast.PathExpr):
        return _path(v)
    if isinstance(v, ast.FuncCall):
        return f"{v.name}(" + ", ".join(_value(a, True) for a in v.args) + ")"
    if isinstance(v, ast.JsonPathExpr):
        base = "" if v.base is None else _value(v.base, True) + ", "
        return f"jsonpath({base}{_string(v.query)})"
    if isinstance(v, ast.NameRef):
        return v.name
    if isinstance(v, ast.Filtered):
        return f"{_value(v.base, False)} where {_atom(v.condition, safe)}"
    if isinstance(v, ast.RegexLit):
        return regex_text(v.pattern, v.flags)
    if isinstance(v, ast.ArrayLit):
        return "[" + ", ".join(_value(i, True) for i in v.items) + "]"
    if isinstance(v, ast.ObjectLit):
        return _object(v.items)
    if isinstance(v, ast.Literal):
        return _json(v.value)
    raise TypeError(f"not a value node: {type(v).__name__}")


def _object(items: tuple[tuple[str, ast.Value], ...]) -> str:
    return "{" + ", ".join(f"{_string(k)}: {_value(x, True)}" for k, x in items) + "}"


def _json(value: Any) -> str:
    """A literal's Python value as the language writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return _decimal(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_json(i) for i in value) + "]"
    if isinstance(value, ast.ObjectLit):
        return _object(value.items)
    raise TypeError(f"not a literal value: {type(value).__name__}")


def _decimal(d: Decimal) -> str:
    text = str(d)
    # str() keeps the value's exponent ("1E+3"); a fraction-free Decimal must keep a
    # mark of being a Decimal only if it would otherwise read back as an int.
    if not any(c in text for c in ".eE"):
        text += ".0" if d == d.to_integral_value() and "E" not in text else ""
    return text


def _path(p: ast.PathExpr) -> str:
    fields = list(p.fields)
    if p.base is None:
        first = fields[0].key if fields else None
        if isinstance(first, str) and _IDENT.match(first):
            head = "." + first
            fields.pop(0)
        else:
            head = "."
    else:
        head = _value(p.base, False)
    rest = "".join(_field(f) for f in fields)
    # "step 0" followed by ".a" would read back as the number "0.a".
    gap = " " if head[-1:].isdigit() and rest.startswith(".") else ""
    return head + gap + rest


def _field(f: ast.Field) -> str:
    if isinstance(f.key, int):
        return f"[{f.key}]"
    return "." + f.key if _IDENT.match(f.key) else f"[{_string(f.key)}]"


def _selection(s: ast.Selection, safe: bool) -> str:
    parts = [_source(s.source)]
    last = len(s.filters) - 1
    for i, flt in enumerate(s.filters):
        parts.append(_filter(flt, safe and i == last))
    return " ".join(parts)


def _source(src: ast.Source) -> str:
    if src.kind not in ("file", "input"):
        return src.kind
    text = f"{src.kind} {_string(src.path or '')}"
    return text + (f" as {src.fmt}" if src.fmt != "text" else "")


def _filter(f: ast.Filter, safe: bool) -> str:
    if isinstance(f, ast.ToolFilter):
        return "to " + _name_pattern(f.pattern)
    if isinstance(f, ast.StatusFilter):
        return f"with status {f.status}"
    if isinstance(f, ast.StepFilter):
        return f"at step {f.step}"
    return "where " + _atom(f.condition, safe)


def _name_pattern(p: ast.NamePattern) -> str:
    if p.kind == "glob":
        return "glob " + _string(p.text)
    if p.kind == "regex":
        return regex_text(p.text, p.flags)
    return _string(p.text)


def regex_text(pattern: str, flags: str = "") -> str:
    """``/pattern/flags`` with every unescaped ``/`` written ``\\/``."""
    out, i = [], 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            out.append(pattern[i:i + 2])
            i += 2
            continue
        out.append("\\/" if pattern[i] == "/" else pattern[i])
        i += 1
    return "/" + "".join(out) + "/" + flags


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
