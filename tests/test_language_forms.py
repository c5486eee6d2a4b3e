"""The forms that say what authors of text-producing skills mean: how they parse,
print back and compile. Their verdicts are in the conformance suite."""

from __future__ import annotations

import json

import pytest

from referee import dsl
from referee.dsl.ast import And, Compare, Field, Let, Literal, NameRef, PathExpr, RegexLit, TextTest
from referee.dsl.evals_json import loads_evals
from referee.engine.compile import check_rules, compile_rules


def rel(*keys):
    return PathExpr(None, tuple(Field(k) for k in keys))


def lets_of(text: str) -> tuple[Let, ...]:
    return dsl.parse_rules(text, "x.rules").evals[0].lets


# ------------------------------------------------------------ names for patterns


def test_a_let_names_a_regex():
    # Before, `let figure = /.../` read as "missing '=' after the name".
    (let,) = lets_of('eval 1\nlet figure = /\\b\\d+\\b/i\n')
    assert let == Let("figure", RegexLit("\\b\\d+\\b", "i")) and let.names == "pattern"


def test_a_let_names_a_condition_and_prints_back():
    text = 'eval 1\n\nlet ok = .status == "success" and .args.x == 1\n\nexpect: any calls have ok\n'
    tree = dsl.parse_rules(text, "x.rules")
    (let,) = tree.evals[0].lets
    assert let.value == And((Compare("==", rel("status"), Literal("success")),
                             Compare("==", rel("args", "x"), Literal(1))))
    assert let.names == "condition"
    assert dsl.format_rules(tree) == text.replace("\n\n\n", "\n\n")
    assert dsl.parse_rules(dsl.format_rules(tree), "x.rules") == tree


def test_a_bare_value_let_stays_a_value():
    (let,) = lets_of("eval 1\nlet n = count(calls)\n")
    assert let.names == "value"


def test_a_pattern_name_is_used_after_matches():
    tree = dsl.parse_rules("eval 1\nlet figure = /\\d+/\nexpect: response matches figure\n", "x.rules")
    assert tree.evals[0].expects[0].check == TextTest("matches", dsl.parse_value("response"),
                                                      NameRef("figure"))
    assert check_rules([tree]) == []


def test_evals_json_lets_name_patterns_and_conditions():
    text = json.dumps({"evals": [{"id": 1, "prompt": "p", "expectations": ["a", "b"], "referee": {
        "let": {"figure": "/\\d+/", "failed": '.status == "error"'},
        "checks": {"1": "response matches figure", "2": "no calls have failed"}}}]})
    evals = loads_evals(text, "evals.json")
    assert [let.names for let in evals.evals[0].rules.lets] == ["pattern", "condition"]
    assert compile_rules([], evals).evals[0].assertions[1].check is not None


@pytest.mark.parametrize("use, code", [
    ("count(ok) == 1", "bad-operand"),
    ("figure == 1", "bad-operand"),
    ("response matches n", "bad-operand"),
    ("response contains figure", "bad-operand"),
])
def test_a_name_used_as_what_it_does_not_name_is_an_error(use, code):
    text = f'eval 1\nlet ok = .status == "x"\nlet figure = /x/\nlet n = 1\nexpect: {use}\n'
    found = check_rules([dsl.parse_rules(text, "x.rules")])
    assert [d.code for d in found] == [code], found


def test_an_error_inside_a_named_condition_is_reported_once():
    text = 'eval 1\nlet ok = .stauts == "x"\nexpect 1: any calls have ok\nexpect 2: all calls have ok\n'
    found = check_rules([dsl.parse_rules(text, "x.rules")])
    assert [(d.code, d.line) for d in found] == [("unknown-field", 2)]


# ----------------------------------------------------------------- parts of a text

from hypothesis import given, settings, strategies as st  # noqa: E402

from referee.engine.checks import textparts, textwords  # noqa: E402
from referee.engine.values import EvalError, Prov, Val  # noqa: E402

MARKDOWN = st.lists(st.sampled_from(["# A", "## B", "text 1,250", "---", "> q", "```", "~~~", "",
                                     "=====", "x-2 −3.5", "\r", "- item"]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(MARKDOWN.map("\n".join), st.text(max_size=40))
def test_the_parts_of_any_text_are_its_own_lines(text, noise):
    """Each function gives a list (or, for section, a text or missing); every part is
    made of lines of the text and placed at the line it starts on."""
    source = text + noise
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    arg = Val(source, Prov("response", "response.md", "outputs/response.md", 1))
    for name in ("headings", "parts", "quotes", "code", "words", "numbers"):
        try:
            found = (textparts.FUNCTIONS | textwords.FUNCTIONS)[name](arg)
        except EvalError as error:  # a verdict, not a crash: a number as some languages write it
            assert name == "numbers" and "as some languages write numbers" in str(error)
            continue
        for item in found.items:
            assert 1 <= item.prov.line <= len(lines), (name, item)
    for item in textparts.parts(arg).items + textparts.code(arg).items:
        first = item.value.split("\n")[0]
        assert first in lines[item.prov.line - 1], (first, item.prov.line)
    try:
        textparts.section(arg, Val("A"))
    except EvalError as error:  # a verdict, not a crash: two sections "A" that differ
        assert "two sections titled" in str(error)


@pytest.mark.parametrize("text, numbers", [
    ("1,250.50 and −3", ["1250.50", "-3"]),
    ("1’250 CHF, 1\u00a0250 €, 1 250", ["1250", "1250", "1", "250"]),
    ("(−0.5) +7 x-2", ["-0.5", "7", "2"]),
    ("1, 5 and 1,2,500", ["1", "5", "1", "2500"]),
    ("v2 H2O 3rd 1.2.3", ["3", "1.2"]),
])
def test_numbers_as_people_write_them(text, numbers):
    found = textwords.numbers(Val(text)).value
    assert [str(n) for n in found] == numbers


def test_a_decimal_comma_is_no_number_told():
    # "1,5" and "1,2500" were 1 and 5, 1 and 2500: to a reader of German, 1.5 and 1.25
    with pytest.raises(EvalError, match="as some languages write numbers"):
        textwords.numbers(Val("1,5 and 1,2500"))


# ----------------------------------------------------------------------- inputs

def _evals(root, files: list[str]):
    folder = root / "skill" / "evals"
    folder.mkdir(parents=True, exist_ok=True)
    document = {"evals": [{"id": 1, "prompt": "p", "expectations": ["a"], "files": files}]}
    (folder / "evals.json").write_text(json.dumps(document), encoding="utf-8")
    return dsl.load_evals(folder / "evals.json")


def _input_errors(root, files: list[str], name: str) -> list[tuple[str, str]]:
    tree = dsl.parse_rules(f'eval 1\nexpect 1: exists input "{name}"\n', "x.rules")
    return [(d.code, d.message) for d in check_rules([tree], _evals(root, files))]


def test_an_input_is_found_beside_evals_json_or_at_the_skill_root(tmp_path):
    (tmp_path / "skill" / "evals" / "files").mkdir(parents=True)
    (tmp_path / "skill" / "evals" / "files" / "a.md").write_text("a\n", encoding="utf-8")
    (tmp_path / "skill" / "b.md").write_text("b\n", encoding="utf-8")
    assert _input_errors(tmp_path, ["evals/files/a.md", "files/a.md", "b.md"], "files/a.md") == []
    assert _input_errors(tmp_path, ["b.md"], "b.md") == []


def test_an_ambiguous_end_of_path_names_no_input(tmp_path):
    found = _input_errors(tmp_path, ["x/a.md", "y/a.md"], "a.md")
    assert [code for code, _ in found] == ["unknown-input"]


@pytest.mark.parametrize("listed", ["../secret.md", "/etc/hostname"])
def test_an_input_outside_the_skill_is_refused(tmp_path, listed):
    (tmp_path / "secret.md").write_text("secret\n", encoding="utf-8")
    assert [code for code, _ in _input_errors(tmp_path, [listed], listed)] == ["bad-input"]


def test_a_link_out_of_the_skill_is_not_followed(tmp_path):
    (tmp_path / "secret.md").write_text("secret\n", encoding="utf-8")
    (tmp_path / "skill" / "evals").mkdir(parents=True)
    (tmp_path / "skill" / "evals" / "a.md").symlink_to(tmp_path / "secret.md")
    found = _input_errors(tmp_path, ["a.md"], "a.md")
    assert [code for code, _ in found] == ["bad-input"], found


# ------------------------------------------------------- mistakes caught at check

from referee.dsl.errors import RulesError  # noqa: E402


def _first(text: str):
    try:
        tree = dsl.parse_rules(text, "x.rules")
    except RulesError as err:
        return err.diagnostics[0]
    return check_rules([tree])[0]


@pytest.mark.parametrize("check, message, hint", [
    ("response =~ /draft/", "'=~' is not an operator", "did you mean 'matches'?"),
    ('response contain "draft"', "'contain' is not an operator", "did you mean 'contains'?"),
    ('response equals "draft"', "'equals' is not an operator", "did you mean '=='?"),
    ("response.length > 10", "'response' is text: it has no field 'length'", "did you mean length(response)?"),
    ('calls to "save"', 'calls to "save" is a list, not a condition', 'exists calls to "save"'),
    ('count(calls) == "2"', "compares a number with text", "write the number 2, without quotes"),
])
def test_a_rule_that_cannot_mean_what_it_says_is_caught(check, message, hint):
    d = _first(f"eval 1\nexpect 1: {check}\n")
    assert message in d.message and hint in (d.hint or ""), (d.message, d.hint)


def test_comments_stay_out_of_the_check_text():
    tree = dsl.parse_rules('eval 1\nexpect 1: count(calls) == 1  # one save\n'
                           '  # and the reply names it\n  and response matches /#[0-9]+/ # the id\n', "x.rules")
    assert tree.evals[0].expects[0].source == "count(calls) == 1\n  and response matches /#[0-9]+/"


def test_comments_stay_out_of_the_check_text_in_evals_json():
    text = json.dumps({"evals": [{"id": 1, "prompt": "p", "expectations": ["a"], "referee": {
        "checks": {"1": "count(calls) == 1 # one save"}}}]})
    assert loads_evals(text).evals[0].rules.expects[0].source == "count(calls) == 1"


def test_a_match_in_a_long_line_is_quoted_at_the_words(tmp_path):
    from referee.engine.evaluate import evaluate
    from referee.engine.run.workspace import load_run
    from test_conformance import write_run

    paragraph = "The quarterly figures were reviewed by the board and found in order. " * 6
    run = load_run(write_run({"response": paragraph + "Revenue grew truly fast.\n"}, tmp_path))
    program = compile_rules([dsl.parse_rules("eval 1\nexpect: not (response matches /truly/)\n", "x")])
    (verdict,) = evaluate(program.evals[0], run)
    (evidence,) = verdict.evidence
    assert evidence.line == 1 and "truly" in evidence.quote and evidence.quote.startswith("…")
    assert len(evidence.quote) <= 120 and evidence.quote.strip("…") in paragraph + "Revenue grew truly fast."


def test_a_list_that_does_not_read_the_element_is_made_once_per_run(tmp_path, monkeypatch):
    """``all numbers(a) have . in numbers(b)``: numbers(b) is read once, not once per
    number of a (with 2,000 numbers on each side that is seconds against a budget
    overrun)."""
    from referee.engine.checks import functions
    from referee.engine.evaluate import evaluate
    from referee.engine.run.workspace import load_run
    from test_conformance import write_run

    calls = []

    def counted(arg):
        calls.append(arg.label)
        return textwords.numbers(arg)

    monkeypatch.setitem(functions.FUNCTIONS, "numbers", counted)
    response = " ".join(str(n) for n in range(50))
    run = load_run(write_run({"response": response + "\n", "steps": [{"tool": "t", "args": {"s": response}}]},
                             tmp_path))
    program = compile_rules([dsl.parse_rules(
        "eval 1\nexpect: all numbers(response) have . in numbers(first(calls).args.s)\n", "x")])
    (verdict,) = evaluate(program.evals[0], run)
    assert verdict.outcome.value == "pass" and len(calls) == 2
