"""Lark parse tree → frozen syntax-tree nodes (``dsl.ast``), one method per rule name.

Problems that the grammar cannot see (a bad escape in a string, ``01``, a regex flag
outside ``imsx``) are collected as diagnostics instead of raised, so one pass reports
all of them; the node is still built with a harmless placeholder value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from referee.dsl import ast
from referee.dsl.decode import Decoding
from referee.dsl.errors import did_you_mean
from referee.dsl.located import Located
from referee.dsl.object_keys import repeated_keys

if TYPE_CHECKING:
    from lark import Token

FILE_FORMATS = ("text", "json", "csv", "lines")
KNOWN_STATUSES = ("success", "error")
_IGNORING_CASE = object()  # marker returned by the ``ignoring_case`` rule


def _is_tree(value: Any) -> bool:
    """A parse tree node (lark's or dsl.lalr's), not a token, None or a built node."""
    return hasattr(value, "data") and hasattr(value, "children") and hasattr(value, "meta")


# Small factories of rule methods, for rules that differ by one word only.

def _source(kind: str) -> Callable[[ToAst, Any, list], ast.Source]:
    def method(self: ToAst, meta: Any, _children: list) -> ast.Source:
        return ast.Source(kind, span=self.at.span(meta))
    return method


def _text_test(op: str) -> Callable[[ToAst, Any, list], ast.TextTest]:
    def method(self: ToAst, meta: Any, children: list) -> ast.TextTest:
        return ast.TextTest(op, children[0], children[1], _ignoring(children),
                            self.at.span(meta))
    return method


def _quantifier(word: str) -> Callable[[ToAst, Any, list], ast.Quantified]:
    def method(self: ToAst, meta: Any, children: list) -> ast.Quantified:
        condition = children[1] if len(children) > 1 else None
        return ast.Quantified(word, None, children[0], condition, self.at.span(meta))
    return method


class ToAst(Decoding):
    """Builds ``dsl.ast`` nodes. Rule names here are the names in referee.lark.

    ``transform`` walks a parse tree as a lark ``Transformer`` with
    ``v_args(meta=True)`` walks it (children first, then the method named by the
    rule, called with the rule's meta and its children), without importing lark:
    the tree is lark's or ``dsl.lalr``'s, which are alike."""

    def __init__(self, where: Located, reserved: frozenset[str] = frozenset()):
        self.at = where
        self.reserved = reserved

    def transform(self, tree: Any) -> Any:
        children = [self.transform(c) if _is_tree(c) else c for c in tree.children]
        method = getattr(type(self), tree.data, None)
        if method is None:  # a rule without a method stays a tree, as in lark
            return type(tree)(tree.data, children, tree.meta)
        return method(self, tree.meta, children)

    def check_name(self, token: Token) -> str:
        """A let name or name reference; reserved words are refused everywhere, even
        where the contextual lexer let one through as a name, so a word means one
        thing in the whole language."""
        name = str(token)
        if name == "have":  # `have` alone as a check: the selection was left out
            self.at.error("syntax", "'have' needs a selection before it", token,
                          "write `any calls have <condition>`")
        elif name in self.reserved:
            self.at.error("reserved-word", f"'{name}' is a reserved word and cannot be a "
                          "name", token, f"choose another name, e.g. '{name}_value'")
        return name

    # ------------------------------------------------------------- literals

    def string(self, meta, children):
        return ast.Literal(self.decode_string(children[0]), self.at.span(meta))

    def number(self, meta, children):
        return ast.Literal(self.decode_number(children[0]), self.at.span(meta))

    def true(self, meta, _):
        return ast.Literal(True, self.at.span(meta))

    def false(self, meta, _):
        return ast.Literal(False, self.at.span(meta))

    def null(self, meta, _):
        return ast.Literal(None, self.at.span(meta))

    def array(self, meta, children):
        return ast.ArrayLit(tuple(c for c in children if c is not None), self.at.span(meta))

    def object(self, meta, children):
        pairs = [c for c in children if c is not None]
        # A key that is a bad string reads as '' and was reported: not one key twice
        read = [(key, token) for key, _, token in pairs if token is not None]
        for index, message, hint in repeated_keys([key for key, _ in read]):
            self.at.error("duplicate-key", message, read[index][1], hint)
        items = tuple((key, value) for key, value, _ in pairs)
        return ast.ObjectLit(items, self.at.span(meta))

    def pair(self, meta, children):
        """(key, value, the key's token; None when the key was reported as a bad string)."""
        reported = len(self.at.diagnostics)
        key = self.decode_string(children[0])
        return (key, children[1], children[0] if len(self.at.diagnostics) == reported else None)

    def regex(self, meta, children):
        pattern, flags = self.decode_regex(children[0])
        return ast.RegexLit(pattern, flags, self.at.span(meta))

    # --------------------------------------------------------------- values

    def name_ref(self, meta, children):
        return ast.NameRef(self.check_name(children[0]), self.at.span(meta))

    def func_call(self, meta, children):
        name = str(children[0])
        args = tuple(c for c in children[1:] if c is not None)
        span = self.at.span(meta)
        if name == "jsonpath":
            built = _jsonpath(args, span)
            if built is not None:
                return built
        # A malformed jsonpath(...) stays a call: the compiler reports its arity.
        return ast.FuncCall(name, args, span)

    def path(self, meta, children):
        return ast.PathExpr(children[0], tuple(children[1:]), self.at.span(meta))

    def relative_path(self, meta, children):
        head, rest = children[0], children[1:]
        fields = tuple(rest)
        if head.type == "FIELD":
            fields = (ast.Field(str(head)[1:], self.at.span(head)),) + fields
        return ast.PathExpr(None, fields, self.at.span(meta))

    def where_list(self, meta, children):
        return ast.Filtered(children[0], children[1], self.at.span(meta))

    def field_access(self, meta, children):
        return ast.Field(str(children[0])[1:], self.at.span(meta))

    def key_access(self, meta, children):
        return ast.Field(self.decode_string(children[0]), self.at.span(meta))

    def index_access(self, meta, children):
        index = self.whole_number(children[0], "a list index")
        return ast.Field(index or 0, self.at.span(meta))

    # ----------------------------------------------------------- selections

    def selection(self, meta, children):
        return ast.Selection(children[0], tuple(children[1:]), self.at.span(meta))

    src_calls = _source("calls")
    src_notes = _source("notes")
    src_harness = _source("harness")
    src_response = _source("response")
    src_outputs = _source("outputs")
    src_metrics = _source("metrics")
    src_timing = _source("timing")
    src_metadata = _source("metadata")

    def src_file(self, meta, children, kind: str = "file"):
        path = self.decode_string(children[0])
        fmt = "text"
        if len(children) > 1 and children[1] is not None:
            fmt = str(children[1])
            if fmt not in FILE_FORMATS:
                self.at.error("bad-format", f"unknown file format '{fmt}'; use one of "
                              + ", ".join(FILE_FORMATS), children[1],
                              did_you_mean(fmt, FILE_FORMATS))
                fmt = "text"
        return ast.Source(kind, path, fmt, self.at.span(meta))

    def src_input(self, meta, children):
        return self.src_file(meta, children, "input")

    def to_filter(self, meta, children):
        return ast.ToolFilter(children[0], self.at.span(meta))

    def exact_name(self, meta, children):
        return ast.NamePattern("exact", self.decode_string(children[0]), "", self.at.span(meta))

    def glob_name(self, meta, children):
        return ast.NamePattern("glob", self.decode_string(children[0]), "", self.at.span(meta))

    def regex_name(self, meta, children):
        pattern, flags = self.decode_regex(children[0])
        return ast.NamePattern("regex", pattern, flags, self.at.span(meta))

    def status_filter(self, meta, children):
        word = str(children[0])
        if word not in KNOWN_STATUSES:
            hint = did_you_mean(word, KNOWN_STATUSES)
            if hint:  # any word is a status, but a near miss of a known one is a typo
                self.at.error("bad-status", f"status '{word}' looks misspelt", children[0], hint)
        return ast.StatusFilter(word, self.at.span(meta))

    def step_filter(self, meta, children):
        return ast.StepFilter(self.whole_number(children[0], "a step") or 0, self.at.span(meta))

    def where_filter(self, meta, children):
        return ast.WhereFilter(children[0], self.at.span(meta))

    # ----------------------------------------------------------- conditions

    def compare(self, meta, children):
        left, op, right = children[:3]
        return ast.Compare(str(op), left, right, _ignoring(children), self.at.span(meta))

    def between(self, meta, children):
        subject, low, high = children
        return ast.Between(subject, low, high, self.at.span(meta))

    contains = _text_test("contains")
    starts_with = _text_test("starts_with")
    ends_with = _text_test("ends_with")
    matches = _text_test("matches")
    fully_matches = _text_test("fully_matches")

    def ignoring_case(self, meta, _children):
        return _IGNORING_CASE

    def includes(self, meta, children):
        return ast.Includes(children[0], children[1], self.at.span(meta))

    def member(self, meta, children):
        return ast.Member(children[0], children[1], _ignoring(children), False, self.at.span(meta))

    def not_member(self, meta, children):
        return ast.Member(children[0], children[1], _ignoring(children), True, self.at.span(meta))

    def is_empty(self, meta, children):
        return ast.Emptiness(children[0], False, self.at.span(meta))

    def is_not_empty(self, meta, children):
        return ast.Emptiness(children[0], True, self.at.span(meta))

    def exists(self, meta, children):
        return ast.Exists(children[0], self.at.span(meta))

    any_of = _quantifier("any")
    all_of = _quantifier("all")
    none_of = _quantifier("no")

    def exactly_of(self, meta, children):
        count = self.whole_number(children[0], "a count") or 0
        condition = children[2] if len(children) > 2 else None
        return ast.Quantified("exactly", count, children[1], condition, self.at.span(meta))

    def have_clause(self, meta, children):
        return children[0]

    def before(self, meta, children):
        return ast.Before(children[0], children[1], self.at.span(meta))

    def selection_list(self, meta, children):
        return tuple(children)

    def in_order(self, meta, children):
        return ast.InOrder(children[0], False, self.at.span(meta))

    def exactly_in_order(self, meta, children):
        return ast.InOrder(children[0], True, self.at.span(meta))

    def each_of(self, meta, children):
        return ast.EachDistinct(children[0], self.at.span(meta))

    def only(self, meta, children):
        return ast.Only(children[0], self.at.span(meta))

    def semantic(self, meta, children):
        return ast.Semantic(self.decode_string(children[0]), self.at.span(meta))

    def truthy(self, meta, children):
        return ast.Truthy(children[0], self.at.span(meta))

    def not_(self, meta, children):
        return ast.Not(children[0], self.at.span(meta))

    def and_cond(self, meta, children):
        return ast.And(tuple(children), self.at.span(meta))

    def or_cond(self, meta, children):
        return ast.Or(tuple(children), self.at.span(meta))

    # ----------------------------------------------------------- statements

    def let_stmt(self, meta, children):
        # A bare value parses as a condition (Truthy); the let names the value.
        value = children[1].value if isinstance(children[1], ast.Truthy) else children[1]
        return ast.Let(self.check_name(children[0]), value, self.at.span(meta))

    def expect_index(self, meta, children):
        value = self.whole_number(children[0], "an expectation index")
        if value is not None and value < 1:
            self.at.error("bad-index", "expectation indexes start at 1", children[0])
            # Reported: `check` still compiles the statement, which reads a linked
            # sentence by its index, and a negative one would count from the end.
            value = None
        return ("index", value)

    def expect_sentence(self, meta, children):
        return ("sentence", self.decode_string(children[0]))

    def expect_check(self, meta, children):
        span = self.at.span(meta)
        # The check's own text: after the ':' up to its last token, as written.
        source = check_text(self.at.text[span.start_pos + 1:span.end_pos])
        return ("check", (children[0], source))

    def expect_stmt(self, meta, children):
        parts = dict(children)
        check, source = parts.get("check", (None, ""))
        return ast.Expect(parts.get("index"), parts.get("sentence"), check, source,
                          self.at.span(meta))

    def eval_key(self, meta, children):
        token = children[0]
        if token.type == "STRING":
            return self.decode_string(token)
        return str(self.whole_number(token, "an eval id") or 0)

    def eval_name(self, meta, children):
        return self.decode_string(children[0])

    def eval_header(self, meta, children):
        name = children[1] if len(children) > 1 else None
        return EvalHeader(children[0], name, self.at.span(meta))

    def eval_block(self, meta, children):
        header, body = children[0], children[1:]
        lets = tuple(s for s in body if isinstance(s, ast.Let))
        expects = tuple(s for s in body if isinstance(s, ast.Expect))
        return ast.EvalBlock(header.key, header.name, lets, expects, self.at.span(meta))

    def start(self, meta, children):
        return ast.RulesFile(self.at.path, tuple(children), self.at.span(meta))


class EvalHeader:
    """``eval KEY ["name"]`` before its statements are gathered."""

    def __init__(self, key: str, name: str | None, span: ast.Span):
        self.key, self.name, self.span = key, name, span


# What a check's text holds besides code: strings and regexes (kept whole, so a '#'
# in them is theirs) and comments (left out).
_STRING_REGEX_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"|/(?:[^/\\\n]|\\[^\n])+/|#[^\n]*')


def check_text(written: str) -> str:
    """A check as written, without its comments (a comment is the author's note, not
    the check grading.json shows), each line's trailing blanks, or blank lines."""
    bare = _STRING_REGEX_OR_COMMENT.sub(lambda m: "" if m.group().startswith("#") else m.group(), written)
    return "\n".join(line.rstrip() for line in bare.strip().split("\n") if line.strip())


def _ignoring(children: list) -> bool:
    return any(c is _IGNORING_CASE for c in children)


def _jsonpath(args: tuple, span: ast.Span) -> ast.JsonPathExpr | None:
    """``jsonpath(q)`` or ``jsonpath(base, q)`` with q a string literal, else None."""
    if not args or len(args) > 2:
        return None
    query = args[-1]
    if not (isinstance(query, ast.Literal) and isinstance(query.value, str)):
        return None
    base = args[0] if len(args) == 2 else None
    return ast.JsonPathExpr(base, query.value, span, query.span)
