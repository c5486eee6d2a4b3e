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
from dataclasses import dataclass
from typing import Iterator, Mapping

from referee.dsl import ast
from referee.engine.checks.sources import EVIDENCE_SOURCE
from referee.engine.run.model import SOURCES
from referee.engine.verdict import Precision

_CONNECTIVES = (ast.Not, ast.And, ast.Or)
_EXISTENCE = (ast.Exists, ast.Emptiness)


def walk(node, lets: Mapping[str, ast.Let], seen: frozenset = frozenset()) -> Iterator:
    """Every node under ``node``, following let names (each let once per path)."""
    yield node
    if isinstance(node, ast.NameRef) and node.name in lets and node.name not in seen:
        yield from walk(lets[node.name].value, lets, seen | {node.name})
        return
    if not dataclasses.is_dataclass(node):
        return
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        yield from _walk_value(getattr(node, f.name), lets, seen)


def _walk_value(value, lets, seen) -> Iterator:
    if isinstance(value, tuple):
        for item in value:
            yield from _walk_value(item, lets, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield from walk(value, lets, seen)


def precision(check, lets: Mapping[str, ast.Let]) -> Precision:
    if check is None or any(isinstance(n, ast.Semantic) for n in walk(check, lets)):
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


def evidence_source(check, lets: Mapping[str, ast.Let]) -> str:
    """``tool_calls+response`` style: the sources read, most trusted first.

    A plain semantic sentence is judged on the response; a check that reads no
    source at all (literals only) says ``none``.
    """
    if check is None:
        return "response"
    found = {EVIDENCE_SOURCE[n.kind] for n in walk(check, lets) if isinstance(n, ast.Source)}
    if not found:
        return "response" if precision(check, lets) is Precision.SEMANTIC else "none"
    return "+".join(s for s in SOURCES if s in found)


def tool_patterns(check, lets: Mapping[str, ast.Let]) -> tuple[ast.NamePattern, ...]:
    """The tool-name patterns the check's call selections filter by, each once, in
    the order written (spans aside, equal patterns are one)."""
    if check is None:
        return ()
    found = (n.pattern for n in walk(check, lets) if isinstance(n, ast.ToolFilter))
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
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
    found: list[Read] = []
    for n in walk(node, lets or {}):
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


def rubric(check, sentence: str) -> str:
    """What the LLM grader decides: the ``semantic "..."`` texts, else the sentence."""
    nodes = walk(check, {}) if check is not None else ()
    questions = [n.text for n in nodes if isinstance(n, ast.Semantic)]
    return " ".join(questions) if questions else sentence
