"""Hostile numbers: huge exponents, endless digits, NaN and the infinities.

Each number is read, compared and printed in bounded time and memory: one too
large to handle is refused where it is read, with a message that says so; NaN
and Infinity give verdicts in the language's words, never Python's exception text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal

from hypothesis import example, given, strategies as st

from budget_corpus import make_run, verdicts
from referee.engine.run.safejson import MAX_NUMBER_CHARS, parse_json
from referee.engine.values import PLAIN_NUMBER_CHARS, canonical_number, render
from referee.engine.verdict import Outcome

HUGE = ["1e-999999999", "1e999999999", "-1E+99999999999999999999", "1" + "0" * 5000,
        "0." + "0" * 2000 + "1"]


def _rules(*checks: str) -> str:
    lines = ['eval 1 "task"', 'let data = file "data.json" as json']
    lines += [f"expect {n}: {check}" for n, check in enumerate(checks, 1)]
    return "\n".join(lines) + "\n"


def test_huge_numbers_are_refused_where_read():
    for text in HUGE:
        result = parse_json('{"a": 1,\n "x": ' + text + "}", "args.json")
        assert not result.ok
        assert result.problem.line == 2
        assert "is out of range" in result.problem.message
        assert "the JSON was not read" in result.problem.message


def test_ordinary_numbers_still_read_exactly():
    value = parse_json('[168.00, 1e3, -0.5, 1E+9999, 1e-9999, 12345678901234567890]', "x.json").value
    assert value == [Decimal("168.00"), Decimal("1e3"), Decimal("-0.5"), Decimal("1E+9999"),
                     Decimal("1e-9999"), 12345678901234567890]
    assert parse_json("[" + "9" * MAX_NUMBER_CHARS + "]", "x.json").ok


def test_huge_exponent_in_args_and_data_gives_verdicts(tmp_path):
    args = json.dumps({"amount": 5}).replace("5", "1e-999999999")
    make_run(tmp_path, calls=[("pay", args, '{"ok": true}', "success")],
             files={"data.json": '{"v": 1e999999999}'})
    rules = _rules("first(calls).args.amount > 0", "data.v > 1",
                   "count(calls) < 1e999999999", "count(calls) == 1e-999999999")
    amount, data, below, equal = verdicts(tmp_path, rules)
    assert amount.outcome is not Outcome.PASS
    assert data.outcome is Outcome.ERROR
    assert "number 1e999999999 is out of range" in data.message
    assert below.outcome is Outcome.PASS
    assert equal.outcome is Outcome.FAIL
    assert "expected 1E-999999999" in equal.message


def test_nan_and_infinity_give_clear_verdicts(tmp_path):
    args = '{"x": NaN, "up": Infinity, "down": -Infinity, "list": [NaN, Infinity]}'
    make_run(tmp_path, calls=[("t", args, "{}", "success")], files={"data.json": '{"v": NaN}'})
    rules = _rules("first(calls).args.x > 0", "data.v between 0 and 1",
                   "first(calls).args.up > 5", "first(calls).args.down < -5",
                   "first(calls).args.x == 1", "first(calls).args.list == [1]",
                   "all calls have .args.x >= 0")
    got = verdicts(tmp_path, rules)
    outcomes = [v.outcome for v in got]
    assert outcomes == [Outcome.ERROR, Outcome.ERROR, Outcome.PASS, Outcome.PASS,
                        Outcome.FAIL, Outcome.FAIL, Outcome.ERROR]
    for verdict in got:
        assert "InvalidOperation" not in verdict.message and "Error" not in verdict.message
    assert "NaN (not a number) has no order, so '>' cannot hold or fail" in got[0].message
    assert "is [NaN,Infinity]" in got[5].message


def test_grade_and_show_print_nan_and_huge_numbers(tmp_path):
    run = make_run(tmp_path / "ws", calls=[("t", '{"x": NaN}', '{"r": 1e9999}', "success")])
    (run / "timing.json").write_text('{"total_tokens": NaN, "duration_ms": 1E+9999}')
    rules = tmp_path / "r.rules"
    rules.write_text(_rules("first(calls).return.r > 1", "first(calls).args.x < 1"))
    grade = subprocess.run([sys.executable, "-m", "referee.engine.cli", "grade", str(tmp_path / "ws"),
                            "--rules", str(rules)], capture_output=True, text=True)
    assert grade.returncode == 1, grade.stderr
    assert "internal error" not in grade.stderr
    report = json.loads((run / "grading.json").read_text())
    assert [e["outcome"] for e in report["expectations"]] == ["pass", "error"]
    # not a number a consumer can add up: left out of timing, and said
    assert "duration_ms" not in report["timing"] and "total_tokens" not in report["timing"]
    assert any("timing.json" in p and "duration_ms" in p for p in report["problems"]), report["problems"]
    show = subprocess.run([sys.executable, "-m", "referee.engine.cli", "show", str(run)],
                          capture_output=True, text=True)
    assert show.returncode == 0, show.stderr
    assert 'duration_ms="1E+9999"' in show.stdout


@given(st.decimals(allow_nan=True, allow_infinity=True))
def test_printing_a_number_is_bounded_by_its_digits(number):
    text = canonical_number(number)
    digits = len(number.as_tuple().digits) if number.is_finite() else 0
    assert len(text) <= max(PLAIN_NUMBER_CHARS, digits + 30)
    assert len(render([number])) <= max(PLAIN_NUMBER_CHARS, digits + 30) + 4


def test_huge_python_ints_print_with_an_exponent():
    huge = canonical_number(10 ** 5000)  # str() refuses ints beyond 4300 digits
    assert huge.startswith("1.000") and huge.endswith("E+5000")
    assert canonical_number(-(10 ** 20)) == "-100000000000000000000"


JSON_NUMBERS = st.from_regex(r"-?(0|[1-9][0-9]{0,40})(\.[0-9]{1,40})?([eE][+-]?[0-9]{1,25})?", fullmatch=True)


@given(JSON_NUMBERS)
@example("0.0000E-55")  # all its digits after the point: "0." and 59 zeros, one over the limit
def test_any_json_number_is_read_or_refused_never_raised(text):
    result = parse_json(f'{{"n": {text}}}', "x.json")
    if result.ok:
        number = result.value["n"]
        assert len(canonical_number(number)) <= max(PLAIN_NUMBER_CHARS, len(text) + 30)
    else:
        assert "is out of range" in result.problem.message
