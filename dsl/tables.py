"""The LALR tables of the rules grammar, made once and kept as JSON data.

Building the parser from ``grammars/referee.lark`` (the LALR analysis) takes most
of the start-up of ``referee check``; loading the same tables from
``dsl/parser_tables.json`` takes a tenth of it. The tables are used only when
they were made from this very grammar text, with these parser options, by this
version of lark; otherwise the parser is built from the grammar, as before, so a
stale file costs time and never changes a parse. Remake it after editing the
grammar:

    python -m referee.dsl.tables

``referee.dsl.lalr`` parses from the same file without importing lark (``referee
check`` on a short file then never loads lark); lark's parser, loaded from it
here, is still what explains a syntax error.

The file is data, never code (lark's own cache is a pickle): JSON, with tuples
written ``{"~t": [...]}`` and dicts whose keys are not all text ``{"~d": [[k, v], ...]}``.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:  # the builtin module; hashlib would load OpenSSL for one digest
    from _sha256 import sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - a Python without it
    from hashlib import sha256

if TYPE_CHECKING:  # lark is imported by what builds or loads a lark parser, not here:
    from lark import Lark  # dsl.lalr parses from these tables without it

TABLES = Path(__file__).with_name("parser_tables.json")


def fingerprint(grammar: str, options: dict[str, Any]) -> str:
    """What the tables depend on: the grammar, the parser options and lark's version."""
    import lark

    return fingerprint_of(grammar, options, lark.__version__)


def fingerprint_of(grammar: str, options: dict[str, Any], lark_version: str) -> str:
    """``fingerprint`` for a version of lark given as text."""
    key = repr((grammar, sorted(options.items()), lark_version))
    return sha256(key.encode("utf-8")).hexdigest()


def saved_parser(grammar: str, options: dict[str, Any]) -> Lark | None:
    """The parser loaded from ``parser_tables.json``, or None when that file is missing,
    unreadable, or was made from another grammar, other options or another lark."""
    try:
        saved = json.loads(TABLES.read_text(encoding="utf-8"), object_hook=_decoded)
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("fingerprint") != fingerprint(grammar, options):
        return None
    parser = _loaded_class()._load_from_dict(saved["data"], saved["memo"])
    parser.grammar_text = grammar
    # Made by this very lark (the fingerprint says so), so its lexers are the ones
    # dsl.scan knows how to give quick scanners.
    from referee.dsl.scan import install

    install(parser)
    return parser


@functools.cache
def _loaded_class() -> Any:
    """The class of a lark parser loaded from tables, made when first needed."""
    from lark import Lark

    class _Loaded(Lark):
        """A parser loaded from tables. Parsing needs only the tables; the grammar's own
        rules (``grammar``, which generators of rules such as hypothesis.extra.lark read)
        are read from the grammar text when first asked for."""

        grammar_text: str

        @functools.cached_property
        def grammar(self) -> Any:  # type: ignore[override]
            from lark.load_grammar import load_grammar

            return load_grammar(self.grammar_text, "<grammar>", self.options.import_paths,
                                self.options.keep_all_tokens)[0]

    return _Loaded


def tables_text(parser: Lark, grammar: str, options: dict[str, Any]) -> str:
    """The text of ``parser_tables.json`` for ``parser`` (built from ``grammar``)."""
    import lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    saved = {"made_by": f"python -m referee.dsl.tables (lark {lark.__version__}); do not edit",
             "fingerprint": fingerprint(grammar, options), "data": _encoded(data), "memo": _encoded(memo)}
    return json.dumps(saved, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def _encoded(value: Any) -> Any:
    if isinstance(value, tuple):
        return {"~t": [_encoded(v) for v in value]}
    if isinstance(value, list):
        return [_encoded(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not {"~t", "~d"} & set(value):
            return {k: _encoded(v) for k, v in value.items()}
        return {"~d": [[_encoded(k), _encoded(v)] for k, v in value.items()]}
    return value


def _decoded(value: dict) -> Any:
    if len(value) == 1 and "~t" in value:
        return tuple(value["~t"])
    if len(value) == 1 and "~d" in value:
        return {key: item for key, item in value["~d"]}
    return value


def main() -> None:
    """Remake ``parser_tables.json`` from the grammar (written whole, then renamed)."""
    from referee.dsl.parser import PARSER_OPTIONS, build_parser, grammar_text

    text = tables_text(build_parser(), grammar_text(), PARSER_OPTIONS)
    temporary = TABLES.with_name(f".{TABLES.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, TABLES)
    print(f"wrote {TABLES} ({len(text)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
