"""Regular expressions, compiled once by the compiler and run with a timeout.

Every match goes through the ``regex`` module's ``timeout=`` argument, so a
catastrophic pattern such as ``(a+)+$`` on a long text ends as an ERROR verdict
naming the pattern and the size of the text instead of hanging the grader.

Inside an assertion (``engine.budget``) the timeout is the assertion's: all its
matches together get the pattern's timeout, so a pattern that times out on
sixty elements costs one timeout, not sixty. ``name_matcher`` is the same timed
path for code outside assertions that asks whether a tool name matches.
"""

from __future__ import annotations

import fnmatch
import time
from typing import Callable

import regex

from referee.engine import budget as budgets
from referee.engine.values import EvalError

FLAG_BITS = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}
DEFAULT_TIMEOUT = 1.0


class Pattern:
    """A compiled pattern plus how the author wrote it (for messages).

    ``timed``: matching runs under the timeout (and the assertion's budget), so a
    match may end in an error; False for a pattern that cannot backtrack."""

    timed = True

    def __init__(self, source: str, flags: str, display: str, timeout: float, extra: int = 0):
        bits = extra
        for flag in flags:
            bits |= FLAG_BITS[flag]
        self.compiled = regex.compile(source, bits)
        self.display = display
        self.timeout = timeout

    def search(self, text: str, where: str) -> "regex.Match | None":
        """First match anywhere in ``text``; ``where`` names the text for a timeout."""
        return self._run(self.compiled.search, text, where)

    def fullmatch(self, text: str, where: str) -> "regex.Match | None":
        return self._run(self.compiled.fullmatch, text, where)

    def tester(self, where: str) -> Callable[[str], bool]:
        """A predicate "does ``text`` match somewhere", for filtering many texts."""
        return lambda text: self.search(text, where) is not None

    def _run(self, method, text: str, where: str):
        budget = budgets.current()
        if budget is None:
            try:
                return method(text, timeout=self.timeout)
            except TimeoutError:
                raise EvalError(f"regex {self.display} timed out after {self.timeout:g}s "
                                f"on {len(text)} characters of {where}") from None
        return self._run_budgeted(method, text, where, budget)

    def _run_budgeted(self, method, text: str, where: str, budget: budgets.Budget):
        """A match charged to the assertion's budget: its regex time and its wall time."""
        regex_left = self.timeout - budget.regex_seconds
        wall_left = budget.seconds_left()
        allowance = min(regex_left, wall_left)
        started = time.monotonic()
        try:
            if allowance <= 0:
                raise TimeoutError
            return method(text, timeout=allowance)
        except TimeoutError:
            what = f"regex {self.display} on {len(text)} characters of {where}"
            if wall_left < regex_left:
                budget.check_clock(what)
            raise budgets.BudgetExceeded(
                f"stopped: this assertion exceeded its budget of {self.timeout:g}s of regex "
                f"matching: regex {self.display} timed out after {self.timeout:g}s "
                f"on {len(text)} characters of {where}") from None
        finally:
            budget.regex_seconds += time.monotonic() - started


class _GlobPattern(Pattern):
    """A translated glob: its only repetitions sit in atomic groups (``fnmatch``),
    so it cannot backtrack catastrophically and runs without the timeout wrapper."""

    timed = False

    def tester(self, where: str) -> Callable[[str], bool]:
        match = self.compiled.match
        return lambda text: match(text) is not None


class _ExactPattern(Pattern):
    """An exact name: matching is string equality."""

    timed = False

    def __init__(self, text: str, timeout: float):
        super().__init__(r"\A" + regex.escape(text) + r"\Z", "", f'"{text}"', timeout)
        self.text = text

    def tester(self, where: str) -> Callable[[str], bool]:
        return self.text.__eq__


def compile_regex(pattern: str, flags: str, timeout: float, ignore_case: bool = False) -> Pattern:
    """Compile ``/pattern/flags``; raises ``regex.error`` (with ``pos``) when invalid."""
    extra = regex.IGNORECASE if ignore_case else 0
    return Pattern(pattern, flags, f"/{pattern}/{flags}", timeout, extra)


def compile_glob(glob: str, timeout: float) -> Pattern:
    """A shell-style glob (``*save*``) as an anchored, case-sensitive pattern."""
    return _GlobPattern(r"\A" + fnmatch.translate(glob), "", f'glob "{glob}"', timeout)


def compile_exact(text: str, timeout: float) -> Pattern:
    """An exact name (``"Bash"``): the whole text, case-sensitive."""
    return _ExactPattern(text, timeout)


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


def name_matcher(kind: str, text: str, flags: str = "",
                 timeout: float = DEFAULT_TIMEOUT) -> Callable[[str], bool | None]:
    """"Does this tool-name pattern match this name", through the timed path.

    ``kind`` is ``exact``, ``glob`` or ``regex`` (a ``NamePattern``'s fields). A
    regex is searched as in a selection (``calls to /re/``). All the answers of one
    matcher share ``timeout`` seconds of matching; once they are spent (a
    catastrophic pattern) or when the pattern does not compile, the answer is
    None: undecided, never a guess.
    """
    if kind == "exact":
        return text.__eq__
    if kind == "glob":
        return compile_glob(text, timeout).tester("a tool name")
    try:
        pattern = compile_regex(text, flags, timeout)
    except (regex.error, KeyError):
        return lambda name: None
    spent = [0.0]

    def matches(name: str) -> bool | None:
        left = timeout - spent[0]
        if left <= 0:
            return None
        started = time.monotonic()
        try:
            return pattern.compiled.search(name, timeout=left) is not None
        except TimeoutError:
            return None
        finally:
            spent[0] += time.monotonic() - started

    return matches
