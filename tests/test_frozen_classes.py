"""A frozen value class is made by ``@frozen`` unless it needs what ``@frozen`` refuses.

``@dataclass(frozen=True)`` compiles six methods when its class is made, about
0.6 ms a class, paid by every command that imports it; ``dsl.frozen.frozen`` makes
the same class for almost nothing (see its module). This test reads the package's
source and lists each class written ``@dataclass(frozen=True)`` that ``@frozen``
could make: a class of its own with no base, no ``__post_init__`` and none of the
six methods, no ``__slots__``, and no field with a ``default_factory``,
``init=False`` or a ``hash`` of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
_LEFT_OUT = {"tests", "benchmarks", "examples", "build"}
_SIX = {"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__post_init__", "__slots__"}
_FIELD_WORDS = {"default_factory", "init", "hash", "kw_only"}


def _is_plain_frozen_dataclass(decorator: ast.expr) -> bool:
    """``@dataclass(frozen=True)`` and nothing else."""
    return (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name)
            and decorator.func.id == "dataclass" and not decorator.args
            and [(k.arg, getattr(k.value, "value", None)) for k in decorator.keywords] == [("frozen", True)])


def _needs_dataclass(node: ast.ClassDef) -> bool:
    """Whether the class uses what ``@frozen`` refuses (or has a base, which must be
    made the same way)."""
    if node.bases or node.keywords:
        return True
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.Assign)) and _SIX & _names(statement):
            return True
        if any(isinstance(k, ast.keyword) and k.arg in _FIELD_WORDS for k in ast.walk(statement)):
            return True
    return False


def _names(statement: ast.FunctionDef | ast.Assign) -> set[str]:
    if isinstance(statement, ast.FunctionDef):
        return {statement.name}
    return {target.id for target in statement.targets if isinstance(target, ast.Name)}


def test_every_frozen_class_that_frozen_can_make_is_made_by_it():
    could = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if _LEFT_OUT & set(path.relative_to(PACKAGE).parts[:1]):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(map(_is_plain_frozen_dataclass, node.decorator_list)) \
                    and not _needs_dataclass(node):
                could.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert could == [], "write these @frozen (from referee.dsl.frozen import frozen)"
