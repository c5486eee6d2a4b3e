"""The linear engine gives a pattern the meaning the ``regex`` module gives it.

``engine.regexes`` runs every pattern it can on RE2 and the rest on ``regex``;
evidence uses whether a pattern matches, where the first match starts, and
whether it matches the whole text. These tests hold RE2's answers to the
reference engine's: on generated patterns of every construct the translation
knows (shapes that cannot backtrack badly, so the reference answers at once),
and on every code point for the classes it rebuilds.
"""

from __future__ import annotations

import functools
import sys

import pytest
import re2
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.regexes import compile_regex
from referee.engine.values import EvalError

ALPHABET = "ab\n _.é1ÉßK\u212a٣-"
ATOMS = ["a", "b", "é", "É", "\\.", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "[a-c]", "[^a\\n]",
         "[\\w-]", "[^\\W\\d]", "\\x41", "\\u00e9", "\\n", " ", "k", "ß", "\\b", "\\B", "^", "$",
         "\\A", "\\Z", "(?:a|b)", "(a)", "(?P<n>é)", "(?i:é)", "(?-i:a)"]
QUANTIFIERS = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{,2}", "*?", "+?"]


@st.composite
def patterns(draw) -> str:
    parts = [draw(st.sampled_from(ATOMS)) + draw(st.sampled_from(QUANTIFIERS))
             for _ in range(draw(st.integers(1, 5)))]
    pattern = "".join(parts)
    if draw(st.booleans()):
        pattern += "|" + draw(st.sampled_from(ATOMS))
    return pattern


def _reference(pattern: str, flags: str, text: str) -> tuple:
    bits = 0
    for flag in flags:
        bits |= {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL}[flag]
    compiled = regex.compile(pattern, bits)
    found = compiled.search(text)
    return (found.start() if found else None), compiled.fullmatch(text) is not None


@settings(max_examples=400)
@given(patterns(), st.sampled_from(["", "i", "m", "s", "ims"]), st.text(ALPHABET, max_size=12))
def test_the_linear_engine_answers_as_the_reference(pattern, flags, text):
    try:
        compiled = compile_regex(pattern, flags)
    except regex.error as refused:  # beyond the translation, and a shape the backtracking one refuses
        assert "needs the backtracking engine" in str(refused)
        return
    try:
        found = compiled.search(text, "the text")
        got = (found.start() if found else None), compiled.fullmatch(text, "the text") is not None
    except EvalError:  # \b beside a non-ASCII letter, in a shape refused on the backtracking engine
        assert compiled.linear.boundary and not compiled.safe and not text.isascii()
        return
    assert got == _reference(pattern, flags, text), (compiled.linear, text)


@pytest.mark.parametrize("pattern", ["^t$", "done\\.$", "a$|b", "(x|y$)", "\\bfoo\\b", "\\d+", "(?i)SAVE\\w+"])
def test_common_patterns_run_on_the_linear_engine(pattern):
    assert compile_regex(pattern, "").linear is not None


@pytest.mark.parametrize("pattern", ["(?=a)b", "(a)\\1", "a++", "\\p{L}", "[[:alpha:]]", "a$b", "(?x) a"])
def test_what_it_cannot_translate_runs_on_the_reference(pattern):
    assert compile_regex(pattern, "").linear is None


@functools.cache
def _every_character() -> str:
    return "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))


@pytest.mark.parametrize("letter", list("dwsDWS"))
@pytest.mark.parametrize("flags", ["", "i"])
def test_each_class_is_the_reference_s_on_every_code_point(letter, flags):
    every = _every_character()
    compiled = compile_regex(f"\\{letter}+", flags)
    assert compiled.linear is not None
    runs = [m.span() for m in re2.compile(compiled.linear.search).finditer(every)]
    reference = regex.compile(f"(?{flags or 'V0'})\\{letter}+")
    assert runs == [m.span() for m in reference.finditer(every)]


def test_a_lone_surrogate_is_matched_by_the_reference():
    compiled = compile_regex("a.b", "")
    assert compiled.search("x a\ud800b", "the text").start() == 2
    assert sys.maxunicode == 0x10FFFF
