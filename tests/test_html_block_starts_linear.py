"""Hostile runs of the tags that open an HTML block a blank line ends (``<div>``, a lone
``<span b=c>``), read by code() (engine/checks/html_block_starts.py, codeblocks.py), take
a time linear in their length: attributes never closed, fences inside the block, tags
opening every line."""

from __future__ import annotations

import pytest

from linear_time import code_seconds, grows_linearly
from referee.engine.values import Prov

UNITS = [" b=c", " b='", "<div>\n```\n", "<span b=c>\n\n", "- <details>\n  ~~~\n", "<a\t", "</x "]


def _time(unit: str, n: int) -> float:
    return code_seconds("<a" + unit * n + "\n" + unit * n, Prov("response", "r.md", "r.md", 1))


@pytest.mark.parametrize("unit", UNITS)
def test_html_block_starts_take_a_time_linear_in_their_length(unit: str):
    grows_linearly(lambda n: _time(unit, n))
