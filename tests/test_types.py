"""The package type-checks clean: mypy, configured by ``[tool.mypy]`` in pyproject.toml;
and what holds referee's own objects is not annotated ``Any``, where mypy would let it be."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO


def test_mypy_finds_no_error_in_the_package(tmp_path: Path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install '.[test]' installs it)")
    # The checkout's root is the `referee` package (pyproject's package-dir), which
    # mypy cannot find by itself: it checks a folder whose `referee` is the checkout.
    (tmp_path / "referee").symlink_to(REPO, target_is_directory=True)
    command = [sys.executable, "-m", "mypy", "-p", "referee",
               "--config-file", str(REPO / "pyproject.toml")]
    found = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert found.returncode == 0, f"mypy found errors:\n{found.stdout}{found.stderr}"


# A parameter or attribute of these names holds one of referee's own objects (a Run,
# a compiled assertion, a Verdict, a check or an expression, an AST node, a tool call,
# a note, a source map, a compiled pattern...): its annotation names that type, never
# ``Any`` nor a container of ``Any`` (``dict[str, Any]`` is JSON, and is not looked at).
PROJECT_NAMES = frozenset({
    "run", "runs", "assertion", "assertions", "verdict", "verdicts", "check", "checks", "condition",
    "expr", "operand", "operands", "ctx", "call", "calls", "note", "notes", "transcript",
    "source_map", "program", "node", "pattern", "patterns", "payload", "selection",
})
# (file, function or class, name): the places where such a name still says Any, and why.
STILL_ANY = {
    ("dsl/evals_json.py", "_move_spans", "node"): "a walk over any frozen dataclass tree",
    ("engine/checks/compiler.py", "_condition", "node"): "a let's value, known a condition by Let.names",
    ("engine/commands/check_workspace.py", "workspace_warnings", "evals"): "EvalsFile",
    ("engine/commands/check_workspace.py", "_matchers", "program"): "Program",
    ("engine/commands/check_workspace.py", "_key", "pattern"): "ast.NamePattern",
    ("engine/pool.py", "__init__", "runs"): "Sequence[Run], generic in the task's result",
    ("engine/pool.py", "_chunk_in_worker", "runs"): "Sequence[Run]",
    ("engine/run/importers/citing.py", "in_sources", "verdict"): "Verdict",
    ("engine/run/importers/citing.py", "in_sources", "source_map"): "SourceMap",
    ("engine/run/importers/citing.py", "cite_text", "source_map"): "SourceMap",
    ("engine/run/importers/citing.py", "_evidence", "source_map"): "SourceMap",
    ("engine/run/importers/citing.py", "source_quote", "source_map"): "SourceMap",
    ("engine/run/importers/citing.py", "_first_line_after", "source_map"): "SourceMap",
    ("engine/run/importers/openai_calls.py", "call", "call"): "JSON: a message's tool call as read",
    ("engine/run/importers/skill_creator.py", "tagged", "note"): "Note",
    ("engine/run/select.py", "select_runs", "runs"): "the implementation of overloads that type it",
}


def _loose(annotation: ast.expr | None) -> bool:
    """``Any``, or a container whose elements are ``Any`` (``Sequence[Any]``, ``tuple[Any, ...]``)."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _loose(ast.parse(annotation.value, mode="eval").body)
    if isinstance(annotation, ast.Name):
        return annotation.id == "Any"
    if isinstance(annotation, ast.Subscript) and not (isinstance(annotation.value, ast.Name)
                                                      and annotation.value.id in ("dict", "Mapping")):
        parts = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        return any(_loose(part) for part in parts)
    if isinstance(annotation, ast.BinOp):  # X | Y
        return _loose(annotation.left) or _loose(annotation.right)
    return False


def _typed_names(tree: ast.Module):
    """(enclosing function or class, name, annotation) of every parameter and annotated attribute."""
    for owner in ast.walk(tree):
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = owner.args
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                yield owner.name, arg.arg, arg.annotation
            body = owner.body
        elif isinstance(owner, ast.ClassDef):
            body = owner.body
        else:
            continue
        for statement in body:
            if isinstance(statement, ast.AnnAssign):
                target = statement.target
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                yield owner.name, name, statement.annotation


def test_no_project_object_is_annotated_any() -> None:
    found = []
    for folder in ("engine", "dsl", "llm_adapter"):
        for path in sorted((REPO / folder).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            for owner, name, annotation in _typed_names(ast.parse(path.read_text(encoding="utf-8"))):
                if name in PROJECT_NAMES and _loose(annotation) and (rel, owner, name) not in STILL_ANY:
                    found.append(f"{rel}: {owner}: {name}: {ast.unparse(annotation)}")
    assert not found, "annotated Any where one of referee's own types belongs:\n" + "\n".join(found)


def test_compiled_checks_hold_typed_parts() -> None:
    """Every field of a compiled check or expression (``engine.checks``) has its type:
    an ``Expr``, a ``Check``, a ``Select``, a ``Pattern``..., never ``Any``; the one
    exception holds a third-party object."""
    loose = []
    for path in sorted((REPO / "engine" / "checks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                loose += [f"{path.name}: {node.name}.{field.target.id}" for field in node.body
                          if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)
                          and _loose(field.annotation)]
    assert loose == ["exprs.py: JsonPathGet.query"], loose  # a parsed jsonpath-ng expression
