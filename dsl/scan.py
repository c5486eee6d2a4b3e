"""Lexer scanners that cost nothing to make, for the parser loaded from tables.

Lark's contextual lexer has one lexer per set of terminals a parser state accepts,
and each compiles, on first use, one regular expression alternating all of its
terminals, plus another alternating the keywords that a name could be. For
``referee check`` on a short file that compiling (some thirty alternations) took
longer than the parsing. A ``Quick`` scanner answers the same question without
it: it tries the same terminals in the same order, each a literal compared in
place or a small expression compiled once for all states, and takes the first
that matches, which is what the alternation's ``match`` does. A name is turned
into a keyword by looking its text up, which is what matching the alternation of
keywords whole does when they are plain words. A state used more than
``HEAVY_USE`` times (a long file) gets lark's own scanner after all, which is
faster per token once made; both find the same tokens.

Used only where these equivalences hold: no terminal flags, no global regex
flags, text not bytes, no lexer callbacks of the user; otherwise lark's scanners
are left in place.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable

from lark import Lark
from lark.lexer import BasicLexer, ContextualLexer, PatternRE, PatternStr, Scanner, TerminalDef

# Matches a state's lexer answers with its quick scanner before it builds lark's:
# about what compiling lark's costs, counted in the extra time a quick match
# takes, so a long file never pays more than twice what either way would cost.
HEAVY_USE = 60


def install(parser: Lark) -> None:
    """Give every lexer of ``parser`` a quick scanner, when the equivalence holds."""
    lexer = getattr(getattr(parser, "parser", None), "lexer", None)
    if not isinstance(lexer, ContextualLexer):
        return
    basics: list[Any] = list({id(b): b for b in [*lexer.lexers.values(), lexer.root_lexer]}.values())
    if not all(_plain(b) for b in basics):
        return
    matchers = _Matchers()
    for basic in basics:
        basic._build_scanner = functools.partial(_build, basic, matchers)


def _plain(basic: Any) -> bool:
    return (type(basic) is BasicLexer and basic._scanner is None and not basic.user_callbacks
            and basic.g_regex_flags == 0 and not basic.use_bytes and basic.re is re
            and all(not t.pattern.flags for t in basic.terminals))


class _Matchers:
    """What every state shares: each regex terminal compiled once, and whether a
    regex terminal matches a keyword whole."""

    def __init__(self) -> None:
        self.compiled: dict[str, re.Pattern[str]] = {}
        self.whole: dict[tuple[str, str], bool] = {}

    def regex(self, term: TerminalDef) -> re.Pattern[str]:
        found = self.compiled.get(term.name)
        if found is None:
            found = self.compiled[term.name] = re.compile(term.pattern.to_regexp())
        return found

    def matches_whole(self, retok: TerminalDef, strtok: TerminalDef) -> bool:
        key = (retok.name, strtok.name)
        if key not in self.whole:
            text = strtok.pattern.value
            found = re.match(retok.pattern.to_regexp(), text)
            self.whole[key] = found is not None and found.group(0) == text
        return self.whole[key]


def _build(basic: BasicLexer, matchers: _Matchers) -> Any:
    """``BasicLexer._build_scanner``: the keywords a name can be (as lark's
    ``_create_unless`` finds them), then a quick scanner over the other terminals."""
    terminals = list(basic.terminals)
    regexes = [t for t in terminals if isinstance(t.pattern, PatternRE)]
    strings = [t for t in terminals if isinstance(t.pattern, PatternStr)]
    embedded: set[str] = set()
    callback: dict[str, Callable] = {}
    for retok in regexes:
        unless = [s for s in strings if s.priority == retok.priority and matchers.matches_whole(retok, s)]
        embedded.update(s.name for s in unless)  # no flags: every one is embedded
        if unless:
            callback[retok.name] = _Keywords(unless)
    basic.callback = callback
    kept = [t for t in terminals if t.name not in embedded]
    return Quick(basic, kept, matchers)


class _Keywords:
    """Lark's ``UnlessCallback``: a name that is a keyword takes the keyword's type."""

    def __init__(self, keywords: list[TerminalDef]):
        self.types: dict[str, str] = {}
        for term in keywords:
            self.types.setdefault(term.pattern.value, term.name)

    def __call__(self, token: Any) -> Any:
        kind = self.types.get(token.value)
        if kind is not None:
            token.type = kind
        return token


class Quick:
    """A ``lark.lexer.Scanner`` for one state's terminals, made without compiling."""

    def __init__(self, basic: BasicLexer, terminals: list[TerminalDef], matchers: _Matchers):
        self.basic = basic
        self.terminals = terminals
        self.allowed_types = {t.name for t in terminals}
        self.tries: list[tuple[str, str | None, re.Pattern[str] | None]] = [
            (t.name, t.pattern.value, None) if isinstance(t.pattern, PatternStr)
            else (t.name, None, matchers.regex(t)) for t in terminals]
        self.uses = 0

    def match(self, text: Any, pos: int) -> tuple[str, str] | None:
        self.uses += 1
        if self.uses > HEAVY_USE:
            return self._lark().match(text, pos)
        source, end = text.text, text.end
        for name, literal, compiled in self.tries:
            if literal is not None:
                if source.startswith(literal, pos, end):
                    return literal, name
            else:
                found = compiled.match(source, pos, end)  # type: ignore[union-attr]
                if found:
                    return found.group(0), name
        return None

    def fullmatch(self, text: str) -> str | None:
        return self._lark().fullmatch(text)

    def _lark(self) -> Scanner:
        """Lark's own scanner over the same terminals, from now on this state's."""
        scanner = Scanner(self.terminals, self.basic.g_regex_flags, self.basic.re, self.basic.use_bytes)
        self.basic._scanner = scanner
        return scanner
