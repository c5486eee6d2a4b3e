"""Static properties of an assertion, read off its syntax tree.

- precision: ``semantic`` if any ``semantic`` is in the tree; ``existence`` if the
  condition is only ``exists`` / ``is [not] empty`` under and/or/not; otherwise
  ``exact_match``.
- evidence source: the sources its selections read (through lets too), most
  trusted first, joined by ``+`` (``tool_calls+response``).
- tool patterns: the ``to ...`` filters of its call selections (through lets too),
  so a critique can tell an assertion about a tool no run ever called.
- reads: the tools, argument fields, files and timing/metrics fields a rule names,
  with their spans, so ``check --workspace`` can say which no run has.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Iterable, Iterator, Mapping

from referee.dsl import ast
from referee.dsl.frozen import frozen
from referee.engine.checks.sources import EVIDENCE_SOURCE
from referee.engine.run.model import SOURCES
from referee.engine.verdict import Precision

_CONNECTIVES = (ast.Not, ast.And, ast.Or)
_EXISTENCE = (ast.Exists, ast.Emptiness)


def walk(node, lets: Mapping[str, ast.Let], seen: frozenset = frozenset()) -> Iterator:
    """Every node under ``node``, following let names (each let once per path)."""
    return iter(_nodes(node, lets, seen))


def _nodes(node, lets: Mapping[str, ast.Let], seen: frozenset) -> list:
    """The nodes of ``walk`` in its order (each before its children, children in
    field order). A stack, not nested generators: every node yielded through a
    chain of generators cost a step per level, and this runs for every assertion."""
    found = []
    stack = [(node, seen)]
    while stack:
        node, seen = stack.pop()
        found.append(node)
        if isinstance(node, ast.NameRef) and node.name in lets and node.name not in seen:
            stack.append((lets[node.name].value, seen | {node.name}))
            continue
        # pushed last field first, so the first comes off the stack first
        for name in reversed(_fields_of(type(node)) or ()):
            _push(getattr(node, name), seen, stack)
    return found


def _push(value: object, seen: frozenset, stack: list) -> None:
    """Push the nodes a field holds, last first: itself, or those of a tuple
    (nested tuples too)."""
    if isinstance(value, tuple):
        for item in reversed(value):
            _push(item, seen, stack)
    elif _fields_of(type(value)) is not None:
        stack.append((value, seen))


# Per node class, the names of the fields that may hold child nodes (all but
# ``span``); None for a class that is not a dataclass. ``dataclasses.fields``
# builds its tuple anew on every call, and the classes never change.
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields_of(cls: type) -> tuple[str, ...] | None:
    try:
        return _FIELDS[cls]
    except KeyError:
        pass
    # a class whose instances are classes (a metaclass) holds no nodes
    is_node = dataclasses.is_dataclass(cls) and not issubclass(cls, type)
    found = tuple(f.name for f in dataclasses.fields(cls) if f.name != "span") if is_node else None
    _FIELDS[cls] = found
    return found


# What a check or a let may come to with its let names written out: compiling it, and
# walking it for its properties, follow every let name, each use anew, so a few lines
# (``let c1 = c0 and c0``, ``let c2 = c1 and c1``...) would ask for millions of nodes,
# and a long chain of lets would nest deeper than the compiler's stack. Each limit sits
# well above any rule written by hand (a statement alone nests at most 100 levels).
MAX_EXPANDED_DEPTH = 150
MAX_EXPANDED_SIZE = 20_000


@frozen
class Extent:
    """How deep a tree nests and how many nodes it holds, its let names written out
    (a let name counts as a node above its let's value)."""

    depth: int
    size: int

    def too_large(self) -> str | None:
        """Why it is beyond what is compiled (None when it is not)."""
        if self.depth > MAX_EXPANDED_DEPTH:
            return f"nests more than {MAX_EXPANDED_DEPTH} levels deep"
        if self.size > MAX_EXPANDED_SIZE:
            return f"holds more than {MAX_EXPANDED_SIZE:,} parts"
        return None


def let_extents(lets: Mapping[str, ast.Let]) -> dict[str, Extent]:
    """Each let's ``Extent``, each let measured once (after the lets it names), so the
    cost is the lets' own size however often they name each other. A name met again
    on its own cycle counts as one node (``name-cycle`` reports the cycle)."""
    known: dict[str, Extent] = {}
    for name in lets:
        path, on_path = [name], {name}
        while path:
            top = path[-1]
            if top in known:
                on_path.discard(path.pop())
                continue
            pending = [n for n in let_names(lets[top].value, lets) if n not in known and n not in on_path]
            if pending:
                path.append(pending[0])
                on_path.add(pending[0])
                continue
            known[top] = extent(lets[top].value, lets, known)
            on_path.discard(path.pop())
    return known


def extent(node, lets: Mapping[str, ast.Let], known: Mapping[str, Extent]) -> Extent:
    """``node``'s ``Extent``, each let name it holds counted as its let's (``known``)."""
    order: list[tuple[object, int]] = []  # (node, its parent's position), parents first
    stack: list[tuple[object, int]] = [(node, -1)]
    while stack:
        item, parent = stack.pop()
        order.append((item, parent))
        if not (isinstance(item, ast.NameRef) and item.name in lets):
            for child in _children(item):
                stack.append((child, len(order) - 1))
    depth, size = [1] * len(order), [1] * len(order)
    for at in range(len(order) - 1, -1, -1):  # every node after its parent: children first
        item, parent = order[at]
        if isinstance(item, ast.NameRef) and item.name in known:
            depth[at], size[at] = known[item.name].depth + 1, known[item.name].size + 1
        if parent >= 0:
            depth[parent] = max(depth[parent], depth[at] + 1)
            size[parent] += size[at]
    return Extent(depth[0], size[0])


def let_names(node, lets: Mapping[str, ast.Let]) -> list[str]:
    """The names of ``lets`` that ``node`` holds, in order (lets not followed)."""
    return [n.name for n in walk(node, {}) if isinstance(n, ast.NameRef) and n.name in lets]


def _children(node) -> list:
    """The nodes ``node``'s fields hold (in no order that matters to an extent)."""
    found: list = []
    for name in _fields_of(type(node)) or ():
        _push(getattr(node, name), frozenset(), found)
    return [child for child, _ in found]


def reads_element(node) -> bool:
    """Whether ``node`` reads the current element of a ``where``/``have`` (``.x``,
    ``jsonpath("$.x")``); lets are not followed: a let never does."""
    return any(isinstance(n, (ast.PathExpr, ast.JsonPathExpr)) and n.base is None
               for n in walk(node, {}))


@frozen
class Properties:
    """The static properties of one check, read off one walk of its tree."""

    precision: Precision
    evidence_source: str
    tool_patterns: tuple[ast.NamePattern, ...]
    reads: tuple[Read, ...]


def properties(check: ast.Condition | None, lets: Mapping[str, ast.Let]) -> Properties:
    """What ``precision``, ``evidence_source``, ``tool_patterns`` and ``reads``
    (lets followed) say of ``check``; the compiler asks all four of every
    assertion, and each walking the tree again was most of their cost."""
    if check is None:
        return Properties(Precision.SEMANTIC, "response", (), ())
    nodes = _nodes(check, lets, frozenset())
    found = _precision(check, nodes)
    return Properties(found, _evidence_source(nodes, found), _tool_patterns(nodes),
                      _reads(nodes))


def precision(check: ast.Condition | None, lets: Mapping[str, ast.Let]) -> Precision:
    if check is None:
        return Precision.SEMANTIC
    return _precision(check, walk(check, lets))


def _precision(check: ast.Condition, nodes: Iterable) -> Precision:
    if any(isinstance(n, ast.Semantic) for n in nodes):
        return Precision.SEMANTIC
    return Precision.EXISTENCE if _only_existence(check) else Precision.EXACT_MATCH


def _only_existence(node) -> bool:
    if isinstance(node, _EXISTENCE):
        return True
    if isinstance(node, ast.Not):
        return _only_existence(node.operand)
    if isinstance(node, (ast.And, ast.Or)):
        return all(_only_existence(op) for op in node.operands)
    return False


# ``count(x) OP n`` that says only whether x holds something: True for "something
# is there" (count(x) >= 1), False for "nothing is" (count(x) == 0).
_COUNT_SAYS = {(">=", 1): True, (">", 0): True, ("!=", 0): True, ("==", 0): False, ("<", 1): False,
               ("<=", 0): False}
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def presence_only(check: ast.Condition) -> bool:
    """Whether ``check`` asks only whether something is there: ``exists``, ``is
    [not] empty``, and what says the same in other words (``count(x) >= 1``,
    ``count(x) == 0``, ``any x`` and ``no x`` without ``have``), under and/or/not.
    The critique holds every such check to what ``exists`` is held to: written as
    a count, "a reservation is made" passes on any reservation all the same."""
    if isinstance(check, (ast.Not, ast.And, ast.Or)):
        operands = (check.operand,) if isinstance(check, ast.Not) else check.operands
        return all(presence_only(op) for op in operands)
    if isinstance(check, _EXISTENCE):
        return True
    if isinstance(check, ast.Quantified):
        return check.condition is None and (check.quantifier in ("any", "no")
                                            or (check.quantifier == "exactly" and check.count == 0))
    return isinstance(check, ast.Compare) and _counted_presence(check)


def _counted_presence(compare: ast.Compare) -> bool:
    op, left, right = compare.op, compare.left, compare.right
    if isinstance(left, ast.Literal):  # 0 < count(x) is count(x) > 0
        op, left, right = _MIRRORED[op], right, left
    if not (isinstance(left, ast.FuncCall) and left.name == "count" and isinstance(right, ast.Literal)):
        return False
    number = right.value
    return isinstance(number, (int, Decimal)) and not isinstance(number, bool) and (op, number) in _COUNT_SAYS


def evidence_source(check: ast.Condition | None, lets: Mapping[str, ast.Let]) -> str:
    """``tool_calls+response`` style: the sources read, most trusted first.

    A plain semantic sentence is judged on the response; a check that reads no
    source at all (literals only) says ``none``.
    """
    if check is None:
        return "response"
    nodes = _nodes(check, lets, frozenset())
    return _evidence_source(nodes, _precision(check, nodes))


def _evidence_source(nodes: list, precision: Precision) -> str:
    found = {EVIDENCE_SOURCE[n.kind] for n in nodes if isinstance(n, ast.Source)} & set(SOURCES)
    if not found:
        return "response" if precision is Precision.SEMANTIC else "none"
    return "+".join(s for s in SOURCES if s in found)


def tool_patterns(check: ast.Condition | None, lets: Mapping[str, ast.Let]) -> tuple[ast.NamePattern, ...]:
    """The tool-name patterns the check's call selections filter by, each once, in
    the order written (spans aside, equal patterns are one)."""
    if check is None:
        return ()
    return _tool_patterns(walk(check, lets))


def _tool_patterns(nodes: Iterable) -> tuple[ast.NamePattern, ...]:
    return tuple(dict.fromkeys(n.pattern for n in nodes if isinstance(n, ast.ToolFilter)))


@frozen
class Read:
    """Something a rule reads from a run, named as written: a tool (``kind`` "tool",
    ``pattern`` set), an argument field ("arg"), an output file ("file"), or a
    top-level field of timing.json / metrics.json ("timing", "metrics")."""

    kind: str
    name: str
    span: ast.Span
    pattern: ast.NamePattern | None = None


_JSON_SOURCES = ("timing", "metrics")


def reads(node, lets: Mapping[str, ast.Let] | None = None) -> tuple[Read, ...]:
    """What ``node`` (a let value or an expect's check) reads, in the order written,
    each once. Lets are followed only when given."""
    return _reads(walk(node, lets or {}))


def _reads(nodes: Iterable) -> tuple[Read, ...]:
    found: list[Read] = []
    for n in nodes:
        if isinstance(n, ast.ToolFilter):
            found.append(Read("tool", n.pattern.text, n.pattern.span, n.pattern))
        elif isinstance(n, ast.Source) and n.kind == "file" and n.path:
            found.append(Read("file", n.path, n.span))
        elif isinstance(n, ast.PathExpr):
            found += _path_reads(n)
    return tuple(dict.fromkeys(found))


def _path_reads(path: ast.PathExpr) -> list[Read]:
    base = path.base
    out = []
    first = path.fields[0] if path.fields else None
    if isinstance(base, ast.Selection) and base.source.kind in _JSON_SOURCES and not base.filters \
            and first is not None and isinstance(first.key, str):
        out.append(Read(base.source.kind, first.key, first.span if first.span.line else path.span))
    # A call's arguments: `.args.x`, `saved.args.x`, `calls[0].args.x`; an "args" key
    # deeper in a payload (`.return.body.args`) is data, not a call's arguments.
    fields = path.fields[1:] if path.fields and isinstance(path.fields[0].key, int) else path.fields
    after = fields[1] if len(fields) >= 2 else None
    if after is not None and fields[0].key == "args" and isinstance(after.key, str):
        out.append(Read("arg", after.key, after.span if after.span.line else path.span))
    return out


def rubric(check: ast.Condition | None, sentence: str) -> str:
    """What the LLM grader decides: the ``semantic "..."`` texts, else the sentence."""
    nodes = walk(check, {}) if check is not None else ()
    questions = [n.text for n in nodes if isinstance(n, ast.Semantic)]
    return " ".join(questions) if questions else sentence
