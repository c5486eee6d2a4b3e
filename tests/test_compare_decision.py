"""The comparison's decision procedure: sign test, rubric, pair winner, blinding."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from referee.engine.compare import rubric, signtest
from referee.engine.compare.blind import HIDDEN, Scrubber, primary_is_a, secrets
from referee.engine.compare.load import Graded, Item, Loaded
from referee.engine.compare.pairs import decide_all, pairs
from referee.engine.compare.winner import Side, decide
from referee.engine.usage import UsageError

# ------------------------------------------------------------------ the sign test

# The exact table of the one-sided sign test at 0.05: for n non-tie evals, the
# fewest votes for one side that reach significance (P(X >= k) <= 0.05, X ~ B(n, 1/2)).
# Below 5 no outcome reaches it: 0.5^4 = 0.0625.
CRITICAL = {5: 5, 6: 6, 7: 7, 8: 7, 9: 8, 10: 9, 11: 9, 12: 10, 15: 12, 20: 15}


def test_five_wins_and_no_loss_pass_four_do_not():
    assert signtest.SignTest(5, 0, 0).result == signtest.PRIMARY
    assert signtest.SignTest(5, 0, 0).p_primary == Fraction(1, 32)
    assert signtest.SignTest(4, 0, 0).result == signtest.UNDERPOWERED
    assert signtest.SignTest(4, 0, 3).result == signtest.UNDERPOWERED  # ties are not votes
    assert signtest.tail(4, 4) == Fraction(1, 16) > signtest.ALPHA
    assert signtest.floor() == 5


@pytest.mark.parametrize("n,k", sorted(CRITICAL.items()))
def test_the_critical_values_are_the_tables(n, k):
    assert signtest.tail(n, k) <= signtest.ALPHA < signtest.tail(n, k - 1)
    assert signtest.SignTest(k, n - k, 0).result == signtest.PRIMARY
    assert signtest.SignTest(k - 1, n - k + 1, 0).result == signtest.NO_DIFFERENCE
    assert signtest.SignTest(n - k, k, 2).result == signtest.BASELINE


def test_p_values_are_exact_fractions():
    assert signtest.tail(8, 7) == Fraction(9, 256)
    assert signtest.tail(10, 8) == Fraction(56, 1024)
    doc = signtest.SignTest(7, 1, 1).as_dict()
    assert doc["p_primary_exact"] == "9/256" and doc["votes"] == {"primary": 7, "baseline": 1, "tie": 1}


@given(st.integers(0, 40), st.integers(0, 40))
def test_the_tail_is_a_probability_and_falls_with_k(n, k):
    assert 0 <= signtest.tail(n, k) <= 1
    assert signtest.tail(n, k + 1) <= signtest.tail(n, k)
    assert signtest.tail(n, 0) == 1


def test_a_vote_is_the_sign_of_wins_minus_losses():
    assert (signtest.vote(3, 1), signtest.vote(1, 3), signtest.vote(2, 2)) == (1, -1, 0)


# ------------------------------------------------------------------ the rubric

def item(key: str, outcome: str = "pass", check: str = 'x.id == "a"', gated: bool = True, text: str = "t") -> Item:
    return Item(key, text, outcome, gated, "exact_match", check, "tool_calls", f"evidence of {key}")


@pytest.mark.parametrize("check,criterion", [
    ('any calls to glob "*search" before calls to glob "*book"', "organization"),
    ('first(lines(file "fares.csv")) == "flight,price_eur"', "formatting"),
    ('response matches /\\d+/', "formatting"),
    ('exactly 1 calls to "book" with status success', "completeness"),
    ('exists file "fares.csv"', "completeness"),
    ('count(calls to "x") == 2', "completeness"),
    ('number(row.price) == 189', "accuracy"),
    ('response contains booked.return.ref', "usability"),
    ('booked.args.flightId == "LX2084"', "correctness"),
])
def test_criteria_are_inferred_from_the_rule(check, criterion):
    assert rubric.infer(item("1#1", check=check)).criterion == criterion


def test_a_plain_sentence_is_read_for_its_words():
    assert rubric.infer(item("1#1", check="", text="The CSV has the right header")).criterion == "formatting"
    assert rubric.infer(item("1#1", check="", text="The reply is polite")).criterion == "usability"


@pytest.mark.parametrize("passed,graded,score", [(0, 3, 1), (1, 3, 2), (2, 3, 4), (3, 3, 5), (1, 2, 3),
                                                 (1, 8, 2), (3, 8, 3), (0, 1, 1)])
def test_a_criterion_scores_one_to_five_rounded_half_up(passed, graded, score):
    assert rubric.score(Fraction(passed, graded)) == score


def test_dimensions_and_overall_as_skill_creator_computes_them():
    items = [item("1#1"), item("1#2", "fail"), item("1#3", check="exists file \"a\""),
             item("1#4", check="response contains \"a\""), item("1#5", "not_graded", check="")]
    scores = rubric.scores(items, {})
    assert [(c.criterion, c.score) for c in scores.criteria] == [("correctness", 3), ("completeness", 5),
                                                                 ("usability", 5)]
    assert scores.content == 4 and scores.structure == 5 and scores.overall == 9


def test_an_empty_dimension_takes_the_other_and_says_so():
    scores = rubric.scores([item("1#1")], {})
    assert scores.structure == scores.content == 5 and "scored as content" in scores.source
    assert rubric.scores([], {}).overall == 6


def test_the_model_fills_only_open_criteria():
    scores = rubric.scores([item("1#1")], {}, {"correctness": 1, "formatting": 2})
    assert [(c.criterion, c.score, c.source) for c in scores.criteria] == [
        ("correctness", 5, "rules"), ("formatting", 2, "model")]


def test_a_rubric_file_names_criteria(tmp_path: Path):
    path = tmp_path / "rubric.toml"
    path.write_text('# criteria\n"1#1" = "accuracy"\n', encoding="utf-8")
    tags = rubric.load_tags(path)
    assert rubric.tag_of(item("1#1"), tags) == rubric.Tag("accuracy", "rubric rubric.toml:2")
    path.write_text('"1#1" = "accuracy"\n"1#2" = "style"\n', encoding="utf-8")
    with pytest.raises(UsageError, match=r"rubric.toml:2: '1#2' = 'style'"):
        rubric.load_tags(path)
    path.write_text('"1#1 = \n', encoding="utf-8")
    with pytest.raises(UsageError, match="not valid TOML.*line 1"):
        rubric.load_tags(path)
    path.write_text('"1#1" = ' + "[" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(UsageError, match="not valid TOML: nested too deeply"):
        rubric.load_tags(path)


# ------------------------------------------------------------------ a pair's winner

def graded(config: str, outcomes: list[str], run: int = 1, eval_id: str = "1", gated=None) -> Graded:
    gated = gated or [True] * len(outcomes)
    items = tuple(item(f"{eval_id}#{n}", o, gated=g) for n, (o, g) in enumerate(zip(outcomes, gated), 1))
    return Graded(f"eval-{eval_id}/{config}/run-{run}", eval_id, None, config, run, items, (), 0, (), "1", None)


def side(run: Graded) -> Side:
    return Side(run, rubric.scores(run.items, {}))


def test_the_higher_rules_score_wins():
    out = decide(side(graded("a", ["pass", "pass"])), side(graded("b", ["pass", "fail"])))
    assert (out.winner, out.step) == (0, "rules_score")


def test_an_errored_gated_assertion_cannot_win():
    # the clean side wins by its score, and says the other could not have won
    out = decide(side(graded("a", ["pass", "pass", "pass"])), side(graded("b", ["pass", "fail", "error"])))
    assert out.winner == 0 and "{1} could not have won" in out.why
    # ruling a side out never hands the other a win it did not earn: equal scores stay a tie
    out = decide(side(graded("a", ["pass", "fail", "pass"])), side(graded("b", ["pass", "pass", "error"])))
    assert out.winner is None
    # the side that would win by its score is ruled out: a tie, never a win for the other
    out = decide(side(graded("a", ["pass", "pass", "pass", "error"])),
                 side(graded("b", ["fail", "fail", "pass", "pass"])))
    assert (out.winner, out.step) == (None, "disqualified")


def test_both_ruled_out_is_a_tie():
    out = decide(side(graded("a", ["error", "pass"])), side(graded("b", ["pass", "not_graded"])))
    assert (out.winner, out.step) == (None, "disqualified")


def test_the_gated_pass_rate_breaks_a_tie_of_scores():
    # the ungated existence check passes on one side and fails on the other: same score, other gate
    a = graded("a", ["pass", "fail"], gated=[True, False])
    b = graded("b", ["fail", "pass"], gated=[True, False])
    out = decide(side(a), side(b))
    assert (out.winner, out.step) == (0, "gated_pass_rate")


def test_equal_sides_are_an_honest_tie():
    out = decide(side(graded("a", ["pass", "fail"])), side(graded("b", ["pass", "fail"])))
    assert (out.winner, out.step) == (None, "tie")


# ------------------------------------------------------------------ blinding

def test_blinding_is_a_function_of_seed_eval_and_runs():
    assert primary_is_a(0, "1", "x/run-1", "y/run-1") == primary_is_a(0, "1", "x/run-1", "y/run-1")
    shown = {primary_is_a(seed, "1", "x/run-1", "y/run-1") for seed in range(20)}
    assert shown == {True, False}


def test_the_scrubber_hides_names_as_whole_words():
    runs = [("with_skill", "it-1/eval-1/skilled/run-1"), ("without_skill", "it-1/eval-1/bare/run-1")]
    found = secrets(runs, ["pdf-forms"])
    assert found == ["bare", "pdf-forms", "skilled", "with_skill", "without_skill"]
    scrub = Scrubber.of(found)
    assert scrub("with_skill read pdf-forms/SKILL.md in it-1/eval-1/skilled/run-1") == \
        f"{HIDDEN} read {HIDDEN}/SKILL.md in it-1/eval-1/{HIDDEN}/run-1"
    assert scrub("WITHOUT_SKILL; the skill; with_skills") == f"{HIDDEN}; the skill; with_skills"


outcome = st.sampled_from(["pass", "fail", "error", "not_graded"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(outcome, min_size=3, max_size=3), min_size=1, max_size=3),
       st.lists(st.lists(outcome, min_size=3, max_size=3), min_size=1, max_size=3),
       st.integers(0, 2 ** 32), st.integers(0, 2 ** 32))
def test_the_seed_never_changes_an_unblinded_winner(primary, baseline, one, two):
    runs = [graded("with_skill", o, n) for n, o in enumerate(primary, 1)]
    runs += [graded("without_skill", o, n) for n, o in enumerate(baseline, 1)]
    loaded = Loaded(runs)

    def winners(seed: int) -> list:
        return [(d.pair.primary.path, d.pair.baseline.path, d.primary_won)
                for d in decide_all(pairs(loaded, "with_skill", "without_skill", seed), {})]

    assert winners(one) == winners(two)
