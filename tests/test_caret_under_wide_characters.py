"""The caret of a diagnostic stands under its span as a terminal shows the line.

Characters a terminal shows two columns wide (CJK, most emoji) and ones it shows
in none (a combining accent, a zero-width space) came before the span counted as
one column each, so the caret stood left or right of the word it names. The
column in ``file:line:col`` still counts characters, as editors do."""

from __future__ import annotations

from referee import dsl
from referee.dsl.errors import render


def _rendered(rules: str) -> tuple[str, str, str]:
    try:
        dsl.parse_rules(rules, "case.rules")
    except dsl.RulesError as err:
        head, source, caret = render(err.diagnostics[0]).split("\n")[:3]
        return head, source, caret
    raise AssertionError("no diagnostic")


def _under(source: str, caret: str) -> str:
    """The text the caret stands under, as a terminal lays the two lines out."""
    import unicodedata

    cells = []
    for char in source:
        width = 0 if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf") else (
            2 if unicodedata.east_asian_width(char) in ("W", "F") else 1)
        cells.extend([char] + [""] * (width - 1) if width else [])
        if not width and cells:
            cells[-1] += char
    start = len(caret) - len(caret.lstrip(" "))
    return "".join(cells[start:start + len(caret.strip())])


def test_a_caret_after_wide_characters_stands_under_its_word():
    head, source, caret = _rendered('eval 1\nexpect 1: "日本語" == "x" and any call to "x"\n')
    assert head.startswith("case.rules:2:32:")
    assert _under(source, caret) == "call"


def test_a_caret_after_emoji_and_zero_width_characters_stands_under_its_word():
    _, source, caret = _rendered('eval 1\nexpect 1: "😀\u200be\u0301" == "x" and any call to "x"\n')
    assert _under(source, caret) == "call"


def test_a_caret_under_a_wide_word_covers_it():
    _, source, caret = _rendered('eval 1\nexpect 1: any 呼び出し to "x"\n')
    assert caret.strip() != "" and _under(source, caret).startswith("呼")


def test_a_caret_after_ascii_is_as_before():
    _, source, caret = _rendered('eval 1\nexpect 1:\tany call to "x"\n')
    assert _under(source, caret) == "call"
