"""The ``referee`` object of an eval in evals.json holds ``let`` and ``checks``; any
other key (``check``, expectation numbers written directly under it) is an error
at its line, never checks silently left out, which would leave every sentence to
the LLM grader while ``referee check`` said the file was fine."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

EVALS = """{
  "skill_name": "s",
  "evals": [
    {
      "id": 1,
      "prompt": "p",
      "expectations": ["a", "b"],
      "referee": {
        "let": {},
        %s: {"1": "response contains \\"x\\""}
      }
    }
  ]
}
"""


def check(tmp_path: Path, capsys, key: str) -> tuple[int, str]:
    evals = tmp_path / "evals.json"
    evals.write_text(EVALS % key, encoding="utf-8")
    code = main(["check", "--evals", str(evals)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_an_unknown_key_is_an_error_at_its_line(tmp_path, capsys):
    code, out = check(tmp_path, capsys, '"check"')
    assert code == 1
    assert "evals.json:10:" in out and "error[bad-evals]" in out and '"check"' in out


def test_let_and_checks_are_read(tmp_path, capsys):
    code, out = check(tmp_path, capsys, '"checks"')
    assert code == 0 and "1 assertion" in out
