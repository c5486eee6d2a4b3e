"""A failed ``where`` or ``have`` names the field that differed in the call that
came closest to passing, not in the first call."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = """## [tool_calls] Step 1: search
Tool: search
Args: {"origin": "Zurich", "destination": "Paris", "date": "2026-01-01"}
Status: success

## [tool_calls] Step 2: search
Tool: search
Args: {"origin": "ZRH", "destination": "LIS", "date": "14.05.2026"}
Status: success
"""
WANT = '.args.origin == "ZRH" and .args.destination == "LIS" and .args.date == "2026-05-14"'
RULES = f"""eval 1 "x"
expect "have": any calls to "search" have ({WANT})
expect "includes": any calls to "search" have .args includes {{"origin": "ZRH", "destination": "LIS", "date": "2026-05-14"}}
expect "where": first(calls to "search" where ({WANT})).args.date == "2026-05-14"
"""


def _evidence(tmp_path: Path, capsys) -> list[str]:
    out = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1" / "outputs"
    out.mkdir(parents=True)
    (out / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (tmp_path / "r.rules").write_text(RULES, encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules"), "--check", "--json"]) == 1
    return [e["evidence"] for e in json.loads(capsys.readouterr().out)["runs"][0]["expectations"]]


def test_the_nearest_call_is_named_first(tmp_path: Path, capsys):
    have, includes, where = _evidence(tmp_path, capsys)
    assert have.startswith('none of the 2 calls to "search" passes (closest first): '
                           'step 2 search args.date is "14.05.2026"')
    assert 'passes (closest first): step 2 search args: date is "14.05.2026"' in includes
    assert '(closest: step 2 search args.date is "14.05.2026" (transcript.md:8), expected "2026-05-14")' in where
