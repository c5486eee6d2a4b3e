"""The assertion language: parse rules into a syntax tree, print it back, load evals.json.

Two-way front door::

    tree = dsl.parse_rules(text, "rules/x.rules")   # raises dsl.RulesError (all errors)
    text = dsl.format_rules(tree)                   # canonical; parses back to an equal tree

``RulesError.diagnostics`` lists ``Diagnostic`` objects; ``dsl.errors.render`` prints one.

The names below are loaded on first use: importing one module of the package
(``referee.dsl.errors``, ``referee.dsl.ast``) runs this file too, and it must not
bring the parser (lark) and the evals.json loader along with it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.dsl.errors import Diagnostic, RulesError, render, suggest
    from referee.dsl.evals_json import EvalEntry, EvalsFile, load_evals
    from referee.dsl.format import format_condition, format_rules, format_value
    from referee.dsl.parser import parse_condition, parse_rules, parse_value

# Each public name and the module of the package that defines it.
_HOME = {
    "parse_rules": "parser", "parse_condition": "parser", "parse_value": "parser",
    "format_rules": "format", "format_condition": "format", "format_value": "format",
    "RulesError": "errors", "Diagnostic": "errors", "render": "errors", "suggest": "errors",
    "load_evals": "evals_json", "EvalsFile": "evals_json", "EvalEntry": "evals_json",
}

# The modules that importing the package used to load, still reachable as
# attributes (``dsl.errors.render``).
_MODULES = frozenset(("ast", "decode", "errors", "evals_json", "format", "json_locate",
                      "parser", "syntax", "transform"))

__all__ = [
    "parse_rules", "parse_condition", "parse_value",
    "format_rules", "format_condition", "format_value",
    "RulesError", "Diagnostic", "render", "suggest",
    "load_evals", "EvalsFile", "EvalEntry",
]


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return import_module(f"referee.dsl.{name}")
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'referee.dsl' has no attribute {name!r}")
    value = getattr(import_module(f"referee.dsl.{home}"), name)
    globals()[name] = value  # found once; later reads do not come here
    return value
