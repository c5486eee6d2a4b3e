"""A check compiles (and is walked for its properties) with every let name written out
as its let's value, each use anew. A few lines of lets, each naming the one before
twice, came to millions of nodes (20 lets: a minute and half a gigabyte, 30: never
done); a long chain of lets nested deeper than the compiler's stack (an internal
error). Both are refused now, before anything is compiled: ``too-large``, at the check
and where the chain of lets crosses the limit."""

from __future__ import annotations

from pathlib import Path

from referee.dsl import parse_rules
from referee.engine.checks import static
from referee.engine.cli import main


def _check(tmp_path: Path, lines: list[str], capsys) -> tuple[int, str]:
    rules = tmp_path / "r.rules"
    rules.write_text("\n".join(["eval 1", *lines]) + "\n", encoding="utf-8")
    code = main(["check", str(rules)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_lets_that_double_at_each_step_are_refused(tmp_path, capsys):
    lets = ['let c0 = any calls have .tool == "x"'] + [f"let c{i} = c{i - 1} and c{i - 1}" for i in range(1, 40)]
    code, said = _check(tmp_path, [*lets, "expect 1: c39"], capsys)
    assert code == 1
    assert said.count("error[too-large]") == 2, said  # the check, and the let where the chain crosses the limit
    assert "r.rules:42:1: error[too-large]: this check, its let names written out, holds more than 20,000 parts" in said


def test_a_long_chain_of_condition_lets_is_refused_not_an_internal_error(tmp_path, capsys):
    lets = ['let c0 = calls to "x" is empty'] + [f"let c{i} = not c{i - 1}" for i in range(1, 300)]
    code, said = _check(tmp_path, [*lets, "expect 1: c299"], capsys)
    assert code == 1 and "please report" not in said
    assert "nests more than 150 levels deep" in said


def test_a_long_chain_of_value_lets_is_refused_not_an_internal_error(tmp_path, capsys):
    lets = ["let a0 = 1"] + [f"let a{i} = a{i - 1}" for i in range(1, 1500)]
    code, said = _check(tmp_path, [*lets, "expect 1: a1499 == 1"], capsys)
    assert code == 1 and "please report" not in said
    assert said.count("error[too-large]") == 2, said


def test_lets_as_people_write_them_compile(tmp_path, capsys):
    lets = ['let fetched = first(calls to "getRecord")', 'let saved = last(calls to "saveRecord")',
            "let same = saved.args.amount == fetched.return.amount", "let both = same and exists saved"]
    chain = ['let d0 = calls to "x" is empty'] + [f"let d{i} = not d{i - 1}" for i in range(1, 40)]
    code, said = _check(tmp_path, [*lets, *chain, "expect 1: both", "expect 2: d39",
                                   "expect 3: " + "not " * 99 + "exists response"], capsys)
    assert (code, said.strip()) == (0, "ok: 1 file, 3 assertions")


def test_extents_are_measured_once_a_let():
    source = "eval 1\nlet c0 = exists response\n" + "".join(
        f"let c{i} = c{i - 1} and c{i - 1}\n" for i in range(1, 2000)) + "expect 1: c1999\n"
    block = parse_rules(source, "r.rules").evals[0]
    lets = {let.name: let for let in block.lets}
    found = static.let_extents(lets)
    assert found["c0"] == static.Extent(3, 3)
    # an and, each operand a name read as a condition above its let's value
    assert [found[f"c{i}"].size for i in (1, 2)] == [1 + 2 * (2 + found[f"c{i - 1}"].size) for i in (1, 2)]
    assert found["c1999"].size > 2 ** 1999 and found["c1999"].too_large()
