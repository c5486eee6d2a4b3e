"""code(x) reads every code block a reader sees (engine/checks/codeblocks.py); the
cases of each kind are in tests/conformance/verdicts-code-blocks.yaml. Here: its
blocks are made of the text's own lines, and where a text puts no code in a list,
a quote or an indented block, it reads the fences as a plain toggle does."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from referee.engine.checks import markdown_lines
from referee.engine.checks.codeblocks import _expand, code_blocks

PIECES = ["```", "~~~", "````", "```sh", "    ```", "  - ```", "- item", "1. step", "    code", "  text",
          "> ```", "> ls", "<!--", "-->", "", "\t```", "text", "# A", "      ```", "\tx"]


def _blocks(text: str):
    return code_blocks(markdown_lines.marked_lines(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("\n".join))
def test_every_line_of_a_block_is_the_end_of_the_line_it_stands_on(text):
    lines = text.split("\n")
    for block in _blocks(text):
        assert 0 <= block.first < max(len(lines), 1)
        for offset, shown in enumerate(block.lines):
            assert _expand(lines[block.first + offset]).endswith(shown), (block, lines)


FLAT = [p for p in PIECES if p and not p[0].isspace() and not p.startswith((">", "-", "1.", "<!--"))] + [""]


def _toggled(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """Fences at the start of a line, read as a toggle: what code() read before lists,
    quotes and indented blocks were read too (a text that has none of them)."""
    blocks: list[tuple[int, list[str]]] = []
    fence = None
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # a final line break ends the last line, as textparts reads it
    for number, line in enumerate(lines):
        found = re.match(r"(`{3,}|~{3,})", line)
        if fence is None and found:
            fence = found.group(1)
            blocks.append((number + 1, []))
        elif fence is not None and found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence) \
                and not line.strip("`~"):
            fence = None
        elif fence is not None:
            blocks[-1][1].append(line)
    return [(first if lines else first - 1, tuple(lines)) for first, lines in blocks]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FLAT), max_size=14).map("\n".join))
def test_a_text_of_flat_lines_reads_its_fences_as_a_toggle(text):
    assert [(b.first, b.lines) for b in _blocks(text)] == _toggled(text)


def test_quotes_ten_thousand_deep_are_read_without_a_deep_stack():
    # Read one level at a time, each quote is a reader of its own: ten thousand ">"
    # stopped the grade with a RecursionError. Past MAX_QUOTE_DEPTH, the rest at once.
    text = ">" * 10_000 + " ```\n" + ">" * 10_000 + " rm -rf /\n"
    assert [(b.first, b.lines) for b in _blocks(text)] == [(1, ("rm -rf /",))]
