"""benchmark.md writes the names it takes from a workspace (configurations, evals,
assertions, paths) as text: a ``|`` in a name keeps the table's columns, ``*`` or
``[..](..)`` adds no emphasis or link, a backtick does not end a code span, and a
line break starts no block of its own."""

from __future__ import annotations

import re
from pathlib import Path

from named_example import named_example
from referee.engine.cli import main

BASELINE = "old a|b *em* [x](y) `c"
# A cell boundary: a "|" not escaped by a backslash (itself not escaped).
CELL_BOUNDARY = re.compile(r"(?<!\\)(?:\\\\)*\|")


def _benchmark(tmp_path: Path, baseline: str = BASELINE, eval_name: str | None = None) -> str:
    ws, evals = named_example(tmp_path, baseline, eval_name, primary="new_skill")
    assert main(["aggregate", str(ws), "--evals", str(evals), "--primary", "new_skill",
                 "--baseline", baseline]) in (0, 1, 3)
    return (ws / "benchmark.md").read_text(encoding="utf-8")


def _tables(text: str) -> list[list[str]]:
    tables, current = [], []
    for line in text.split("\n"):
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables + ([current] if current else [])


def test_a_pipe_in_a_configuration_name_keeps_every_table_s_columns(tmp_path):
    # Input: the baseline configuration's folder is named "old a|b *em* [x](...) `c";
    # benchmark.md wrote it raw in the table heads, so each head had one column more
    # than its rows.
    text = _benchmark(tmp_path)
    tables = _tables(text)
    assert len(tables) >= 3
    for table in tables:
        widths = {len(CELL_BOUNDARY.findall(row)) for row in table}
        assert len(widths) == 1, table


def test_a_configuration_name_adds_no_markup(tmp_path):
    text = _benchmark(tmp_path)
    # the code span that names the baseline holds the whole name, backtick included
    span = "baseline: ``old a|b *em* [x](y) `c``"
    assert span in text
    rest = text.replace(span, "")
    assert "*em*" not in rest.replace("\\*em\\*", "")
    assert "[x](y)" not in rest.replace("\\[x\\](y)", "")


def test_a_line_break_in_an_eval_name_starts_no_heading(tmp_path):
    # Input: eval_metadata.json's eval_name "book\n# PASS"; a heading line of its own
    # would read as benchmark.md's.
    text = _benchmark(tmp_path, baseline="without_skill", eval_name="book\n# PASS")
    assert "\n# PASS" not in text
    assert "| 1 book # PASS |" in text
