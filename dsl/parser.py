"""Parse rules text into ``dsl.ast`` trees, reporting every mistake of a file.

A rules file is read statement by statement: a statement starts at the word
``eval``, ``let`` or ``expect`` (reserved words, so they can start nothing else).
Each statement is parsed on its own, so a syntax error in one does not hide the
errors of the next; positions are shifted back to the whole file.

A statement is parsed by ``dsl.lalr`` from the saved LALR tables, without lark;
one it refuses is parsed again by lark's parser, built from the grammar, whose
exception the diagnostic explains.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from referee.dsl import ast, lalr
from referee.dsl.errors import Diagnostic, RulesError, line_col, line_of, lone_cr_ended
from referee.dsl.syntax import Explainer, Terminals, strip_comments
from referee.dsl.located import Located
from referee.dsl.transform import EvalHeader, ToAst, _is_tree

if TYPE_CHECKING:
    from lark import Lark, Tree

BOM = "\ufeff"
STARTS = ("start", "eval_header", "let_stmt", "expect_stmt", "condition", "value")
# Just enough of a tokenizer to find statement keywords: strings (even unterminated),
# comments, regexes, fields and numbers are skipped whole, so a keyword inside them
# does not count.
_TOKEN = re.compile(r'''"(?:[^"\\\n]|\\[^\n])*"?|\#[^\n]*|/(?:[^/\\\n]|\\[^\n])+/|\.[A-Za-z_][A-Za-z0-9_]*
                    |[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.]*|.''', re.VERBOSE | re.DOTALL)
_START_OF = {"eval": "eval_header", "let": "let_stmt", "expect": "expect_stmt"}

# Common mistakes, recognised by the parser state they leave (match_examples).
# Label: "message|hint".
_EXAMPLES = {
    "expect_stmt": {
        "missing ':' before the check|write `expect 1: <check>`": [
            "expect 1 count(calls) == 1",
            "expect 1 \"sentence\" response contains \"x\"",
            "expect 1 response is not empty",
        ],
        "'have' needs a selection before it|write `any calls have <condition>`": [
            "expect 1: have .a == 1",
            "expect 1: any have .a == 1",
            "expect 1: all have .a == 1",
        ],
        "a check is missing after ':'|write a condition after ':', or drop the ':'": [
            "expect 1:",
            "expect \"s\":",
        ],
    },
    "let_stmt": {
        "missing '=' after the name|write `let name = <value>`": [
            "let a calls", "let a == 1",
        ],
    },
}


@functools.cache
def grammar_text() -> str:
    """The text of ``grammars/referee.lark`` (package data, found in a wheel too)."""
    return importlib.resources.files("referee.grammars").joinpath("referee.lark").read_text("utf-8")


PARSER_OPTIONS = {"parser": "lalr", "lexer": "contextual", "start": list(STARTS),
                  "propagate_positions": True, "maybe_placeholders": True}


@functools.cache
def lark_parser() -> Lark:
    """Lark's LALR parser, built from ``grammars/referee.lark`` once per process: it
    explains syntax errors, and parses everything when ``quick_parser`` is None."""
    return build_parser()


def build_parser() -> Lark:
    """The LALR parser built from ``grammars/referee.lark`` (its analysis included)."""
    from lark import Lark

    return Lark(grammar_text(), **PARSER_OPTIONS)


@functools.cache
def quick_parser() -> lalr.Runtime | None:
    """The parser of ``dsl.lalr``, which parses from the tables kept in
    ``dsl/parser_tables.json`` without importing lark, when they were made from this
    grammar (see ``referee.dsl.tables``); else None. What it cannot parse, lark
    parses (for the error it raises)."""
    return lalr.load(grammar_text(), PARSER_OPTIONS)


@functools.cache
def _terminals() -> Terminals:
    return Terminals(quick_parser() or lark_parser())  # the same terminals


def parse_rules(text: str, path: str = "<rules>") -> ast.RulesFile:
    """Parse a whole rules file. Raises ``RulesError`` carrying every error found."""
    tree, diagnostics = parse_rules_partial(text, path)
    if diagnostics:
        raise RulesError(diagnostics)
    return tree


def parse_rules_partial(text: str, path: str = "<rules>") -> tuple[ast.RulesFile, list[Diagnostic]]:
    """Parse what can be parsed: the tree of every statement that parsed, and the
    errors of the others. ``referee check`` compiles this tree too, so a file's
    static errors are reported alongside its syntax errors. A leading UTF-8 byte
    order mark (some editors save one) is not part of the text."""
    # A lone carriage return ends a line (old Mac editors), as everywhere a file's lines
    # are counted (engine.text.file_lines): read as a line feed, one character for
    # another, so every offset and column stays the file's own.
    text = lone_cr_ended(text.removeprefix(BOM))
    diagnostics: list[Diagnostic] = []
    items = []
    # The lines before each statement, counted on from the previous one: counting from
    # the start of the file for each would take time in the square of its length.
    lines_before, counted_to = 0, 0
    for start, offset, fragment in split_statements(text):
        if start is None:
            diagnostics.append(_stray(text, path, offset, fragment))
            continue
        lines_before += text.count("\n", counted_to, offset)
        counted_to = offset
        node, found = _parse_fragment(text, path, offset, fragment, _START_OF[start], lines_before)
        diagnostics += found
        if node is None and start == "eval":
            # Keep the statements that follow inside an eval, so a broken header
            # is reported once and not again as "expect before any eval".
            node = EvalHeader(f"\0{offset}", None, ast.NO_SPAN)
        if node is None and start == "let":
            node = _unparsed_let(fragment)
        if node is not None:
            items.append(node)
    return assemble(items, text, path, diagnostics), diagnostics


def parse_condition(text: str, path: str = "<check>") -> ast.Condition:
    """Parse one check expression (what follows ``expect ...:``)."""
    return _parse_one(text, path, "condition")


def parse_value(text: str, path: str = "<value>") -> ast.Value:
    """Parse one value expression (what follows ``let name =``)."""
    return _parse_one(text, path, "value")


def _parse_one(text: str, path: str, start: str):
    node, diagnostics = _parse_fragment(text, path, 0, text, start)
    if diagnostics:
        raise RulesError(diagnostics)
    return node


# ----------------------------------------------------------------- fragments


def split_statements(text: str) -> list[tuple[str | None, int, str]]:
    """``(keyword, line_start, fragment)`` per statement. A statement starts at the
    reserved word ``eval``, ``let`` or ``expect`` wherever it stands (outside strings,
    comments and regexes). The fragment is padded with spaces back to the start of
    its line, so Lark's columns are the file's. Keyword None marks text before the
    first statement that is not blank or a comment."""
    starts = [(m.start(), m.group()) for m in _TOKEN.finditer(text)
              if m.group() in _START_OF]
    head_end = starts[0][0] if starts else len(text)
    pieces: list[tuple[str | None, int, str]] = []
    if strip_comments(text[:head_end]).strip():
        pieces.append((None, 0, text[:head_end]))
    for i, (pos, word) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        line_start = text.rfind("\n", 0, pos) + 1
        pieces.append((word, line_start, " " * (pos - line_start) + text[pos:end]))
    return pieces


MAX_NESTING = 100
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")


def _too_deep(fragment: str) -> int | None:
    """The offset in ``fragment`` where nesting passes ``MAX_NESTING``, or None.

    Brackets and chains of ``not`` both nest the tree, and every later stage walks
    it recursively: a limit here keeps a hostile file from exhausting the stack."""
    if _nesting_bound(fragment) <= MAX_NESTING:
        return None
    depth, nots = 0, 0
    for match in _TOKEN.finditer(fragment):
        token = match.group()
        if token == "not":
            nots += 1
        elif token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth = max(0, depth - 1)
        elif not token.isspace():
            nots = 0
        if depth + nots > MAX_NESTING:
            return match.start()
    return None


# A quantifier or a filter nests the tree without a bracket (`any calls have any
# calls have ...`), which ``_too_deep`` does not see. A level of nesting takes a few
# nodes of the parse tree (an object's pair and value, a `have` and its clause), so
# this bounds the tree's depth well above any statement within ``MAX_NESTING``
# levels, and below what the recursive transformer and compiler can walk.
MAX_TREE_DEPTH = 3 * MAX_NESTING


def _tree_too_deep(tree: Any) -> int | None:
    """The offset in the fragment of the first node of ``tree`` deeper than
    ``MAX_TREE_DEPTH``, or None. Walked with a stack of its own, not recursively."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            return node.meta.start_pos
        stack.extend((c, depth + 1) for c in reversed(node.children) if _is_tree(c))
    return None


def _nesting_bound(fragment: str) -> int:
    """A bound the nesting ``_too_deep`` finds never passes: each open bracket and
    each ``not`` it counts is one of these characters or substrings. Most statements
    are far below the limit, and counting is much cheaper than tokenizing."""
    return sum(fragment.count(c) for c in _OPEN) + fragment.count("not")


def _parse_fragment(text: str, path: str, offset: int, fragment: str, start: str,
                    line_offset: int | None = None) -> tuple[Any, list[Diagnostic]]:
    """Parse ``fragment`` (found at ``offset`` of ``text``, after ``line_offset`` lines
    when the caller counted them) from rule ``start``."""
    if line_offset is None:
        line_offset = text.count("\n", 0, offset)
    deep = _too_deep(fragment)
    if deep is not None:
        return None, [_nested_too_deeply(text, path, offset + deep)]
    where = Located(text, path, line_offset, offset)
    tree = _quick_tree(fragment, start)
    deep = _tree_too_deep(tree) if tree is not None else None
    if deep is not None:
        return None, [_nested_too_deeply(text, path, offset + deep)]
    if tree is None:  # lark parses it, and raises the error the diagnostic explains
        from lark.exceptions import UnexpectedInput

        try:
            tree = lark_parser().parse(fragment, start=start)
        except UnexpectedInput as exc:
            at_end = offset + len(fragment) >= len(text)
            end_name = "end of file" if at_end or start in ("condition", "value") else \
                "end of statement"
            explain = Explainer(_terminals(), text, path,
                                line_offset, end_name, _EXAMPLES.get(start, {}),
                                _reparser(start))
            return None, [explain.diagnostic(exc, fragment)]
    node = ToAst(where, frozenset(_terminals().keywords)).transform(tree)
    return node, where.diagnostics


def _quick_tree(fragment: str, start: str) -> Any:
    """The tree of ``dsl.lalr``, or None where it did not parse (or failed): lark's
    answer then decides."""
    quick = quick_parser()
    if quick is None:
        return None
    try:
        return quick.parse(fragment, start)
    except Exception:  # a fault of the quick runtime must cost time, never a result
        return None


def _nested_too_deeply(text: str, path: str, pos: int) -> Diagnostic:
    line, column = line_col(text, pos)
    return Diagnostic("too-deep", f"nested more than {MAX_NESTING} levels deep", path, line,
                      column, column + 1, "name inner parts with `let` to flatten the check",
                      line_of(text, line))


def _unparsed_let(fragment: str) -> ast.Let | None:
    """A ``let`` whose value did not parse still binds its name (to null), so the
    statements that use it are not also reported as naming an unknown value."""
    found = re.match(r"\s*let\s+([A-Za-z_][A-Za-z0-9_]*)", fragment)
    return ast.Let(found.group(1), ast.Literal(None)) if found else None


def _reparser(start: str) -> Callable[[str], Tree]:
    return lambda src: lark_parser().parse(src, start=start)


def _stray(text: str, path: str, offset: int, fragment: str) -> Diagnostic:
    """Text before the first statement that is not a comment."""
    body = strip_comments(fragment)
    pos = offset + len(body) - len(body.lstrip())
    line, column = line_col(text, pos)
    word = body.split()[0] if body.split() else ""
    return Diagnostic("syntax", f"unexpected '{word[:30]}': a rules file starts with "
                      "'eval'", path, line, column, column + max(1, len(word)),
                      "write `eval 1` (the eval id) before its expects", line_of(text, line))


# ------------------------------------------------------------------ assembly


def assemble(items: list, text: str, path: str, diagnostics: list[Diagnostic]) -> ast.RulesFile:
    """Group statements under their ``eval`` and check names and indexes are unique."""
    blocks: list[list] = []
    for item in items:
        if isinstance(item, EvalHeader):
            blocks.append([item])
        elif not blocks:
            diagnostics.append(_at(item.span, "no-eval", f"'{_word(item)}' before any "
                               "'eval': every let and expect belongs to an eval",
                               text, path, "start the file with `eval 1` (the eval id)"))
        else:
            blocks[-1].append(item)
    evals = tuple(_block(b, text, path, diagnostics) for b in blocks)
    _unique([(_show(e.key), e.span) for e in evals], "duplicate-eval",
            "eval {} appears twice in this file", text, path, diagnostics)
    end_line, end_col = line_col(text, len(text))
    return ast.RulesFile(path, evals, ast.Span(1, 1, end_line, end_col, 0, len(text)))


def _block(items: list, text: str, path: str, diagnostics: list) -> ast.EvalBlock:
    header, body = items[0], items[1:]
    lets = tuple(s for s in body if isinstance(s, ast.Let))
    expects = tuple(s for s in body if isinstance(s, ast.Expect))
    _unique([(s.name, s.span.head(len("let"))) for s in lets], "duplicate-let",
            "let {} is defined twice in this eval", text, path, diagnostics)
    _unique([(s.index, s.span.head(len("expect"))) for s in expects if s.index is not None],
            "duplicate-expect",
            "expect {} appears twice in this eval", text, path, diagnostics)
    last = body[-1].span if body else header.span
    span = replace(header.span, end_line=last.end_line, end_column=last.end_column,
                   end_pos=last.end_pos)
    return ast.EvalBlock(header.key, header.name, lets, expects, span)


def _unique(keyed: list[tuple[Any, ast.Span]], code: str, message: str, text: str, path: str,
            diagnostics: list[Diagnostic]) -> None:
    seen: dict = {}
    for key, span in keyed:
        if key in seen:
            first = seen[key]
            diagnostics.append(_at(span, code, message.format(key), text, path,
                                   f"the first one is on line {first.line}"))
        else:
            seen[key] = span


def _show(key: str | int) -> str:
    return str(key) if isinstance(key, int) or str(key).isdigit() else f"\"{key}\""


def _word(item: ast.Let | ast.Expect) -> str:
    return "let" if isinstance(item, ast.Let) else "expect"


def _at(span: ast.Span, code: str, message: str, text: str, path: str,
        hint: str | None = None) -> Diagnostic:
    end = span.caret_end()
    return Diagnostic(code, message, path, span.line, span.column, end, hint,
                      line_of(text, span.line))
