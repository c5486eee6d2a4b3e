"""Work that grows with the run stays within a per-assertion budget, or is stopped by it.

Thousands of calls under ``all calls have`` are graded within the default budget
(100,000 calls is the benchmarks' scale); a JSONPath query that walks a document once per
ancestor, a huge result set and an ``includes`` of two long lists are stopped
with an ERROR naming the budget. Verdicts only: no test measures time.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from budget_corpus import make_run, rules_for, verdicts
from referee.engine.budget import Limits
from referee.engine.checks import functions, markdown_lines, textparts
from referee.engine.values import Val
from referee.engine.verdict import Outcome

CALLS = 5_000


def test_thousands_of_calls_are_graded(tmp_path):
    calls = [("save", '{"n": 1}', '{"ok": true}', "success")] * CALLS
    make_run(tmp_path, calls=calls)
    rules = rules_for('all calls have .status == "success"',
                      'no calls have .status == "error"',
                      f'exactly {CALLS} calls have .args.n == 1',
                      'all calls to "save" have .return.ok == true')
    got = verdicts(tmp_path, rules)
    assert [v.outcome for v in got] == [Outcome.PASS] * 4, [v.message[:200] for v in got]
    assert got[0].message.startswith(f"all {CALLS} calls pass")


def test_calls_past_a_smaller_step_budget_are_an_error(tmp_path):
    calls = [("save", '{"n": 1}', '{"ok": true}', "success")] * 2_000
    make_run(tmp_path, calls=calls)
    (verdict,) = verdicts(tmp_path, rules_for('all calls have .status == "success"'),
                          limits=Limits(steps=1_000))
    assert verdict.outcome is Outcome.ERROR
    assert verdict.message == ("stopped: this assertion exceeded its budget of 1,000 steps of "
                               "work (examining elements one by one)")


def _deep(depth: int) -> object:
    value: object = list(range(20))
    for level in range(depth):
        value = {"inner": value, "level": [level, {"x": 1}]}
    return value


def test_jsonpath_walk_is_stopped_by_the_step_budget(tmp_path):
    document = json.dumps([_deep(60) for _ in range(40)])
    make_run(tmp_path, files={"data.json": document})
    rules = rules_for('count(jsonpath(file "data.json" as json, "$..*..*")) > 0')
    (verdict,) = verdicts(tmp_path, rules, limits=Limits(steps=50_000))
    assert verdict.outcome is Outcome.ERROR
    assert verdict.message == ("stopped: this assertion exceeded its budget of 50,000 steps of "
                               "work (jsonpath '$..*..*')")


def test_jsonpath_result_count_is_bounded(tmp_path):
    make_run(tmp_path, files={"data.json": json.dumps(list(range(1_500)))})
    rules = rules_for('count(jsonpath(file "data.json" as json, "$..*")) > 0',
                      'count(jsonpath(file "data.json" as json, "$[0]")) == 1')
    stopped, small = verdicts(tmp_path, rules, limits=Limits(results=1_000))
    assert stopped.outcome is Outcome.ERROR
    assert stopped.message.startswith("stopped: jsonpath '$..*' selected 1,500 values, "
                                      "more than its budget of 1,000")
    assert small.outcome is Outcome.PASS


def test_includes_of_two_long_lists_is_stopped(tmp_path):
    items = [{"id": n, "tag": "x"} for n in range(300)]
    args = json.dumps({"items": items})
    make_run(tmp_path, calls=[("put", args, "{}", "success")],
             files={"want.json": json.dumps([{"tag": "x", "id": -n} for n in range(300)])})
    rules = rules_for('first(calls).args.items includes file "want.json" as json')
    (verdict,) = verdicts(tmp_path, rules, limits=Limits(steps=20_000))
    assert verdict.outcome is Outcome.ERROR
    assert "budget of 20,000 steps of work (matching list items for 'includes')" in verdict.message


# A text cut into pieces (words, numbers, lines, the lines a section is found in)
# spends a step per piece, counted before any piece is made.
@pytest.mark.parametrize("check, what", [
    ('count(words(response)) > 1', "taking 3,000 words of a text"),
    ('count(numbers(response)) > 1', "taking 3,000 numbers of a text"),
    ('count(lines(response)) > 1', "taking 3,000 lines of a text"),
    ('count(headings(response)) > 1', "reading 3,000 lines of text"),
    ('section(response, "Summary") contains "x"', "reading 3,000 lines of text"),
])
def test_a_text_of_more_pieces_than_the_budget_is_an_error_before_they_are_made(tmp_path, monkeypatch, check, what):
    make_run(tmp_path, response="12\n" * 3_000)  # 3,000 lines, words and numbers
    made = []
    monkeypatch.setattr(textparts, "Val", lambda *a, **k: made.append(a))  # no piece is made
    monkeypatch.setattr(functions, "Val", lambda *a, **k: made.append(a))
    (verdict,) = verdicts(tmp_path, rules_for(check), limits=Limits(steps=2_000))
    assert verdict.outcome is Outcome.ERROR
    assert what in verdict.message and "budget of 2,000 steps" in verdict.message, verdict.message
    assert made == []


def test_a_text_within_the_budget_is_cut_into_its_pieces(tmp_path):
    make_run(tmp_path, response="## Summary\n\nSaved 12 records, 3 failed.\n")
    rules = rules_for('count(words(response)) == 6', 'numbers(response) includes [12]',
                      'count(lines(response)) == 3', 'section(response, "Summary") contains "Saved"')
    got = verdicts(tmp_path, rules, limits=Limits(steps=50))
    assert [v.outcome for v in got] == [Outcome.PASS] * 4, [v.message for v in got]


@pytest.mark.parametrize("check", ['count(lines(response)) > 1', 'count(headings(response)) > 1'])
def test_lines_are_counted_before_the_text_is_cut(tmp_path, monkeypatch, check):
    make_run(tmp_path, response="12\n" * 3_000)
    cut = []
    monkeypatch.setattr(markdown_lines, "marked_lines", lambda text: cut.append(text))
    monkeypatch.setattr(functions, "_LINE_BREAK", type("Cut", (), {"split": lambda self, text: cut.append(text)})())
    (verdict,) = verdicts(tmp_path, rules_for(check), limits=Limits(steps=2_000))
    assert verdict.outcome is Outcome.ERROR and "budget of 2,000 steps" in verdict.message
    assert cut == []


@given(st.text(alphabet="a\r\n", max_size=12))
def test_a_text_has_the_lines_it_is_cut_into(text):
    assert markdown_lines.line_count(text) == len(markdown_lines.marked_lines(text))
    assert (markdown_lines.line_count(text) if text else 0) == len(functions.FUNCTIONS["lines"](Val(text, None)).value)


def test_a_budget_opened_inside_another_gives_it_back_when_it_ends():
    """Critique spends its budget between the assertions' own budgets: each assertion's
    budget, ended normally or by running out, leaves the critique's current again."""
    from referee.engine import budget

    with budget.active(Limits(steps=10)) as outer:
        with budget.active(Limits(steps=5)) as inner:
            budget.spend(3)
            assert budget.current() is inner
        with pytest.raises(budget.BudgetExceeded):
            with budget.active(Limits(steps=1)):
                budget.spend(2)
        assert budget.current() is outer
        budget.spend(4)
        assert (outer.steps, inner.steps) == (4, 3)
    assert budget.current() is None
