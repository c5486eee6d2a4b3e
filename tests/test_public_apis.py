"""referee uses no private name of the standard library or of a dependency.

A leading underscore marks a name private, and a module's ``__all__``, where it
has one, lists what it offers; a release keeps neither promise for anything else.
A walk over the package's syntax finds:

- a private module imported (``import _sha256``, ``from json._x import y``);
- a private name imported, or one its module's ``__all__`` leaves out
  (``from json.decoder import scanstring``), or one of a module the documentation
  leaves out that its package does not offer (``json.encoder.encode_basestring``),
  or any of these reached as an attribute of an imported module
  (``argparse._SubParsersAction``, ``json.decoder.scanstring``);
- a private attribute read or set on anything (``pool._processes``, also through
  ``getattr``) that no code of referee defines, so another package's object;
- a double-underscore attribute that is not one of the data model's
  (``cls.__dataclass_params__``, ``cls.__dictoffset__``).

And, importing every module, a method of a referee class that overrides a private
method of a base class from another package (``_get_subactions``).

Where no public way exists, the place goes in ``ALLOWED`` with the reason, and
``test_each_allowed_private_name_still_exists`` fails as soon as the name is gone
from the thing it belongs to. The list is empty: none is needed today.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path


import referee

REPO = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {"tests", "benchmarks", "examples", "build", "dist"}

# (file relative to the checkout, the private name): why no public way exists, and
# where the name lives, as "module:attribute.path", for the test that it still exists.
ALLOWED: dict[tuple[str, str], tuple[str, str]] = {}

# Double-underscore names of the data model (the language reference's "Data model"
# and "Special attributes" of the standard types), and __version__ by convention.
DATA_MODEL = frozenset("""
__name__ __qualname__ __module__ __doc__ __dict__ __class__ __mro__ __bases__ __slots__
__annotations__ __file__ __all__ __version__ __wrapped__ __func__ __self__ __code__
__init__ __new__ __call__ __repr__ __str__ __eq__ __ne__ __hash__ __lt__ __le__ __gt__ __ge__
__setattr__ __getattr__ __delattr__ __getattribute__ __contains__ __iter__ __next__ __len__
__getitem__ __setitem__ __delitem__ __enter__ __exit__ __bool__ __reduce__ __post_init__
__match_args__ __cause__ __context__ __traceback__ __suppress_context__ __get__ __set__
__delete__ __set_name__ __init_subclass__
""".split())
# Public by the library's documentation, though the module's __all__ leaves them out.
DOCUMENTED = frozenset({"os.PathLike"})
# Modules the documentation does not describe, behind a package that does: a name
# read from one is public only where the package offers it too.
BEHIND = {"json.decoder": "json", "json.encoder": "json", "json.scanner": "json"}


def _python_files() -> list[Path]:
    return sorted(p for p in REPO.rglob("*.py")
                  if not SKIPPED_DIRS & set(p.relative_to(REPO).parts[:1])
                  and "__pycache__" not in p.parts)


def _trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(REPO)): ast.parse(p.read_text(encoding="utf-8"), str(p))
            for p in _python_files()}


TREES = _trees()


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def _own(module: str) -> bool:
    return module == "referee" or module.startswith("referee.") or module == "__future__"


def _defined_here() -> set[str]:
    """Every name referee itself defines: functions, classes, variables, arguments,
    attributes set on ``self`` or ``cls``, slots."""
    names: set[str] = set()
    for tree in TREES.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                      for t in node.targets):
                names.update(c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant))
    return names


DEFINED = _defined_here()


def _offered(module_name: str, name: str) -> bool:
    """Whether ``name`` is public in ``module_name``: no underscore, listed in the
    module's ``__all__`` when it has one, or itself a module."""
    if _private(name):
        return False
    if _dunder(name):
        return name in DATA_MODEL
    if module_name in BEHIND:
        return _offered(BEHIND[module_name], name)
    module = importlib.import_module(module_name)
    listed = getattr(module, "__all__", None)
    if listed is None or name in listed or f"{module_name}.{name}" in DOCUMENTED:
        return True
    try:
        importlib.import_module(f"{module_name}.{name}")
    except ImportError:
        return False
    return True


def _imported_modules(tree: ast.Module) -> dict[str, str]:
    """Local name -> module, for ``import a.b`` (binding ``a``) and ``import a.b as c``."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
    return bound


def _chain(node: ast.Attribute) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None when it does not start at a plain name."""
    parts = [node.attr]
    value = node.value
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    if not isinstance(value, ast.Name):
        return None
    return [value.id, *reversed(parts)]


def _module_attribute_problem(chain: list[str], modules: dict[str, str]) -> str | None:
    """For ``module.a.b``: the first part that is not public in the module it is read from."""
    if chain[0] not in modules or _own(modules[chain[0]]):
        return None
    module = modules[chain[0]]
    for part in chain[1:]:
        if not _offered(module, part):
            return f"{module}.{part}"
        try:
            importlib.import_module(f"{module}.{part}")
        except ImportError:
            return None  # a class or function of a public module: its attributes are its own
        module = f"{module}.{part}"
    return None


def _uses(path: str, tree: ast.Module) -> list[tuple[str, int, str]]:
    """Every use in ``tree`` of a private name of another package: (file, line, name)."""
    found = []
    modules = _imported_modules(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(path, node.lineno, alias.name) for alias in node.names
                      if not _own(alias.name) and any(_private(p) for p in alias.name.split("."))]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and not _own(node.module or ""):
            module = node.module or ""
            if any(_private(p) for p in module.split(".")):
                found.append((path, node.lineno, module))
                continue
            found += [(path, node.lineno, f"{module}.{alias.name}") for alias in node.names
                      if not _offered(module, alias.name)]
        elif isinstance(node, ast.Attribute):
            chain = _chain(node)
            problem = _module_attribute_problem(chain, modules) if chain else None
            if problem:
                found.append((path, node.lineno, problem))
            elif _private(node.attr) and node.attr not in DEFINED:
                found.append((path, node.lineno, node.attr))
            elif _dunder(node.attr) and node.attr not in DATA_MODEL and node.attr not in DEFINED:
                found.append((path, node.lineno, node.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            name = node.args[1].value
            if (_private(name) or (_dunder(name) and name not in DATA_MODEL)) and name not in DEFINED:
                found.append((path, node.lineno, name))
    # Several parts of one chain (a.b._c) are one use.
    return sorted(set(found))


def test_no_private_name_of_another_package_is_used():
    used = [use for path, tree in TREES.items() for use in _uses(path, tree)
            if (use[0], use[2].rsplit(".", 1)[-1]) not in ALLOWED]
    assert used == [], "private names of other packages: " + ", ".join(
        f"{path}:{line} {name}" for path, line, name in used)


def _referee_modules() -> list[str]:
    names = ["referee"]
    for info in pkgutil.walk_packages(referee.__path__, "referee."):
        # __main__ modules run the command line when imported
        if not SKIPPED_DIRS & set(info.name.split(".")[1:2]) and not info.name.endswith(".__main__"):
            names.append(info.name)
    return names


def test_no_class_overrides_a_private_method_of_another_package():
    overrides = []
    for name in _referee_modules():
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not isinstance(cls, type) or cls.__module__ != name:
                continue
            foreign = [base for base in cls.__mro__[1:] if not _own(base.__module__)
                       and base.__module__ != "builtins"]
            overrides += [f"{name}.{cls.__qualname__}.{attr}" for attr, value in vars(cls).items()
                          if _private(attr) and _written_in(value, name)
                          and any(attr in vars(base) for base in foreign)]
    assert overrides == []


def _written_in(value: object, module: str) -> bool:
    """Whether ``value`` is a method (or property) written in ``module``, not an
    attribute that typing or abc put on the class."""
    functions = (value, getattr(value, "__func__", None), getattr(value, "fget", None))
    return any(callable(f) and getattr(f, "__module__", None) == module for f in functions)


def test_each_allowed_private_name_still_exists():
    """The private things referee must reach are still where it reaches them: when a
    release moves one, this fails, not the command that uses it."""
    for why, where in ALLOWED.values():
        module_name, _, attributes = where.partition(":")
        thing = importlib.import_module(module_name)
        for attribute in attributes.split("."):
            assert hasattr(thing, attribute), f"{where} is gone: {why}"
            thing = getattr(thing, attribute)


def test_the_walk_finds_what_it_is_meant_to():
    source = '''
import argparse
import json
import json.decoder
import _sha256
from json.decoder import scanstring
from json.encoder import encode_basestring, JSONEncoder
from lark.lexer import _private_thing
from concurrent.futures import ProcessPoolExecutor

class Mine(argparse.ArgumentParser):
    pass

def f(pool, cls):
    argparse._SubParsersAction
    json.decoder.scanstring
    pool._processes
    getattr(pool, "_processes", None)
    cls.__dataclass_params__
    json.dumps({})
'''
    found = {name for _, _, name in _uses("probe.py", ast.parse(source))}
    assert found == {"_sha256", "json.decoder.scanstring", "lark.lexer._private_thing",
                     "json.encoder.encode_basestring",
                     "argparse._SubParsersAction", "_processes", "__dataclass_params__"}
