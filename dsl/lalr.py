"""A small LALR runtime that parses with the tables in ``dsl/parser_tables.json``
without importing lark.

Importing lark loads its grammar compiler, its Earley and CYK parsers, logging
and pickle, whatever the parser is made from; for ``referee check`` on a short
file that import, and building lark's parser, took longer than everything the
parse itself does. This runtime does what lark's LALR parser does with the same
tables, for this grammar's options (a contextual lexer, positions propagated,
placeholders for ``[...]``), and builds the same trees: ``Tree(data, children,
meta)`` with ``Token`` leaves carrying the same positions.

It only parses what parses. On any input lark would refuse, it says so (returns
None) and the caller asks lark, whose exception the error messages are made
from; so errors are lark's own. ``tests/test_dsl_lalr.py`` parses the examples
and generated texts with both and compares the trees, tokens and positions.

The tables are made by lark (``referee.dsl.tables``) and used only when they were
made from this very grammar text and these options.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

TABLES = Path(__file__).with_name("parser_tables.json")


class Token(str):
    """A lexed token: the text, its terminal's name and where it stands (as lark's)."""

    __slots__ = ("type", "start_pos", "value", "line", "column", "end_line", "end_column", "end_pos")

    type: str
    start_pos: int
    value: str
    line: int
    column: int
    end_line: int
    end_column: int
    end_pos: int

    def __new__(cls, type_: str, value: str, start_pos: int, line: int, column: int) -> Token:
        token = super().__new__(cls, value)
        token.type, token.value = type_, value
        token.start_pos, token.line, token.column = start_pos, line, column
        return token

    def __eq__(self, other: object) -> bool:  # as lark's: tokens of two types differ
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class Meta:
    """A rule's position (lark's ``Meta``): ``empty`` until a child with a position is seen."""

    def __init__(self) -> None:
        self.empty = True


class Tree:
    """A rule's node: its name (or alias), its children and its ``Meta``."""

    __slots__ = ("data", "children", "meta")

    def __init__(self, data: str, children: list) -> None:
        self.data, self.children, self.meta = data, children, Meta()


class _Rule:
    """What a reduction needs: the rule's name, its length and how its node is built."""

    def __init__(self, saved: dict[str, Any]) -> None:
        self.origin: str = saved["origin"]
        expansion = saved["expansion"]
        self.size = len(expansion)
        self.name: str = saved["alias"] or saved["template_source"] or self.origin
        self.expand1 = saved["expand1"] and not saved["alias"]
        # lark's maybe_create_child_filter: (index, inline its children, Nones before it)
        empty = saved["empty_indices"]
        nones = ([len(run) for run in "".join(str(int(b)) for b in empty).split("0")]
                 if empty else [0] * (self.size + 1))
        self.include: list[tuple[int, bool, int]] = []
        pending = 0
        for i, (name, terminal, filter_out) in enumerate(expansion):
            pending += nones[i]
            if saved["keep_all_tokens"] or not (terminal and filter_out):
                self.include.append((i, not terminal and name.startswith("_"), pending))
                pending = 0
        self.trailing = pending + nones[self.size]
        self.filters = bool(empty) or len(self.include) < self.size or any(x for _, x, _ in self.include)

    def build(self, children: list) -> Any:
        """The node of this rule from its children (lark's wrapper chain)."""
        if self.filters:
            kept: list = []
            for i, expand, nones in self.include:
                if nones:
                    kept += [None] * nones
                if expand:
                    kept += children[i].children
                else:
                    kept.append(children[i])
            if self.trailing:
                kept += [None] * self.trailing
        else:
            kept = children
        node = kept[0] if self.expand1 and len(kept) == 1 else Tree(self.name, kept)
        if type(node) is Tree:
            _propagate(node.meta, children)
        return node


def _first(children: Any) -> Any:
    for child in children:
        if type(child) is Tree:
            if not child.meta.empty:
                return child.meta
        elif type(child) is Token:
            return child
    return None


def _propagate(meta: Any, children: list) -> None:
    """lark's ``PropagatePositions``: the node spans from its first child with a
    position to its last (tokens dropped from the tree count too). Written out
    field by field, as it runs once per node built."""
    first = _first(children)
    if first is None:  # no child has a position, from either end
        return
    last = _first(reversed(children))
    # A node (its Meta) lends the span of all it holds; a token its own place.
    if type(first) is Token:
        start = first.line, first.column, first.start_pos
    else:
        start = first.container_line, first.container_column, first.container_start_pos
    if type(last) is Token:
        end = last.end_line, last.end_column, last.end_pos
    else:
        end = last.container_end_line, last.container_end_column, last.container_end_pos
    # Empty means no span yet: a node built again (an inlined rule's single child)
    # keeps the span it has, and only widens what it contains.
    if meta.empty:
        meta.line, meta.column, meta.start_pos = start
        meta.end_line, meta.end_column, meta.end_pos = end
        meta.empty = False
    meta.container_line, meta.container_column, meta.container_start_pos = start
    meta.container_end_line, meta.container_end_column, meta.container_end_pos = end


class _Pattern:
    def __init__(self, saved: dict[str, Any]) -> None:
        self.type: str = saved["type"]
        self.value: str = saved["value"]
        self.max_width: int = saved["max_width"]

    def to_regexp(self) -> str:
        return re.escape(self.value) if self.type == "str" else self.value


class Terminal:
    """A terminal as ``dsl.syntax.Terminals`` reads it: ``name`` and ``pattern``."""

    def __init__(self, saved: dict[str, Any]) -> None:
        self.name: str = saved["name"]
        self.priority: int = saved["priority"]
        self.pattern = _Pattern(saved)


class _Lexer:
    """One state's lexer: its terminals in lark's order, keywords found by text."""

    def __init__(self, terminals: list[Terminal], compiled: dict[str, Any], ignore: frozenset[str]):
        terminals = sorted(terminals, key=lambda t: (-t.priority, -t.pattern.max_width,
                                                     -len(t.pattern.value), t.name))
        strings = [t for t in terminals if t.pattern.type == "str"]
        self.keywords: dict[str, dict[str, str]] = {}
        embedded: set[str] = set()
        for retok in (t for t in terminals if t.pattern.type == "re"):
            unless = [s for s in strings if s.priority == retok.priority
                      and _whole(compiled[retok.name], s.pattern.value)]
            if unless:
                embedded.update(s.name for s in unless)
                found: dict[str, str] = {}
                for s in unless:
                    found.setdefault(s.pattern.value, s.name)
                self.keywords[retok.name] = found
        # (name, the literal text, or None and the compiled regex)
        self.tries: list[tuple[str, str | None, Any]] = [
            (t.name, t.pattern.value if t.pattern.type == "str" else None, compiled.get(t.name))
            for t in terminals if t.name not in embedded]
        self.ignore = ignore


def _whole(compiled: Any, text: str) -> bool:
    found = compiled.match(text)
    return found is not None and found.group(0) == text


class Runtime:
    """The parser of the saved tables. ``parse`` returns the tree, or None where lark
    would raise (lark is then asked, for its error)."""

    def __init__(self, saved: dict[str, Any]) -> None:
        self.terminals = [Terminal(term) for term in saved["terminals"]]
        by_name = {t.name: t for t in self.terminals}
        self.ignore = frozenset(saved["ignore"])
        compiled = {t.name: re.compile(t.pattern.to_regexp()) for t in self.terminals
                    if t.pattern.type == "re"}
        self.newline_types = frozenset(t.name for t in self.terminals
                                       if _has_newline(t.pattern.to_regexp()))
        self.rules = [_Rule(rule) for rule in saved["rules"]]
        # A row: symbol -> the state to shift to, or -1 - i to reduce by rule i.
        self.states: list[dict[str, int]] = saved["states"]
        self._accepts = [frozenset(n for n in row if n in by_name) for row in self.states]
        self.start_states: dict[str, int] = saved["start_states"]
        self.end_states: dict[str, int] = saved["end_states"]
        self._by_name, self._compiled = by_name, compiled
        self._lexers: dict[frozenset[str], _Lexer] = {}
        self._state_lexers: dict[int, _Lexer] = {}  # the same, by state: asked per token

    def _lexer(self, state: int) -> _Lexer:
        lexer = self._state_lexers.get(state)
        if lexer is None:
            lexer = self._state_lexers[state] = self._lexer_of(self._accepts[state])
        return lexer

    def _lexer_of(self, accepts: frozenset[str]) -> _Lexer:
        lexer = self._lexers.get(accepts)
        if lexer is None:
            chosen = accepts | self.ignore
            lexer = self._lexers[accepts] = _Lexer([self._by_name[n] for n in chosen],
                                                   self._compiled, self.ignore)
        return lexer

    def parse(self, text: str, start: str) -> Any:
        states, end_state = self.states, self.end_states[start]
        state_stack: list[int] = [self.start_states[start]]
        value_stack: list[Any] = []
        pos, line, line_start, end = 0, 1, 0, len(text)
        newline_types = self.newline_types
        while True:
            # the next token the lexer of the current state finds (ignored ones skipped)
            token = None
            while pos < end:
                lexer = self._lexer(state_stack[-1])
                found = _match(lexer, text, pos, end)
                if found is None:
                    return None  # lark raises UnexpectedCharacters (or UnexpectedToken)
                value, kind = found
                start_pos, start_line, start_column = pos, line, pos - line_start + 1
                if kind in newline_types:
                    newlines = value.count("\n")
                    if newlines:
                        line += newlines
                        line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                if kind in lexer.ignore:
                    continue
                token = Token(kind, value, start_pos, start_line, start_column)
                token.end_line, token.end_column, token.end_pos = line, pos - line_start + 1, pos
                kind = lexer.keywords.get(kind, _NO_KEYWORDS).get(value, kind)
                token.type = kind
                break
            if token is None:
                break
            if not _feed(states, self.rules, state_stack, value_stack, token.type, token, None):
                return None
        return _feed(states, self.rules, state_stack, value_stack, "$END", None, end_state)


_NO_KEYWORDS: dict[str, str] = {}


def _match(lexer: _Lexer, text: str, pos: int, end: int) -> tuple[str, str] | None:
    for name, literal, compiled in lexer.tries:
        if literal is not None:
            if text.startswith(literal, pos, end):
                return literal, name
        else:
            found = compiled.match(text, pos, end)
            if found:
                return found.group(0), name
    return None


def _feed(states: list[dict[str, int]], rules: list[_Rule], state_stack: list[int],
          value_stack: list, kind: str, token: Any, end_state: int | None) -> Any:
    """lark's ``ParserState.feed_token``: reduce as often as the table says, then
    shift the token (or, at the end, stop in the end state). False: lark refuses."""
    while True:
        action = states[state_stack[-1]].get(kind)
        if action is None:
            return None if end_state is not None else False
        if action >= 0:  # shift
            if end_state is not None:
                return None
            state_stack.append(action)
            value_stack.append(token)
            return True
        rule = rules[-1 - action]
        if rule.size:
            children = value_stack[-rule.size:]
            del state_stack[-rule.size:]
            del value_stack[-rule.size:]
        else:
            children = []
        value = rule.build(children)
        state_stack.append(states[state_stack[-1]][rule.origin])
        value_stack.append(value)
        if end_state is not None and state_stack[-1] == end_state:
            return value_stack[-1]


def _has_newline(regexp: str) -> bool:
    """lark's ``_regexp_has_newline``: may this terminal's text hold a line end."""
    return "\n" in regexp or "\\n" in regexp or "\\s" in regexp or "[^" in regexp or \
        ("(?s" in regexp and "." in regexp)


def load(grammar: str, options: dict[str, Any]) -> Runtime | None:
    """The runtime of the saved tables, when they were made from ``grammar`` with
    ``options``; else None (lark parses instead)."""
    try:
        saved = json.loads(TABLES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("grammar") != grammar or \
            saved.get("options") != options:
        return None
    return Runtime(saved)
