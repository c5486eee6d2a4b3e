"""Hostile runs of markup in an HTML file read by code() (engine/checks/html_file_code.py)
take a time linear in their length: tags and quoted values left open, many <pre>
elements, hiding elements and comments never closed."""

from __future__ import annotations

import pytest

from linear_time import code_seconds, grows_linearly
from referee.engine.values import Prov

UNITS = ["<pre>x</pre>\n", "<a b='", "<pre>", "<script>", "<!--", "<!-- <pre> -->", "</pre ", "<a", "<?x",
         "<dialog><pre>", "<p>\n"]


def _time(unit: str, n: int) -> float:
    return code_seconds("<p>" + unit * n + "\n" + unit * n, Prov("outputs", "page.html", "outputs/page.html", 1))


@pytest.mark.parametrize("unit", UNITS)
def test_html_file_code_takes_a_time_linear_in_its_length(unit: str):
    grows_linearly(lambda n: _time(unit, n))
