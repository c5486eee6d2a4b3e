"""Quantifiers and filters nest a check without any bracket: `any calls have any calls
have ...`, `exists calls where exists calls where ...`. Such a check is refused as
too deep, with its place, like brackets nested too deeply, and never exhausts the
stack of the stages that walk it."""

import pytest

from referee.dsl import RulesError, parse_rules
from referee.dsl.parser import parse_condition

CHAINS = {
    "have": "any calls have ",
    "where": "exists calls where ",
    "where-in-a-comparison": "exists calls where .tool == calls where ",
    "all-have-not": "all calls have not ",
}


@pytest.mark.parametrize("link", CHAINS.values(), ids=CHAINS.keys())
def test_a_long_chain_is_too_deep(link):
    rules = "eval 1\nexpect 1: " + link * 2000 + '.tool == "x"\n'
    with pytest.raises(RulesError) as caught:
        parse_rules(rules, "deep.rules")
    first = caught.value.diagnostics[0]
    assert (first.code, first.path, first.line) == ("too-deep", "deep.rules", 2)
    # the caret stands at the start of a word of the chain
    assert rules.splitlines()[1][first.column - 1:].split()[0] in link.split()


def test_a_let_and_a_check_of_evals_json_too():
    with pytest.raises(RulesError) as caught:
        parse_rules("eval 1\nlet x = " + "any calls have " * 2000 + '.tool == "x"\n', "deep.rules")
    assert caught.value.diagnostics[0].code == "too-deep"
    with pytest.raises(RulesError) as caught:
        parse_condition("any calls have " * 2000 + '.tool == "x"')
    assert caught.value.diagnostics[0].code == "too-deep"


def test_a_chain_within_the_limit_parses():
    parse_rules("eval 1\nexpect 1: " + "any calls have " * 60 + '.tool == "x"\n')
    parse_rules("eval 1\nexpect 1: " + "exists calls where " * 60 + '.tool == "x"\n')
