"""What an assertion claims, read off its syntax tree, for the mutants that test it.

A mutant counts against an assertion only when it makes the assertion's sentence
false. Removing a call, emptying the response or altering a value falsifies a
sentence that needs something there ("saveExpenseDoc is called with status 10"); it
leaves true one that forbids something ("no call pushes to git", "the summary names
no figure the article lacks"). Such a sentence is made false only by adding what it
forbids: a call that does it, the words it bans, built here from the rule itself,
or not at all when the rule's condition cannot be satisfied by construction.

Each part of a condition is read under its polarity (``not`` flips it): ``any``,
``exists``, ``contains``, ``==`` claim presence and values; ``no``, ``not ...``,
``count(...) == 0`` forbid; ``all`` claims the values of what is there, and forbids
an element that breaks its condition.
"""

from __future__ import annotations

import copy
import math
from decimal import Decimal
from dataclasses import dataclass, field
from typing import Any, Mapping

from referee.dsl import ast
from referee.dsl.frozen import frozen

# What a let can name, and so what a name in a condition can stand for.
_Node = ast.Value | ast.RegexLit | ast.Condition

_UPPER = {"==", "<=", "<"}  # a count bounded from above: a duplicate may break it
_NONE = {("==", 0), ("<=", 0), ("<", 1)}  # a count that forbids what it counts


@frozen
class CallWitness:
    """A tool call that makes a forbidding sentence false."""

    tool: str
    args: Any = None
    result: Any = None
    status: str = "success"


@frozen
class TextWitness:
    """Words that make a forbidding sentence about the response false, the section
    they go in (None: the whole response), and where in it the rule looks for them:
    ``contains``, ``starts_with`` or ``ends_with``."""

    text: str
    section: str | None = None
    op: str = "contains"


@dataclass
class Claims:
    presence: bool = False  # passes because something is there
    values: bool = False  # claims values of what is there
    # The most items a count bounded from above allows (the largest such bound in the
    # condition: more than that breaks every part); None when no count is bounded.
    most: int | None = None
    ordering: bool = False  # states an order of calls (before, in order)
    calls: list[CallWitness] = field(default_factory=list)
    texts: list[TextWitness] = field(default_factory=list)

    @property
    def bounded(self) -> bool:
        return self.most is not None

    def allow_at_most(self, most: int) -> None:
        self.most = most if self.most is None else max(self.most, most)

    @property
    def forbids_only(self) -> bool:
        return not (self.presence or self.values)


def claims_of(condition: ast.Condition | None, lets: Mapping[str, ast.Let]) -> Claims:
    found = Claims()
    if condition is not None:
        _read(condition, True, lets, found, frozenset())
    return found


def _read(node: _Node, positive: bool, lets: Mapping[str, ast.Let], found: Claims, seen: frozenset) -> None:
    if isinstance(node, ast.Not):
        _read(node.operand, not positive, lets, found, seen)
    elif isinstance(node, (ast.And, ast.Or)):
        for operand in node.operands:
            _read(operand, positive, lets, found, seen)
    elif isinstance(node, ast.Truthy) and isinstance(node.value, ast.NameRef):
        let = lets.get(node.value.name)
        if let is not None and let.names == "condition" and node.value.name not in seen:
            _read(let.value, positive, lets, found, seen | {node.value.name})
        else:
            _claim(found, positive, values=True)
    elif isinstance(node, ast.Quantified):
        _quantified(node, positive, lets, found)
    elif isinstance(node, ast.Exists):
        _claim(found, True) if positive else _forbid(_resolve(node.target, lets), None, found, lets)
    elif isinstance(node, ast.Emptiness):
        _claim(found, positive == node.negated)  # "is not empty" needs something there
    elif isinstance(node, (ast.Compare, ast.Between)):
        _compare(node, positive, lets, found)
    elif isinstance(node, ast.TextTest):
        _text(node, positive, lets, found)
    elif isinstance(node, ast.Member) and node.negated:
        _claim(found, not positive, values=True)
    elif isinstance(node, (ast.Before, ast.InOrder)):
        found.ordering = True  # whatever its polarity: a swap is tested only where it needs the calls
        _claim(found, positive, values=True)
    elif isinstance(node, ast.Only):
        if positive:
            found.calls.append(CallWitness("UnlistedTool"))
        else:
            _claim(found, True)
    elif not isinstance(node, ast.Semantic):  # includes, in, matches a shape, order, emptiness
        _claim(found, positive, values=True)


def _claim(found: Claims, positive: bool, values: bool = False) -> None:
    """A part that needs something there (and, with ``values``, values of it)."""
    if positive:
        found.presence = True
        found.values = found.values or values


def _quantified(node: ast.Quantified, positive: bool, lets: Mapping[str, ast.Let], found: Claims) -> None:
    word = node.quantifier
    if word == "exactly" and node.count == 0:
        word = "no"
    if word == "exactly" and positive and node.count is not None:
        found.allow_at_most(node.count)
    if word == "all":
        if positive and node.condition is not None:  # the values of what is there; no element breaking them
            found.values = found.values or _inner(node.condition, lets).values
            _forbid(_resolve(node.selection, lets), ast.Not(node.condition), found, lets)
        elif not positive:
            _claim(found, True, values=True)
        return
    if (word == "no") == positive:
        _forbid(_resolve(node.selection, lets), node.condition, found, lets)
    else:
        inner = _inner(node.condition, lets) if node.condition is not None else Claims()
        _claim(found, True, values=inner.values)


def _inner(condition: ast.Condition, lets: Mapping[str, ast.Let]) -> Claims:
    """What a ``have`` condition claims of one element: whether changing its values
    can make it false (``.x == 1`` can; ``not .x contains "y"`` cannot)."""
    found = Claims()
    _read(condition, True, lets, found, frozenset())
    return found


def _forbid(target: _Node, condition: ast.Condition | None, found: Claims, lets: Mapping[str, ast.Let]) -> None:
    """The sentence forbids elements of ``target`` meeting ``condition``: such an
    element makes it false, when one can be built from the rule."""
    if isinstance(target, ast.Filtered):  # `calls to "x" where A` filtered by where B: both
        both = target.condition if condition is None else ast.And((target.condition, condition))
        _forbid(_resolve(target.base, lets), both, found, lets)
        return
    if not isinstance(target, ast.Selection) or target.source.kind != "calls":
        return
    witness = _call_witness(target, condition, lets)
    if witness is not None:
        found.calls.append(witness)


def _compare(node: ast.Compare | ast.Between, positive: bool, lets: Mapping[str, ast.Let], found: Claims) -> None:
    if isinstance(node, ast.Between):
        counted = _counted(node.subject)
        high = _number(node.high)
        if counted is not None and positive and high is not None:
            found.allow_at_most(math.floor(high))
        _claim(found, positive, values=True)
        return
    left, right, op = node.left, node.right, node.op
    if _counted(right) is not None and _counted(left) is None:
        left, right, op = right, left, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
    counted = _counted(left)
    bound = _number(right)
    if counted is None or bound is None:
        _claim(found, positive if op != "!=" else not positive, values=True)
        return
    if not positive:  # `not count(x) > 0` says what `count(x) <= 0` says
        op = _NEGATED[op]
    if op in _UPPER:
        found.allow_at_most(math.floor(bound) if op != "<" else math.ceil(bound) - 1)
    if (op, bound) in _NONE:
        _forbid(_resolve(counted, lets), None, found, lets)
    elif not _holds(op, 0, bound):  # none of them fails it: it needs them there
        _claim(found, True)


_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def _number(node: _Node) -> int | Decimal | None:
    """The number a literal writes, else None."""
    value = node.value if isinstance(node, ast.Literal) else None
    return value if isinstance(value, (int, Decimal)) and not isinstance(value, bool) else None


def _holds(op: str, count: int, bound: Any) -> bool:
    """Whether ``count op bound`` holds, for a count compared with a number."""
    return {"==": count == bound, "!=": count != bound, "<": count < bound, "<=": count <= bound,
            ">": count > bound, ">=": count >= bound}[op]


def _counted(node: ast.Value) -> ast.Value | None:
    """What ``count(x)`` or ``length(x)`` counts (the items of a list, the words or
    the characters of a text), else None."""
    if isinstance(node, ast.FuncCall) and node.name in ("count", "length") and len(node.args) == 1:
        return node.args[0]
    return None


def _text(node: ast.TextTest, positive: bool, lets: Mapping[str, ast.Let], found: Claims) -> None:
    if positive or node.op not in ("contains", "starts_with", "ends_with"):
        _claim(found, positive, values=True)
        return
    if not (isinstance(node.operand, ast.Literal) and isinstance(node.operand.value, str)):
        return
    subject = _resolve(node.subject, lets)
    if isinstance(subject, ast.Selection) and subject.source.kind == "response" and not subject.filters:
        found.texts.append(TextWitness(node.operand.value, op=node.op))
    elif isinstance(subject, ast.FuncCall) and subject.name == "section" and len(subject.args) == 2 \
            and _resolve(subject.args[0], lets) == ast.Selection(ast.Source("response")) \
            and isinstance(subject.args[1], ast.Literal) and isinstance(subject.args[1].value, str):
        found.texts.append(TextWitness(node.operand.value, subject.args[1].value, node.op))


def _resolve(node: _Node, lets: Mapping[str, ast.Let]) -> _Node:
    """A let name's value (through names bound to names), else the node."""
    seen: set[str] = set()
    while isinstance(node, ast.NameRef) and node.name in lets and node.name not in seen:
        seen.add(node.name)
        node = lets[node.name].value
    return node


# ------------------------------------------------------------------ witnesses


def _call_witness(selection: ast.Selection, condition: ast.Condition | None,
                  lets: Mapping[str, ast.Let]) -> CallWitness | None:
    """A call the selection selects and for which ``condition`` holds; None when one
    cannot be built from the rule (a regex, a glob with classes, a negation)."""
    record: dict[str, Any] = {"tool": "Tool", "status": "success"}
    conditions = [f.condition for f in selection.filters if isinstance(f, ast.WhereFilter)]
    for flt in selection.filters:
        if isinstance(flt, ast.ToolFilter):
            name = _tool_name(flt.pattern)
            if name is None:
                return None
            record["tool"] = name
        elif isinstance(flt, ast.StatusFilter):
            record["status"] = flt.status
        elif isinstance(flt, ast.StepFilter):
            return None
    for part in conditions + ([condition] if condition is not None else []):
        if not _make(part, True, record, lets):
            return None
    return CallWitness(str(record["tool"]), record.get("args"), record.get("return"), str(record["status"]))


def _tool_name(pattern: ast.NamePattern) -> str | None:
    if pattern.kind == "exact":
        return pattern.text
    if pattern.kind == "glob" and not any(c in pattern.text for c in "[]"):
        return pattern.text.replace("*", "x").replace("?", "x")
    return None


def _make(node: _Node, want: bool, record: dict, lets: Mapping[str, ast.Let]) -> bool:
    """Set fields of ``record`` so that ``node`` (about the current element) has the
    truth ``want``; False when that cannot be done by construction."""
    if isinstance(node, ast.Truthy) and isinstance(node.value, ast.NameRef):
        let = lets.get(node.value.name)
        if let is not None and let.names == "condition":
            return _make(let.value, want, record, {k: v for k, v in lets.items() if k != node.value.name})
    if isinstance(node, ast.Not):
        return _make(node.operand, not want, record, lets)
    if isinstance(node, ast.And) and want:
        return all(_make(operand, True, record, lets) for operand in node.operands)
    if isinstance(node, ast.Or) and want:
        for operand in node.operands:  # the first operand that can be made true, alone
            trial = copy.deepcopy(record)
            if _make(operand, True, trial, lets):
                record.clear()
                record.update(trial)
                return True
        return False
    literal = _literal_leaf(node, want)
    if literal is None:
        return False
    path, value = literal
    return _set(record, path, value)


def _literal_leaf(node: _Node, want: bool) -> tuple[tuple, Any] | None:
    """(path of the element, value) that gives ``node`` the truth ``want``."""
    if isinstance(node, ast.Truthy) and want:
        return _path(node.value), True
    if isinstance(node, ast.Compare) and (node.op == "==") == want and node.op in ("==", "!="):
        return _path(node.left), _json(node.right)
    if isinstance(node, ast.TextTest) and want and node.op in ("contains", "starts_with", "ends_with"):
        value = _json(node.operand)
        return (_path(node.subject), value) if isinstance(value, str) else None
    if isinstance(node, ast.Includes) and want:
        return _path(node.subject), _json(node.expected)
    if isinstance(node, ast.Member) and want != node.negated and isinstance(node.collection, ast.ArrayLit) \
            and node.collection.items:
        return _path(node.item), _json(node.collection.items[0])
    return None


_UNSET = object()


def _path(node: ast.Value) -> tuple:
    if isinstance(node, ast.PathExpr) and node.base is None and node.fields:
        return tuple(f.key for f in node.fields)
    return ()


def _json(node: _Node) -> Any:
    """A literal's value as JSON data; ``_UNSET`` for anything computed."""
    if isinstance(node, ast.Literal) and not isinstance(node.value, tuple):
        return node.value
    if isinstance(node, ast.ArrayLit):
        items = [_json(i) for i in node.items]
        return _UNSET if _UNSET in items else items
    if isinstance(node, ast.ObjectLit):
        pairs = {k: _json(v) for k, v in node.items}
        return _UNSET if _UNSET in pairs.values() else pairs
    return _UNSET


def _set(record: dict, path: tuple, value: Any) -> bool:
    """``record`` with ``value`` at ``path`` (a call's ``tool``, ``status``, or a key
    under ``args`` or ``return``); False for another path or a conflict."""
    if value is _UNSET or not path or any(not isinstance(k, str) for k in path):
        return False
    head, rest = path[0], path[1:]
    if head in ("tool", "status"):
        if rest or not isinstance(value, str) or (record.get(head) not in (None, value, "Tool", "success")):
            return False
        record[head] = value
        return True
    if head not in ("args", "return") or not rest:
        return False
    target = record.setdefault(head, {})
    for key in rest[:-1]:
        target = target.setdefault(key, {})
        if not isinstance(target, dict):
            return False
    if not isinstance(target, dict) or target.get(rest[-1], value) != value:
        return False
    target[rest[-1]] = value
    return True
