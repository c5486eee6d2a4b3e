"""Hostile runs of link markup (brackets unclosed, nested, shortcut labels defined, angle
destinations unclosed), of declarations, processing instructions and CDATA, and of
lines whose breaks are read, take a time linear in their length: ten times the text
takes about ten times as long, never a hundred."""

from __future__ import annotations

import time

import pytest

from linear_time import grows_linearly
from referee.engine.checks.markdown_seen import shown_as_markdown, shown_joined

UNITS = ["[", "]", "[a](", "[x] ", "](<", "[a [b](<", "[x][] ", "![a [", "[ ]: ",
         # declarations, processing instructions and CDATA, unclosed or each closed
         "<?", "<!a ", "<![CDATA[", "<?a?>", "<!a>", "?> <?"]


def _time(unit: str, n: int) -> float:
    text = unit * n + "\n\n[x]: u\n"
    began = time.process_time()
    shown_as_markdown(text)
    return time.process_time() - began


@pytest.mark.parametrize("unit", UNITS)
def test_link_markup_takes_a_time_linear_in_its_length(unit: str):
    grows_linearly(lambda n: _time(unit, n))


# Lines of a block quote in a list item, and of an HTML block, whose breaks are read.
LINES = {"deep quote in an item": lambda n: "- " + "> " * n + "a\n  " + ">" * n + " b\n",
         "many quoted items": lambda n: "- > a\n  > b\n" * n,
         "blanks before a marker": lambda n: " " * n + "- >\n" + " " * n + "> x\n",
         "an html block": lambda n: "<div>\n" + "a\n" * n}


def _joined_time(make, n: int) -> float:
    text = make(n)
    began = time.process_time()
    shown_joined(text)
    return time.process_time() - began


@pytest.mark.parametrize("name", sorted(LINES))
def test_line_breaks_take_a_time_linear_in_the_text(name: str):
    grows_linearly(lambda n: _joined_time(LINES[name], n))
