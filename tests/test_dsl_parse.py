"""parse(source) == the expected syntax tree, for every construct of the language."""

from __future__ import annotations

from decimal import Decimal

import pytest

from referee import dsl
from referee.dsl.ast import (
    And, ArrayLit, Before, Between, Compare, EachDistinct, Emptiness, Exists, Expect, Field, Filtered,
    FuncCall, Includes, InOrder, JsonPathExpr, Let, Literal, Member, NamePattern, NameRef, Not,
    ObjectLit, Only, Or, PathExpr, Quantified, RegexLit, Selection, Semantic, Source, StatusFilter,
    StepFilter, TextTest, ToolFilter, Truthy, WhereFilter,
)

CALLS = Selection(Source("calls"))
RESPONSE = Selection(Source("response"))


def rel(*keys):
    return PathExpr(None, tuple(Field(k) for k in keys))


def lit(v):
    return Literal(v)


def calls(*filters):
    return Selection(Source("calls"), tuple(filters))


def to(text, kind="exact", flags=""):
    return ToolFilter(NamePattern(kind, text, flags))


VALUES = [
    ('"text"', lit("text")),
    (r'"a\"b\\c\n\u00e9"', lit('a"b\\c\né')),
    ("12", lit(12)),
    ("-3.5", lit(Decimal("-3.5"))),
    ("1e3", lit(Decimal("1e3"))),
    ("true", lit(True)),
    ("false", lit(False)),
    ("null", lit(None)),
    ("[1, \"a\"]", ArrayLit((lit(1), lit("a")))),
    ("[]", ArrayLit(())),
    ('{"k": 1, "n": {"x": null}}',
     ObjectLit((("k", lit(1)), ("n", ObjectLit((("x", lit(None)),)))))),
    ("{}", ObjectLit(())),
    ("amount", NameRef("amount")),
    ("count_x", NameRef("count_x")),
    ("saved.args.x", PathExpr(NameRef("saved"), (Field("args"), Field("x")))),
    ('saved["a b"][0][-1]', PathExpr(NameRef("saved"), (Field("a b"), Field(0), Field(-1)))),
    (".args.docStatus", rel("args", "docStatus")),
    (".count", rel("count")),
    (".status.return.step", rel("status", "return", "step")),
    (".", PathExpr(None, ())),
    ('.["x y"]', rel("x y")),
    (".[0]", rel(0)),
    ("count(calls)", FuncCall("count", (CALLS,))),
    ("first(calls).return.body",
     PathExpr(FuncCall("first", (CALLS,)), (Field("return"), Field("body")))),
    ("f()", FuncCall("f", ())),
    ('jsonpath(x, "$..amount")', JsonPathExpr(NameRef("x"), "$..amount")),
    ('jsonpath("$..a")', JsonPathExpr(None, "$..a")),
    ("jsonpath(x)", FuncCall("jsonpath", (NameRef("x"),))),
    ("calls", CALLS),
    ("notes", Selection(Source("notes"))),
    ("response", RESPONSE),
    ("outputs", Selection(Source("outputs"))),
    ("metrics.total_steps", PathExpr(Selection(Source("metrics")), (Field("total_steps"),))),
    ("timing", Selection(Source("timing"))),
    ("metadata", Selection(Source("metadata"))),
    ('file "a/b.txt"', Selection(Source("file", "a/b.txt", "text"))),
    ('file "s.csv" as csv', Selection(Source("file", "s.csv", "csv"))),
    ('file "d.json" as json', Selection(Source("file", "d.json", "json"))),
    ('file "x" as lines', Selection(Source("file", "x", "lines"))),
    ('calls to "Bash"', calls(to("Bash"))),
    ('calls to glob "*save*"', calls(to("*save*", "glob"))),
    ("calls to /sav\\/e/mi", calls(to("sav/e", "regex", "im"))),
    ("calls to /a/xi", calls(to("a", "regex", "ix"))),
    ("calls with status success", calls(StatusFilter("success"))),
    ("calls with status timeout", calls(StatusFilter("timeout"))),
    ("notes at step 3", Selection(Source("notes"), (StepFilter(3),))),
    ("calls where .ok", calls(WhereFilter(Truthy(rel("ok"))))),
    ('calls with status error to "x" at step 2',
     calls(StatusFilter("error"), to("x"), StepFilter(2))),
]


@pytest.mark.parametrize("source,expected", VALUES, ids=[v[0] for v in VALUES])
def test_values(source, expected):
    assert dsl.parse_value(source) == expected


CONDITIONS = [
    ("a == 1", Compare("==", NameRef("a"), lit(1))),
    ("a != 1", Compare("!=", NameRef("a"), lit(1))),
    ("a < 1", Compare("<", NameRef("a"), lit(1))),
    ("a <= 1", Compare("<=", NameRef("a"), lit(1))),
    ("a > 1", Compare(">", NameRef("a"), lit(1))),
    ("a >= 1", Compare(">=", NameRef("a"), lit(1))),
    ('a == "X" ignoring case', Compare("==", NameRef("a"), lit("X"), True)),
    ("a between 1 and 5", Between(NameRef("a"), lit(1), lit(5))),
    ('response contains "x"', TextTest("contains", RESPONSE, lit("x"))),
    ('response contains "x" ignoring case', TextTest("contains", RESPONSE, lit("x"), True)),
    ('a starts with "x"', TextTest("starts_with", NameRef("a"), lit("x"))),
    ('a ends with "x" ignoring case', TextTest("ends_with", NameRef("a"), lit("x"), True)),
    ("a matches /x+/i", TextTest("matches", NameRef("a"), RegexLit("x+", "i"))),
    ("a fully matches /\\d+/", TextTest("fully_matches", NameRef("a"), RegexLit("\\d+"))),
    ('a matches "x"', TextTest("matches", NameRef("a"), lit("x"))),
    ('a includes {"k": [1]}',
     Includes(NameRef("a"), ObjectLit((("k", ArrayLit((lit(1),))),)))),
    ("response is empty", Emptiness(RESPONSE, False)),
    ("response is not empty", Emptiness(RESPONSE, True)),
    ('exists file "x"', Exists(Selection(Source("file", "x")))),
    ("any calls", Quantified("any", None, CALLS)),
    ("all calls have .ok", Quantified("all", None, CALLS, Truthy(rel("ok")))),
    ('no calls to "x"', Quantified("no", None, calls(to("x")))),
    ("exactly 2 calls have .a == 1",
     Quantified("exactly", 2, CALLS, Compare("==", rel("a"), lit(1)))),
    ("any calls have (.a == 1 and .b == 2)",
     Quantified("any", None, CALLS,
                And((Compare("==", rel("a"), lit(1)), Compare("==", rel("b"), lit(2)))))),
    ("any calls have .a == 1 and .b == 2",
     And((Quantified("any", None, CALLS, Compare("==", rel("a"), lit(1))),
          Compare("==", rel("b"), lit(2))))),
    ('calls to "a" before response', Before(calls(to("a")), RESPONSE)),
    ('any calls to "a" before response', Before(calls(to("a")), RESPONSE)),
    ('in order [calls to "a", calls to "b"]', InOrder((calls(to("a")), calls(to("b"))))),
    ('exactly in order [calls to "a"]', InOrder((calls(to("a")),), True)),
    ('each of [calls to "a", notes]',
     EachDistinct((calls(to("a")), Selection(Source("notes"))))),
    ('semantic "Is it friendly?"', Semantic("Is it friendly?")),
    (".valid", Truthy(rel("valid"))),
    ("not a", Not(Truthy(NameRef("a")))),
    ("not not a", Not(Not(Truthy(NameRef("a"))))),
    ("a and b and c", And((Truthy(NameRef("a")), Truthy(NameRef("b")), Truthy(NameRef("c"))))),
    ("a or b and c", Or((Truthy(NameRef("a")),
                         And((Truthy(NameRef("b")), Truthy(NameRef("c"))))))),
    ("not a and b", And((Not(Truthy(NameRef("a"))), Truthy(NameRef("b"))))),
    ("(a or b) and c", And((Or((Truthy(NameRef("a")), Truthy(NameRef("b")))),
                            Truthy(NameRef("c"))))),
    ("a or (b or c)", Or((Truthy(NameRef("a")),
                          Or((Truthy(NameRef("b")), Truthy(NameRef("c"))))))),
    ("count(calls) == 1", Compare("==", FuncCall("count", (CALLS,)), lit(1))),
    ('a in [1, 2]', Member(NameRef("a"), ArrayLit((lit(1), lit(2))))),
    ('a not in b ignoring case', Member(NameRef("a"), NameRef("b"), True, True)),
    ("all calls have .tool in t", Quantified("all", None, CALLS, Member(rel("tool"), NameRef("t")))),
    ('a matches {"k": [1, /x/]}',
     TextTest("matches", NameRef("a"), ObjectLit((("k", ArrayLit((lit(1), RegexLit("x")))),)))),
    # `where` over any list value, where a list is taken whole.
    ('count(lines(r) where . != "") == 1',
     Compare("==", FuncCall("count", (Filtered(FuncCall("lines", (NameRef("r"),)),
                                               Compare("!=", PathExpr(None, ()), lit(""))),)), lit(1))),
    ("any a where not .x have .y",
     Quantified("any", None, Filtered(NameRef("a"), Not(Truthy(rel("x")))), Truthy(rel("y")))),
    ("exists a where .x where .y",
     Exists(Filtered(Filtered(NameRef("a"), Truthy(rel("x"))), Truthy(rel("y"))))),
    # ... but at the end of a comparison `where` is still the selection's filter.
    ("calls where .a == 1 where .b == 2",
     Truthy(calls(WhereFilter(Compare("==", rel("a"), lit(1))),
                  WhereFilter(Compare("==", rel("b"), lit(2)))))),
    # let names and single steps where a selection goes; `only`.
    ("saves before response", Before(NameRef("saves"), RESPONSE)),
    ('first(calls to "a") before b', Before(FuncCall("first", (calls(to("a")),)), NameRef("b"))),
    ('in order [a, calls to "x"]', InOrder((NameRef("a"), calls(to("x"))))),
    ('each of [a, b]', EachDistinct((NameRef("a"), NameRef("b")))),
    ('only [calls to "Read", readers]', Only((calls(to("Read")), NameRef("readers")))),
    # `where` and `have` take a negated atom as people write it.
    ("any calls have not (.a == 1)",
     Quantified("any", None, CALLS, Not(Compare("==", rel("a"), lit(1))))),
    ('calls where not .status == "error" is empty',
     Emptiness(calls(WhereFilter(Not(Compare("==", rel("status"), lit("error"))))), False)),
    ("no calls have not not .ok and b",
     And((Quantified("no", None, CALLS, Not(Not(Truthy(rel("ok"))))), Truthy(NameRef("b"))))),
    # A `where` condition takes the longest predicate: the inner `calls` gets `to`.
    ('calls where .a == calls to "x"',
     Truthy(calls(WhereFilter(Compare("==", rel("a"), calls(to("x"))))))),
]


@pytest.mark.parametrize("source,expected", CONDITIONS, ids=[c[0] for c in CONDITIONS])
def test_conditions(source, expected):
    assert dsl.parse_condition(source) == expected


def test_whitespace_and_comments_are_insignificant():
    spread = 'count(  # how many\n  calls to   glob "*x*"\n)\n==\n1'
    assert dsl.parse_condition(spread) == dsl.parse_condition('count(calls to glob "*x*") == 1')


def test_rules_file_statements():
    text = (
        '# comment\neval 1 "expense-draft"\n'
        "let amount = first(calls).return.amount\n"
        'expect 1 "called once":\n  count(calls) == 1\n'
        "expect 2: response is not empty\n"
        'expect 8 "friendly"\n'
        'expect "friendly": semantic "Is it friendly?"\n'
        "expect: .ok\n"
        'eval "sales" expect 1: exists file "s.csv"\n'
    )
    tree = dsl.parse_rules(text, "r.rules")
    first, second = tree.evals
    assert (first.key, first.name) == ("1", "expense-draft")
    assert first.lets == (Let("amount", PathExpr(FuncCall("first", (CALLS,)),
                                                 (Field("return"), Field("amount")))),)
    assert first.expects == (
        Expect(1, "called once", Compare("==", FuncCall("count", (CALLS,)), lit(1))),
        Expect(2, None, Emptiness(RESPONSE, True)),
        Expect(8, "friendly", None),
        Expect(None, "friendly", Semantic("Is it friendly?")),
        Expect(None, None, Truthy(rel("ok"))),
    )
    assert (second.key, second.name) == ("sales", None)
    assert second.expects == (Expect(1, None, Exists(Selection(Source("file", "s.csv")))),)


def test_expect_source_is_the_check_text_as_written():
    text = 'eval 1\nexpect 1:  count(calls)\n   == 1   # trailing comment\nexpect 2: (a)\n'
    first, second = dsl.parse_rules(text).evals[0].expects
    assert first.source == "count(calls)\n   == 1"
    assert second.source == "(a)"


def test_spans_point_at_the_source():
    text = 'eval 1\n\nexpect 1: response contains "x"\n'
    check = dsl.parse_rules(text).evals[0].expects[0].check
    assert (check.span.line, check.span.column) == (3, 11)
    assert (check.span.end_line, check.span.end_column) == (3, 32)
    assert text[check.span.start_pos:check.span.end_pos] == 'response contains "x"'
    operand = check.operand
    assert (operand.span.line, operand.span.column, operand.span.end_column) == (3, 29, 32)


def test_spans_of_statements_on_one_line():
    text = 'eval 1 expect 1: a == 1 expect 2: b == 2'
    expects = dsl.parse_rules(text).evals[0].expects
    assert [e.source for e in expects] == ["a == 1", "b == 2"]
    assert [(e.check.span.line, e.check.span.column) for e in expects] == [(1, 18), (1, 35)]


def test_numbers_are_int_or_decimal():
    assert type(dsl.parse_value("10").value) is int
    assert dsl.parse_value("168.00").value == Decimal("168.00")
    assert str(dsl.parse_value("168.00").value) == "168.00"


def test_keywords_are_fields_after_a_dot_and_not_names():
    assert dsl.parse_value("x.count.status.where.eval") == PathExpr(
        NameRef("x"), tuple(Field(k) for k in ("count", "status", "where", "eval")))
    assert dsl.parse_rules("eval 1 let count_x = 1 let status_y = 2").evals[0].lets == (
        Let("count_x", lit(1)), Let("status_y", lit(2)))


def test_the_expense_rules_parse():
    from pathlib import Path
    here = Path(__file__).resolve().parents[1] / "rules" / "expense-draft.rules"
    text = here.read_text() if here.exists() else EXPENSE
    tree = dsl.parse_rules(text, "expense-draft.rules")
    assert [e.key for e in tree.evals] == ["1", "2"]


EXPENSE = '''eval 1 "expense-draft"
let invoice_amount = first(calls to glob "*getInvoiceInfo" with status success).return.body.amount
let saved          = last(calls to glob "*saveExpenseDoc" with status success)
expect 1: count(calls to glob "*saveExpenseDoc") == 1
expect 2: any calls to glob "*saveExpenseDoc" with status success have .args.docStatus == "10"
expect 3: saved.args.fdApplyMoney == invoice_amount
expect 5: not response contains "{fdId}"
expect 8      # semantic
eval 2 "sales-summary"
expect 3: any file "summary.csv" as csv where .region == "North" have number(.total) == 1250
expect 4: any calls to "Bash" with status success before response
'''


def test_format_round_trip_of_every_case():
    for source, expected in CONDITIONS:
        printed = dsl.format_condition(expected)
        assert dsl.parse_condition(printed) == expected, printed
    for source, expected in VALUES:
        printed = dsl.format_value(expected)
        assert dsl.parse_value(printed) == expected, printed


def test_format_parenthesises_a_greedy_where():
    tree = Emptiness(calls(WhereFilter(Truthy(rel("x")))), False)
    printed = dsl.format_condition(tree)
    assert printed == "calls where (.x) is empty"
    assert dsl.parse_condition(printed) == tree
