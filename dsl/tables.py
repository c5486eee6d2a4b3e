"""The LALR tables of the rules grammar, made once by lark and kept as JSON data.

``referee.dsl.lalr`` parses from ``dsl/parser_tables.json`` without importing lark.
The file is made by lark's LALR analysis of ``grammars/referee.lark``, read through
lark's public API: ``Lark.save`` writes the parser as a pickle of plain data,
which is read back by an unpickler that makes no object of any class (lark 1.2
writes one ``Token``, read as its text). What the runtime needs is kept, in an
order of its own: terminals by name, rules by their content, and states numbered
as a walk from the start states meets them (start rules in name order, then each
state's symbols in name order). Lark numbers its states and symbols in an order
that changes with the interpreter's hash seed and lark's version; this order
does not, so every lark that ``pyproject.toml`` allows makes the same file, byte
for byte, and a test holds the file to the one the installed lark makes. What
``Lark.save`` writes is laid out as lark likes: a lark that lays it out otherwise
is told here (``TablesError``) and fails that test.

The file also holds the grammar text and the parser options it was made from:
when they are not this grammar's and these options, the tables are not used and
lark parses everything, so a stale file costs time and never changes a parse.
Remake it after editing the grammar:

    python -m referee.dsl.tables

A state's row maps each symbol to a number: a state to shift to (0 or more), or
``-1 - i`` to reduce by rule ``i``.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import sys
from typing import TYPE_CHECKING, Any

from referee.dsl.lalr import TABLES

if TYPE_CHECKING:  # lark makes the tables; dsl.lalr parses from them without it
    from lark import Lark

SHIFT, REDUCE = 0, 1  # lark's actions, as Lark.save writes them
# The options dsl.lalr parses with: it builds the trees these ask for and no other.
RUNTIME_OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True,
                   "maybe_placeholders": True, "postlex": None, "lexer_callbacks": {},
                   "g_regex_flags": 0, "use_bytes": False, "regex": False, "tree_class": None,
                   "transformer": None, "keep_all_tokens": False, "edit_terminals": None}


class TablesError(Exception):
    """The parser uses something ``dsl.lalr`` does not do: no tables are made."""


def tables_of(parser: Lark, grammar: str, options: dict[str, Any]) -> dict[str, Any]:
    """The tables of ``parser`` (built from ``grammar`` with ``options``), as kept."""
    buffer = io.BytesIO()
    parser.save(buffer)
    saved = _PlainData(io.BytesIO(buffer.getvalue())).load()
    try:
        return _tables(saved, grammar, options)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise TablesError(f"lark saved its parser in a layout not known here ({exc!r})") from None


def _tables(saved: dict[str, Any], grammar: str, options: dict[str, Any]) -> dict[str, Any]:
    memo, data = saved["memo"], saved["data"]
    _check_supported(data, memo)
    table = data["parser"]["parser"]
    names = table["tokens"]
    rows = {state: {names[token]: action for token, action in actions.items()}
            for state, actions in table["states"].items()}
    rules = _rules(rows, memo)
    numbers = _state_numbers(rows, table["start_states"])
    conf = data["parser"]["lexer_conf"]
    return {
        "made_by": "python -m referee.dsl.tables; do not edit",
        "grammar": grammar,
        "options": options,
        "ignore": sorted(conf["ignore"]),
        "terminals": sorted((_terminal(memo[ref["@"]]) for ref in conf["terminals"]),
                            key=lambda term: term["name"]),
        "rules": [rule for _, rule in rules.values()],
        "start_states": {start: numbers[state] for start, state in sorted(table["start_states"].items())},
        "end_states": {start: numbers[state] for start, state in sorted(table["end_states"].items())},
        "states": [_row(rows[state], numbers, rules) for state in sorted(numbers, key=numbers.__getitem__)],
    }


class _PlainData(pickle.Unpickler):
    """Reads a pickle of plain data (dicts, lists, tuples, text, numbers) and refuses
    every class but lark's ``Token``, which becomes its text."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("lark.lexer", "Token"):
            return lambda _type, value, *_place: str(value)
        raise TablesError(f"lark saved an object of {module}.{name}, not plain data")


def _check_supported(data: dict[str, Any], memo: dict[int, Any]) -> None:
    options = data["options"]
    differ = sorted(k for k, v in RUNTIME_OPTIONS.items() if options.get(k) != v)
    if differ:
        raise TablesError(f"dsl.lalr does not parse with these options: {', '.join(differ)}")
    flagged = sorted(term["name"] for term in memo.values()
                     if term["__type__"] == "TerminalDef" and term["pattern"]["flags"])
    if flagged:
        raise TablesError(f"dsl.lalr does not read terminals with flags: {', '.join(flagged)}")


def _terminal(saved: dict[str, Any]) -> dict[str, Any]:
    pattern = saved["pattern"]
    literal = pattern["__type__"] == "PatternStr"
    return {"name": saved["name"], "priority": saved["priority"],
            "type": "str" if literal else "re", "value": pattern["value"],
            # lark's lexer tries longer terminals first: a regex's longest match
            "max_width": len(pattern["value"]) if literal else pattern["_width"][1]}


def _rule(saved: dict[str, Any]) -> dict[str, Any]:
    options = saved["options"]
    return {"origin": saved["origin"]["name"], "alias": saved["alias"],
            "expansion": [[symbol["name"], symbol["__type__"] == "Terminal",
                           bool(symbol.get("filter_out"))] for symbol in saved["expansion"]],
            "expand1": bool(options["expand1"]), "keep_all_tokens": bool(options["keep_all_tokens"]),
            "empty_indices": [bool(b) for b in options["empty_indices"] or ()],
            "template_source": options["template_source"]}


def _rules(rows: dict[int, dict[str, Any]], memo: dict[int, Any]) -> dict[int, tuple[int, dict[str, Any]]]:
    """Lark's reference of each rule reduced by, with its number and what is kept of
    it: numbered in the order of their text."""
    kept = {action[1]["@"]: _rule(memo[action[1]["@"]])
            for row in rows.values() for action in row.values() if action[0] == REDUCE}
    order = sorted(kept, key=lambda ref: json.dumps(kept[ref], sort_keys=True))
    return {ref: (number, kept[ref]) for number, ref in enumerate(order)}


def _state_numbers(rows: dict[int, dict[str, Any]], starts: dict[str, int]) -> dict[int, int]:
    """Lark's state numbers, renumbered in the order a walk from the start states
    meets them: start rules by name, then each state's symbols by name."""
    numbers: dict[int, int] = {}
    queue = [starts[name] for name in sorted(starts)]
    for state in queue:
        if state in numbers:
            continue
        numbers[state] = len(numbers)
        queue += [target for symbol, (action, target) in sorted(rows[state].items())
                  if action == SHIFT and target not in numbers]
    if len(numbers) != len(rows):
        raise TablesError(f"{len(rows) - len(numbers)} states are not reached from the start")
    return numbers


def _row(row: dict[str, Any], numbers: dict[int, int],
         rules: dict[int, tuple[int, dict[str, Any]]]) -> dict[str, int]:
    return {symbol: numbers[arg] if action == SHIFT else -1 - rules[arg["@"]][0]
            for symbol, (action, arg) in sorted(row.items())}


def tables_text(parser: Lark, grammar: str, options: dict[str, Any]) -> str:
    """The text of ``parser_tables.json`` for ``parser`` (built from ``grammar``)."""
    tables = tables_of(parser, grammar, options)
    return json.dumps(tables, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def main() -> int:
    """Remake ``parser_tables.json`` from the grammar (written whole, then renamed)."""
    from referee.dsl.parser import PARSER_OPTIONS, build_parser, grammar_text

    try:
        text = tables_text(build_parser(), grammar_text(), PARSER_OPTIONS)
    except TablesError as exc:
        print(f"no tables made: {exc}", file=sys.stderr)
        return 1
    temporary = TABLES.with_name(f".{TABLES.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, TABLES)
    print(f"wrote {TABLES} ({len(text)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
