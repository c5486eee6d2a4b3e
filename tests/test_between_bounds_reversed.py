"""``between`` with bounds written the wrong way round (``between 3 and 1``) never
holds on any run: a mistake the rules show as written, so ``check`` says so rather
than let every run fail it (and ``not ... between 3 and 1`` pass on every run)."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main


def _check(tmp_path: Path, condition: str, capsys) -> tuple[int, str]:
    rules = tmp_path / "r.rules"
    rules.write_text(f"eval 1\nexpect 1: {condition}\n", encoding="utf-8")
    code = main(["check", str(rules)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_bounds_the_wrong_way_round_are_an_error(tmp_path, capsys):
    code, said = _check(tmp_path, "count(calls) between 3 and 1", capsys)
    assert code == 1
    assert "error[bad-operand]: 'between 3 and 1': the low bound is above the high one, so it never holds" in said
    assert "help: write between 1 and 3" in said


def test_bounds_in_order_or_equal_or_not_both_known_compile(tmp_path, capsys):
    for condition in ("count(calls) between 1 and 3", "count(calls) between 2 and 2.0",
                      "count(calls) between -1e3 and 0", 'count(calls) between 3 and count(calls to "x")'):
        assert _check(tmp_path, condition, capsys)[0] == 0, condition
