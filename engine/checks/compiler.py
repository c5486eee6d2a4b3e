"""Turns one eval's syntax tree into checks, collecting every static error.

Dispatch goes through two tables, AST node type → compile function, gathered
from the check modules. Regexes and JSONPath queries are compiled here, once;
evaluation never parses anything. A construct with an error still compiles to
something harmless, so compiling goes on and reports all errors of a file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, TypeVar

import regex
from regex import error as RegexError  # in Compiler's signatures `regex` is its method

from referee.dsl import ast
from referee.dsl.errors import Diagnostic, did_you_mean
from referee.dsl.frozen import frozen
from referee.dsl.syntax import SOURCES as SOURCE_WORDS  # the words a selection starts with
from referee.engine.checks import compare, lists, logic, order, quantify, text
from referee.engine.checks.base import Check, CheckCompiler, Context, Expr, ExprCompiler, Polarity
from referee.engine.checks.expr_compilers import VALUE_COMPILERS
from referee.engine.checks.exprs import Const, LetRef
from referee.engine.checks.inputs import Inputs
from referee.engine.checks.run_sources import csv_table, output_place, read_file_text
from referee.engine.checks.jsonpath_names import bracketed, error_at
from referee.engine.checks.sources import Select, compile_selection, refuse_transcript
from referee.engine.checks.static import reads_element
from referee.engine.regexes import Pattern, compile_exact, compile_glob, compile_regex, error_offset, glob_problem
from referee.engine.values import Missing, Prov, Result, Val

CHECK_COMPILERS: dict[type, CheckCompiler] = {
    **compare.CHECK_COMPILERS, **text.CHECK_COMPILERS, **quantify.CHECK_COMPILERS,
    **order.CHECK_COMPILERS, **logic.CHECK_COMPILERS, **lists.CHECK_COMPILERS,
}
VALUES: dict[type, ExprCompiler] = {
    **VALUE_COMPILERS, **lists.VALUE_COMPILERS,
    ast.Selection: lambda c, node, scope: c.selection(node, scope),
}


_ELEMENTS = {"calls": "call", "notes": "note", "rows": "row", "call": "call", "note": "note",
             "row": "row", "lines": "text", "texts": "text", "numbers": "number"}


@frozen
class Scope:
    """Compile-time context: the kind of the current element (None outside
    ``where``/``have``) and the polarity of the enclosing negations."""

    element: str | None = None
    polarity: Polarity = Polarity()

    def flipped(self) -> "Scope":
        return replace(self, polarity=self.polarity.flip())


T = TypeVar("T")


class Compiler:
    """Compiles the lets and checks of one eval; ``diagnostics`` collects errors."""

    def __init__(self, lets: dict[str, tuple[str, ast.Let]], diagnostics: list[Diagnostic],
                 inputs: Inputs | None = None):
        self.path = ""  # the rules file of the statement being compiled (for errors)
        self.inputs = inputs or Inputs("")  # the eval's input files (input "x")
        self.inputs_read: dict[str, str] = {}  # each input file read, as listed: the digest of its text
        self.let_nodes = lets
        self.diagnostics = diagnostics
        self.lets: dict[str, Expr] = {}
        self._active: list[str] = []
        self.oversized: set[str] = set()  # lets too large to compile (reported where defined)
        self._said: set[tuple] = set()  # each error once, though a named condition is compiled per use
        self._selections: dict[tuple, Select] = {}
        self.name_patterns: dict[tuple[str, str, str], Pattern] = {}
        # Set while compiling the operand after one that ended with where/have:
        # (clause, "and"|"or", the parenthesised fix), for the path error message.
        self.ended: tuple[str, str, str] | None = None

    # ----------------------------------------------------------------- errors

    def error(self, code: str, message: str, span: ast.Span, hint: str | None = None,
              line: int | None = None, column: int | None = None) -> None:
        line = span.line if line is None else line
        column = span.column if column is None else column
        # Moved to a character of it (where a regex or a JSONPath query stops being read):
        # one caret.
        end = span.caret_end() if (line, column) == (span.line, span.column) else column + 1
        said = (code, message, self.path, line, column)
        if said not in self._said:
            self._said.add(said)
            self.diagnostics.append(Diagnostic(code, message, self.path, line, column, end, hint))

    # -------------------------------------------------------------- dispatch

    def value(self, node: ast.Value, scope: Scope) -> Expr:
        return VALUES[type(node)](self, node, scope)

    def cond(self, node: ast.Condition, scope: Scope) -> Check:
        return CHECK_COMPILERS[type(node)](self, node, scope)

    def selection(self, node: ast.Selection, scope: Scope) -> Select:
        """The compiled selection; one shared object for selections written alike.

        Sharing lets evaluation select once per run however many assertions use
        the selection. The key pairs the syntax tree (spans do not compare) with
        its canonical text, so values that compare equal in Python but differ in
        the language (``1`` and ``true``) never share.
        """
        self._check_file(node.source)
        compiled = compile_selection(self, node, scope)
        try:
            return self._selections.setdefault((node, compiled.desc), compiled)
        except TypeError:  # a node holding something unhashable: do not share
            return compiled

    def _check_file(self, source: ast.Source) -> None:
        """What every ``file "x"`` operand must be, wherever it stands (a selection,
        ``header(...)``): relative to the run's ``outputs/`` folder (``file
        "outputs/x"`` would read ``outputs/outputs/x``), and not the transcript."""
        if source.kind != "file":
            return
        path = source.path or ""
        # a backslash separates folders here as the reader takes it (safeio.safe_relative):
        # "outputs\\x" read outputs/outputs/x, missing, where the author meant outputs/x
        written = path.replace("\\", "/").lstrip("./")
        if written.startswith("outputs/"):
            self.error("bad-path", f"file paths are relative to the run's outputs/ folder; "
                       f"\"{path}\" would read outputs/{written}", source.span,
                       f"write file \"{written.removeprefix('outputs/')}\"")
        refuse_transcript(self, source)

    def element_scope(self, kind: str, polarity: Polarity | None = None) -> Scope:
        """The scope inside ``where``/``have``: ``kind`` is the kind of the list
        (``calls``) or already the element's (``call``); either way a field of a
        call or a note is checked the same, so ``.stauts`` is caught everywhere."""
        element = _ELEMENTS.get(kind, "any")
        return Scope(element, polarity or Polarity())

    # ------------------------------------------------------------------ lets

    def names(self, name: str, seen: tuple[str, ...] = ()) -> str | None:
        """What let ``name`` names (``value``, ``pattern``, ``condition``); None
        when no let defines it. ``let b = a`` names what ``a`` names."""
        found = self.let_nodes.get(name)
        if found is None:
            return None
        value = found[1].value
        if isinstance(value, ast.NameRef) and value.name in self.let_nodes and name not in seen:
            return self.names(value.name, seen + (name,))
        return found[1].names

    def let(self, name: str, span: ast.Span):
        """A reference to let ``name`` used as a value; compiles the let on first use
        (cycles reported)."""
        if name not in self.let_nodes:
            # A misspelt source (``respons``) parses as a name: suggest sources too.
            self.error("unknown-name", f"unknown name '{name}'", span,
                       did_you_mean(name, [*self.let_nodes, *SOURCE_WORDS]))
            return Const(Val(None))
        kind = self.names(name) or "value"
        if kind != "value":
            self.error("bad-operand", f"'{name}' names a {kind}, not a value", span,
                       _USE[kind].format(name=name))
            return Const(Val(None))
        if self._cycle(name) or name in self.oversized:
            return LetRef(name)
        if name not in self.lets:
            self.lets[name] = self._inside_let(name, lambda node: self.value(node.value, Scope()))
        return LetRef(name, getattr(self.lets[name], "kind", "any"))

    def condition_let(self, name: str, scope: Scope) -> Check:
        """Let ``name``'s condition, compiled where it is used: ``.`` is that place's
        element and ``not`` above it counts."""
        if self._cycle(name) or name in self.oversized:
            return logic.NEVER
        return self._inside_let(name, lambda node: self.cond(_condition(node.value), scope))

    def pattern(self, node: ast.Value | ast.RegexLit, ignore_case: bool, what: str) -> Pattern | None:
        """The compiled regex of a regex literal or of a let name bound to one; after
        reporting, None for anything else (``what`` is the operator, for the message)."""
        if isinstance(node, ast.RegexLit):
            return self.regex(node, ignore_case)
        if isinstance(node, ast.NameRef) and self.names(node.name) == "pattern":
            return self._inside_let(node.name, lambda let: self.pattern(let.value, ignore_case, what))
        self.error("bad-operand", f"'{what}' needs a regex literal such as /^a+$/ or a let name "
                   "bound to one; for plain text use 'contains'", node.span)
        return None

    def _cycle(self, name: str) -> bool:
        """True (after reporting) when let ``name`` is being compiled already."""
        if name not in self._active:
            return False
        cycle = self._active[self._active.index(name):] + [name]
        path, start = self.let_nodes[name]
        outer, self.path = self.path, path
        self.error("name-cycle", "let names refer to each other in a cycle: "
                   + " -> ".join(cycle), start.span)
        self.path = outer
        return True

    def at_path(self, path: str | None, build: Callable[[], T]) -> T:
        """``build()`` with errors placed in the rules file ``path`` (None: here)."""
        outer, self.path = self.path, path or self.path
        try:
            return build()
        finally:
            self.path = outer

    def _inside_let(self, name: str, build):
        """``build(let node)`` with errors placed in the let's file."""
        self._active.append(name)
        outer, (self.path, node) = self.path, self.let_nodes[name]
        try:
            return build(node)
        finally:
            self.path = outer
            self._active.pop()

    def compile_lets(self) -> dict[str, Expr]:
        """Every value let compiled once; patterns and conditions checked once here
        (a condition with a ``.`` as inside ``where``), so an unused one's mistakes
        are reported too."""
        for name, (_, node) in self.let_nodes.items():
            if name in self.oversized:
                continue
            kind = self.names(name)
            if kind == "value":
                self.let(name, node.span)
            elif kind == "pattern":
                self.pattern(ast.NameRef(name, node.span), False, "let")
            else:
                relative = reads_element(_condition(node.value))
                self.condition_let(name, self.element_scope("any") if relative else Scope())
        return self.lets

    # --------------------------------------------------------- regex, jsonpath

    def regex(self, node: ast.RegexLit, ignore_case: bool = False) -> Pattern | None:
        try:
            return compile_regex(node.pattern, node.flags, ignore_case)
        except regex.error as err:
            self._regex_error(node.pattern, node.span, err)
            return None

    def name_pattern(self, node: ast.NamePattern) -> Pattern | None:
        """The compiled tool-name pattern, one object per pattern text: the critique
        and ``check --workspace`` match names with the very object selections use
        (``name_patterns``)."""
        key = (node.kind, node.text, node.flags)
        if key in self.name_patterns:
            return self.name_patterns[key]
        if node.kind == "glob":
            problem = glob_problem(node.text)
            if problem:
                self.error("bad-glob", f'glob "{node.text}": {problem[0]}', node.span, problem[1])
                return None
            compiled = compile_glob(node.text)
        elif node.kind == "exact":
            compiled = compile_exact(node.text)
        else:
            try:
                compiled = compile_regex(node.text, node.flags)
            except regex.error as err:
                self._regex_error(node.text, node.span, err)
                return None
        self.name_patterns[key] = compiled
        return compiled

    def _regex_error(self, pattern: str, span: ast.Span, err: RegexError) -> None:
        # types-regex declares only the constructor of regex.error; regex sets pos and
        # msg on every error it raises.
        pos: int | None = err.pos  # type: ignore[attr-defined]
        message: str = err.msg  # type: ignore[attr-defined]
        # The pattern as written has `\/` where the parsed one has `/`.
        if pos is not None:
            pos += pattern[:pos].count("/")
        lines, col = error_offset(pattern.replace("/", "\\/"), pos)
        line, column = span.line + lines, (span.column + 1 + col if lines == 0 else col + 1)
        self.error("bad-regex", f"invalid regex /{pattern}/: {message}", span, line=line,
                   column=column)

    def jsonpath(self, query: str, span: ast.Span):
        if _has_regex_operator(query):
            self.error("jsonpath-regex", "'=~' is not allowed inside a jsonpath query; select "
                       "with jsonpath and test the text with the language's 'matches' operator",
                       span, "write: any jsonpath(x, \"$..name\") where . matches /re/")
            return None
        # Loaded for the first query (with its logging and ply, about 10 ms): most
        # rules files have none.
        from jsonpath_ng.ext import parse as parse_jsonpath

        try:
            return parse_jsonpath(query)
        except Exception as err:  # jsonpath-ng raises many unrelated exception types
            written = bracketed(query, parse_jsonpath)
            hint = (f"jsonpath-ng reads a bare name of ASCII letters, digits, _ and - only; quote "
                    f"others, in brackets after '.': did you mean {written}?") if written else None
            message = _first_line(err)
            self.error("bad-jsonpath", f"invalid jsonpath {query!r}: {message}", span, hint,
                       column=_query_column(span, query, error_at(message, query)))
            return None

    # ---------------------------------------------------------------- header

    def header(self, node: ast.FuncCall, scope: Scope):
        arg = node.args[0]
        if isinstance(arg, ast.Selection):
            self._check_file(arg.source)
        if not (isinstance(arg, ast.Selection) and arg.source.kind == "file"
                and arg.source.fmt == "csv" and not arg.filters):
            self.error("bad-operand", "header() takes a CSV file: header(file \"x.csv\" as csv)",
                       node.span)
            return Const(Val(None))
        return HeaderExpr(arg.source.path or "")


@frozen
class HeaderExpr:
    """``header(file "x" as csv)``: the column names of the file's first row."""

    path: str
    kind: str = "list"

    def eval(self, ctx: Context) -> Result:
        text = read_file_text(ctx, self.path)
        if text is None:
            return Missing(f"file {self.path} does not exist")
        names, line, _ = csv_table(text, Prov("outputs", self.path, output_place(self.path)))
        prov = Prov("outputs", f"header of {self.path}", output_place(self.path), line)
        return Val(names, prov)


_USE = {"pattern": "a pattern goes after 'matches': `x matches {name}`",
        "condition": "a condition stands where a condition goes: `any calls have {name}`"}


def _condition(node: Any) -> ast.Condition:
    """A let's condition; ``let b = a`` (a name bound to a condition) is ``a`` as one."""
    return ast.Truthy(node, node.span) if isinstance(node, ast.NameRef) else node


def _has_regex_operator(query: str) -> bool:
    """True when ``=~`` appears outside the quoted strings of a jsonpath query."""
    quote = None
    for i, char in enumerate(query):
        if quote:
            quote = None if char == quote and query[i - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif query.startswith("=~", i):
            return True
    return False


def _query_column(span: ast.Span, query: str, offset: int | None) -> int | None:
    """The column of the query's character at ``offset`` in a string literal at ``span``
    written as the query reads (one line, no escape: its width is the query's and two
    quotes), so a caret can stand under it; None (the whole literal) otherwise."""
    written_plainly = span.line == span.end_line and span.end_column - span.column == len(query) + 2
    return span.column + 1 + offset if offset is not None and written_plainly else None


def _first_line(err: Exception) -> str:
    """The first line of a dependency's message, with each character a reader cannot see
    (a zero-width space the query holds, which the lexer quotes raw) escaped as ``repr``
    escapes it, as the query itself is shown beside it."""
    text = str(err).strip() or type(err).__name__
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text.splitlines()[0])
