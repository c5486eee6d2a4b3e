"""A text whose lines end with a lone CR (as classic Mac OS and some Windows tools
write them) is cited as every other reader counts its lines (engine.text.file_lines):
the match's line, and a quote of that line alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_match_in_a_text_with_cr_line_ends_quotes_its_own_line(tmp_path: Path, end: str):
    # Input: response.md "line one<CR>line two<CR>secret here<CR>" and the check
    # `not response contains "secret"`. The failure cited response.md:3, but quoted
    # "line one\rline two\rsecret here": the quote was cut at "\n" alone.
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_bytes(end.join(["line one", "line two", "secret here", ""]).encode())
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "keeps it": not response contains "secret"\n', encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(rules)])
    (item,) = json.loads((run / "grading.json").read_text(encoding="utf-8"))["expectations"]
    assert item["outcome"] == "fail"
    assert item["evidence_location"][0]["line"] == 3
    assert item["evidence"].endswith('[at outputs/response.md:3: "secret here"]')
