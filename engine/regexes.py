"""Regular expressions, compiled once by the compiler and run without a clock.

A pattern means what the ``regex`` module makes of it, and its verdicts are a
function of the pattern and the text alone, on any machine, under any load:

- **Linear engine.** Every pattern that ``regex_linear`` can translate runs on
  RE2 (``google-re2``), in time linear in the text: no timeout, nothing to
  exhaust. That is nearly every pattern an assertion holds.
- **Backtracking engine.** A pattern with a lookaround, a backreference or
  another construct RE2 lacks runs on ``regex``, under two deterministic guards.
  At compile time, such a pattern that repeats a group holding a repetition or
  an alternation (``(a+)+``, ``(a|aa)+``: the shapes that take exponential time)
  is refused (``bad-regex``). At run time, a text longer than
  ``BACKTRACK_TEXT_LIMIT`` characters is not scanned: that match is an ERROR
  naming the pattern and the size. A pattern with ``\\b`` runs there too on a
  text with non-ASCII word characters (RE2's ``\\b`` is ASCII), under the same
  guards.

No verdict waits on a clock. A backtracking match that is still slow within
those bounds is bounded by the wall-clock safety net alone (``budget.wall_net``),
which stops the whole grade and writes no verdict.
"""

from __future__ import annotations

import fnmatch
import re
from functools import cache
from typing import Any, Callable

import re2  # type: ignore[import-untyped]  # google-re2 ships no type information
import regex

from referee.engine import budget
from referee.engine.regex_linear import TURKISH_I, Linear, Unsupported, non_ascii_word_class, to_linear
from referee.engine.regex_shape import backtrack_safe, group_call, has_line_anchor, needs_backtracking_why, written_out
from referee.engine.regex_syntax import MAX_GROUP_DEPTH, TooDeep, Unreadable, count, parse
from referee.engine.values import EvalError

FLAG_BITS = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}
# The most atoms a pattern's repetition counts may write out (``_refuse_large_counts``):
# far beyond any pattern an assertion needs, far below what exhausts the compiler.
WRITTEN_OUT_LIMIT = 100_000
_COUNT = re.compile(r"\{([0-9]+)")
_PAREN = re.compile(r"\\.|[()]", re.DOTALL)
# The longest text the backtracking engine scans: on a refused shape it could take
# exponential time, on the shapes it runs at worst a small power of the length.
BACKTRACK_TEXT_LIMIT = 100_000


class Pattern:
    """A compiled pattern plus how the author wrote it (for messages).

    ``may_fail``: a match may end in an error (a backtracking pattern on a text
    past its limit), so it runs element by element under the assertion's
    budget; False for a pattern that always answers."""

    may_fail = True
    line_anchored = False  # holds ^ or $: see _lines_as_read

    def __init__(self, source: str, flags: str, display: str, ignore_case: bool = False):
        bits = regex.IGNORECASE if ignore_case else 0
        for flag in flags:
            bits |= FLAG_BITS[flag]
        try:
            tree = parse(source, verbose="x" in flags)  # engine.regex_syntax's own nodes
        except Unreadable:
            tree = None
        except TooDeep as err:  # before compiling too: the regex module recurses per group as well
            raise regex.error(f"{err}; write it with fewer groups one inside another") from None
        if tree is None and _opened_depth(source) > MAX_GROUP_DEPTH:
            raise regex.error(f"groups nested more than {MAX_GROUP_DEPTH} deep; write it with fewer groups "
                              "one inside another")
        _refuse_large_counts(source, tree)  # before compiling: that is what they would exhaust
        self.compiled = regex.compile(source, bits)
        self.display = display
        if tree is None:
            raise regex.error("it needs the backtracking engine, and its shape cannot be read to "
                              "tell whether it can take exponential time there; write it with "
                              "common constructs")
        called = group_call(tree)
        if called:
            raise regex.error(f"it calls a group of the pattern, {called}, which the backtracking "
                              "engine may repeat without end or take exponential time on; write "
                              "the group out instead")
        self.linear = _linear(tree, flags + ("i" if ignore_case else ""))
        self.safe = backtrack_safe(tree)
        self.line_anchored = has_line_anchor(tree)
        if self.linear is not None:
            self.why = "it has \\b or \\B and the text has non-ASCII letters"
            self.may_fail = self.linear.boundary or self.linear.caseless
            return
        self.why = needs_backtracking_why(tree) or "the linear engine cannot give it the same meaning"
        if not self.safe:
            raise regex.error(f"it needs the backtracking engine ({self.why}) and repeats a group "
                              "that holds a repetition or an alternation, which can take "
                              "exponential time there; rewrite it without that nesting")

    def search(self, text: str, where: str) -> Any:
        """First match anywhere in ``text`` (with ``start()``), or None; ``where``
        names the text for an error."""
        return self._lines_as_read(True, text, where)

    def fullmatch(self, text: str, where: str) -> Any:
        return self._lines_as_read(False, text, where)

    def _lines_as_read(self, search: bool, text: str, where: str) -> Any:
        """The match, with ``^`` and ``$`` meeting the line ends ``lines(...)`` and every
        citation count: a CRLF or a lone CR as well as a line feed. Both engines know
        the line feed alone, so a pattern with those anchors is run on the text with
        its line ends written ``\n`` (a tool's Windows output in a JSON value kept
        "DENIED\r\n" apart from /^DENIED$/m), and its start counted back."""
        if not self.line_anchored or "\r" not in text:
            return self._run(search, text, where)
        found = self._run(search, text.replace("\r\n", "\n").replace("\r", "\n"), where)
        return None if found is None else _Moved(_written_offset(text, found.start()))

    def tester(self, where: str) -> Callable[[str], bool]:
        """A predicate "does ``text`` match somewhere", for filtering many texts."""
        return lambda text: self.search(text, where) is not None

    def _run(self, search: bool, text: str, where: str) -> Any:
        linear = self.linear
        if linear is not None and linear.caseless and any(map(text.__contains__, TURKISH_I)):
            return self._backtrack(search, text, where, "it ignores case and the text holds İ or ı, "
                                   "which the linear engine does not fold as the reference does")
        if linear is not None and (not linear.boundary or ascii_boundaries(text)):
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError:  # RE2 reads UTF-8 only
                return self._backtrack(search, text, where, "the text holds a lone surrogate")
            compiled = _re2(linear.search if search else linear.full)
            found = compiled.search(data) if search else compiled.fullmatch(data)
            return None if found is None else Found(found.start(), data, len(data) == len(text))
        return self._backtrack(search, text, where)

    def _backtrack(self, search: bool, text: str, where: str, why: str = "") -> Any:
        why = why or self.why
        if not self.safe:
            raise EvalError(f"regex {self.display} needs the backtracking engine on {where} "
                            f"({why}), where it can take exponential time; rewrite it "
                            "without repeating a group that holds a repetition or an alternation")
        if len(text) > BACKTRACK_TEXT_LIMIT:
            raise EvalError(f"regex {self.display} needs the backtracking engine ({why}), "
                            f"which scans at most {BACKTRACK_TEXT_LIMIT:,} characters; {where} "
                            f"has {len(text):,}")
        method = self.compiled.search if search else self.compiled.fullmatch
        try:
            return method(text, timeout=budget.net_left())
        except TimeoutError:
            raise budget.too_slow() from None


def _linear(tree: object, flags: str) -> Linear | None:
    """RE2's texts for the pattern, when RE2 can run it with the same meaning."""
    try:
        linear = to_linear(tree, flags)
        _re2(linear.search), _re2(linear.full)
    except (Unsupported, re2.error, UnicodeEncodeError):
        return None
    return linear


def _written_offset(text: str, start: int) -> int:
    """The offset in ``text`` of offset ``start`` of ``text`` with its CRLFs written
    ``\n``: one more for each CRLF before it."""
    at = text.find("\r\n")
    while 0 <= at < start:
        start += 1
        at = text.find("\r\n", at + 2)
    return start


class _Moved:
    """A match found on the text with its line ends written ``\n``, placed in the text."""

    __slots__ = ("_start",)

    def __init__(self, start: int) -> None:
        self._start = start

    def start(self) -> int:
        return self._start


class Found:
    """A match on the linear engine: where it starts, in characters. The text is
    given to RE2 as UTF-8 bytes (its wrapper's own conversion of a ``str`` costs
    several times the match), so the start is counted back from bytes."""

    __slots__ = ("_start", "_data", "_ascii")

    def __init__(self, start: int, data: bytes, ascii: bool) -> None:
        self._start, self._data, self._ascii = start, data, ascii

    def start(self) -> int:
        if self._ascii:
            return self._start
        return len(self._data[:self._start].decode("utf-8"))


@cache
def _re2(text: str) -> Any:
    """RE2's compiled pattern, for UTF-8 bytes; a program too large for RE2's memory
    is an error."""
    options = re2.Options()
    options.log_errors = False
    return re2.compile(text.encode("utf-8"), options)


def ascii_boundaries(text: str) -> bool:
    """Whether RE2's ASCII ``\\b`` means what ``regex``'s does on ``text``: it holds
    no non-ASCII word character."""
    if text.isascii():
        return True
    try:
        return _re2(non_ascii_word_class()).search(text.encode("utf-8")) is None
    except UnicodeEncodeError:
        return False


def _opened_depth(source: str) -> int:
    """The most parentheses open at once in ``source``, escapes skipped: for a pattern
    whose shape cannot be read (a parenthesis in a class counts, which only
    overstates)."""
    depth = deepest = 0
    for found in _PAREN.finditer(source):
        depth += {"(": 1, ")": -1}.get(found.group(), 0)
        deepest = max(deepest, depth)
    return deepest


def _refuse_large_counts(source: str, tree: object | None) -> None:
    """Raise ``regex.error`` when the repetition counts of ``source`` ask for more than
    ``WRITTEN_OUT_LIMIT`` atoms written out (``regex_shape.written_out``): the
    ``regex`` module would take gigabytes compiling ``a{99999999}``, or crash on
    ``(?:ab|c){1000000}``. A pattern whose shape cannot be read is judged by its
    largest count alone."""
    if tree is not None:
        size = written_out(tree)
    else:
        size = max((count(found.group(1)) for found in _COUNT.finditer(source)), default=0)
    if size > WRITTEN_OUT_LIMIT:
        raise regex.error(f"its repetition counts ask for more than {WRITTEN_OUT_LIMIT:,} copies of what they "
                          "repeat, more than a pattern can be compiled with; use a smaller count, or `+`")


class _GlobPattern(Pattern):
    """A translated glob: its only repetitions are ``fnmatch``'s, which cannot
    backtrack catastrophically, so it runs on ``regex`` without any guard."""

    may_fail = False

    def __init__(self, source: str, display: str):
        self.compiled = regex.compile(source)
        self.display = display
        self.linear, self.safe, self.why = None, True, ""

    def tester(self, where: str) -> Callable[[str], bool]:
        match = self.compiled.match
        return lambda text: match(text) is not None

    def _run(self, search: bool, text: str, where: str) -> Any:
        return (self.compiled.search if search else self.compiled.fullmatch)(text)


class _ExactPattern(_GlobPattern):
    """An exact name: matching is string equality."""

    def __init__(self, text: str):
        super().__init__(r"\A" + regex.escape(text) + r"\Z", f'"{text}"')
        self.text = text

    def tester(self, where: str) -> Callable[[str], bool]:
        return self.text.__eq__


def compile_regex(pattern: str, flags: str, ignore_case: bool = False) -> Pattern:
    """Compile ``/pattern/flags``; raises ``regex.error`` (with ``pos``) when invalid
    or refused (see the module's docstring)."""
    return Pattern(pattern, flags, f"/{pattern}/{flags}", ignore_case)


def compile_glob(glob: str) -> Pattern:
    """A shell-style glob (``*save*``) as an anchored, case-sensitive pattern."""
    return _GlobPattern(r"\A" + fnmatch.translate(glob), f'glob "{glob}"')


def glob_problem(glob: str) -> tuple[str, str] | None:
    """(what, hint) when ``glob`` holds what a shell reads otherwise than ``fnmatch``
    does, so the pattern would select other tools than it reads: ``[^a]`` (a class
    of ``^`` and ``a`` here, "not a" in bash), a backslash (a plain character here,
    an escape there), braces (``{a,b}`` expands there, is literal here), or a ``[``
    no ``]`` closes (literal here). None for a glob that means what it reads."""
    i = 0
    while i < len(glob):
        char = glob[i]
        if char == "\\":
            return ("a backslash in a glob is a plain character, not an escape",
                    "put a special character in brackets to match it: [*], [?], [[]")
        if char == "[":
            end = _class_end(glob, i)
            if end < 0:
                return ("'[' opens a class that no ']' closes, so it matches a '[' itself",
                        "close the class, or write [[] to match a '['")
            if glob.startswith("[^", i):
                return ("in a glob, '[^' is a class holding '^', not a negation",
                        "write [!...] for any character but these")
            i = end
        elif char == "{" and "," in glob[i:max(i, glob.find("}", i))]:
            return ("braces in a glob are plain characters: {a,b} does not expand",
                    "write a regex such as /^(a|b)$/, or one selection for each name")
        i += 1
    return None


def _class_end(glob: str, start: int) -> int:
    """The index of the ``]`` closing the class opened at ``start``, as ``fnmatch``
    reads it (a ``!`` and then a ``]`` first in the class are members), or -1."""
    j = start + 1
    if j < len(glob) and glob[j] == "!":
        j += 1
    if j < len(glob) and glob[j] == "]":
        j += 1
    return glob.find("]", j)


def compile_exact(text: str) -> Pattern:
    """An exact name (``"Bash"``): the whole text, case-sensitive."""
    return _ExactPattern(text)


def error_offset(pattern: str, pos: int | None) -> tuple[int, int]:
    """(lines, column offset) of ``pos`` inside a pattern, for pointing at an error.

    The column is relative to the start of the pattern's line: when the error is on
    the pattern's first line, add it to the column right after the opening slash.
    """
    if pos is None:
        return 0, 0
    before = pattern[:pos]
    lines = before.count("\n")
    if lines:
        return lines, len(before) - before.rfind("\n") - 1
    return 0, len(before)


def name_matcher(kind: str, text: str, flags: str = "") -> Callable[[str], bool | None]:
    """"Does this tool-name pattern match this name", as selections answer it.

    ``kind`` is ``exact``, ``glob`` or ``regex`` (a ``NamePattern``'s fields). A
    regex is searched as in a selection (``calls to /re/``). When the pattern does
    not compile, or a match ends in an error (see ``Pattern``), the answer is
    None: undecided, never a guess.
    """
    if kind == "exact":
        return text.__eq__
    if kind == "glob":
        return compile_glob(text).tester("a tool name")
    try:
        pattern = compile_regex(text, flags)
    except (regex.error, KeyError):
        return lambda name: None
    test = pattern.tester("a tool name")

    def matches(name: str) -> bool | None:
        try:
            return test(name)
        except EvalError:
            return None

    return matches
