"""Static properties of an assertion, read off its syntax tree.

- precision: ``semantic`` if any ``semantic`` is in the tree; ``existence`` if the
  condition is only ``exists`` / ``is [not] empty`` under and/or/not; otherwise
  ``exact_match``.
- evidence source: the sources its selections read (through lets too), most
  trusted first, joined by ``+`` (``tool_calls+response``).
- tool patterns: the ``to ...`` filters of its call selections (through lets too),
  so a critique can tell an assertion about a tool no run ever called.
"""

from __future__ import annotations

import dataclasses
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


def rubric(check, sentence: str) -> str:
    """What the LLM grader decides: the ``semantic "..."`` texts, else the sentence."""
    nodes = walk(check, {}) if check is not None else ()
    questions = [n.text for n in nodes if isinstance(n, ast.Semantic)]
    return " ".join(questions) if questions else sentence
