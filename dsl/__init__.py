"""The assertion language: parse rules into a syntax tree, print it back, load evals.json.

Two-way front door::

    tree = dsl.parse_rules(text, "rules/x.rules")   # raises dsl.RulesError (all errors)
    text = dsl.format_rules(tree)                   # canonical; parses back to an equal tree

``RulesError.diagnostics`` lists ``Diagnostic`` objects; ``dsl.errors.render`` prints one.
"""

from referee.dsl.errors import Diagnostic, RulesError, render, suggest
from referee.dsl.evals_json import EvalEntry, EvalsFile, load_evals
from referee.dsl.format import format_condition, format_rules, format_value
from referee.dsl.parser import parse_condition, parse_rules, parse_value

__all__ = [
    "parse_rules", "parse_condition", "parse_value",
    "format_rules", "format_condition", "format_value",
    "RulesError", "Diagnostic", "render", "suggest",
    "load_evals", "EvalsFile", "EvalEntry",
]
