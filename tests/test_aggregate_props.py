"""Properties of the benchmark: it does not depend on the order in which runs are
found, and every pooled number is the mean of the per-run numbers it summarises.
Plus the small pieces: pass@k and pass^k, the unstable gap, configuration roles."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from referee.engine.decision import benchmark, notes, release
from referee.engine.decision.analysis import analyse
from referee.engine.decision.collect import AssertionResult, GradedRun
from referee.engine.decision.configurations import choose
from referee.engine.decision.stability import pass_at_k, pass_hat_k, stability
from referee.engine.usage import UsageError

CONFIGS = ("with_skill", "without_skill")


@st.composite
def graded_runs(draw) -> list[GradedRun]:
    runs = []
    for eval_id in draw(st.lists(st.sampled_from(["1", "2", "10", "sales"]), min_size=1, max_size=3, unique=True)):
        for config in draw(st.sets(st.sampled_from(CONFIGS), min_size=1)) | {"with_skill"}:
            for number in range(1, draw(st.integers(1, 4)) + 1):
                outcomes = draw(st.lists(st.sampled_from(["pass", "fail", "error", "not_graded"]),
                                         min_size=1, max_size=5))
                counted = [o != "not_graded" and draw(st.booleans()) for o in outcomes]
                runs.append(_run(eval_id, config, number, outcomes, counted,
                                 draw(st.none() | st.floats(0, 500, allow_nan=False)),
                                 draw(st.none() | st.integers(0, 10**6))))
    return runs


def _run(eval_id, config, number, outcomes, counted, seconds, tokens) -> GradedRun:
    items = tuple(AssertionResult(f"{eval_id}#{i}", f"text {i}", o, c, "exact_match", "")
                  for i, (o, c) in enumerate(zip(outcomes, counted), start=1))
    graded = [o for o in outcomes if o != "not_graded"]
    gate = [o for o, c in zip(outcomes, counted) if c]
    return GradedRun(f"eval-{eval_id}/{config}/run-{number}", eval_id, None, config, number, None,
                     gate.count("pass"), len(gate), graded.count("pass"), len(graded),
                     sum(1 for o, c in zip(outcomes, counted) if c and o == "error"), outcomes.count("not_graded"),
                     seconds, tokens, None, None, items)


def _document(runs: list[GradedRun]) -> dict:
    choice = choose(sorted({r.configuration for r in runs}))
    found = analyse(runs, [], choice, "quick", {})
    decision = release.decide(found, release.load_config())
    return benchmark.document(found, decision, notes.notes(found), {"skill_name": "s", "skill_path": "s"})


@settings(max_examples=30)
@given(graded_runs(), st.randoms(use_true_random=False))
def test_the_benchmark_does_not_depend_on_the_order_runs_are_found(runs, rnd):
    shuffled = list(runs)
    rnd.shuffle(shuffled)
    assert _document(shuffled) == _document(runs)


@settings(max_examples=30)
@given(graded_runs())
def test_pooled_numbers_are_the_means_of_the_per_run_numbers(runs):
    doc = _document(runs)
    for config in doc["metadata"]["configurations"]:
        mine = [r["result"] for r in doc["runs"] if r["configuration"] == config]
        for metric, key in (("pass_rate", "pass_rate"), ("pass_rate_all_graded", "pass_rate_all_graded"),
                            ("time_seconds", "time_seconds"), ("tokens", "tokens")):
            values = [r[key] for r in mine if r[key] is not None]
            stat = doc["run_summary"][config][metric]
            if not values:
                assert stat is None
                continue
            digits = 4 if "pass_rate" in metric else 1
            # the per-run figures are rounded to 4 places in runs[]; the mean is of the exact ones
            tolerance = 0.5 * 10 ** -digits + 0.5 * 10 ** -(4 if digits == 4 else 3) + 1e-9
            assert stat["mean"] == pytest.approx(math.fsum(values) / len(values), abs=tolerance)
            assert stat["min"] <= stat["mean"] <= stat["max"]
    delta = doc["run_summary"].get("delta")
    if delta is not None and "pass_rate" in delta:
        # The delta is over the evals both configurations have runs of.
        shared = set.intersection(*({r["eval_id"] for r in doc["runs"] if r["configuration"] == c}
                                    for c in ("with_skill", "without_skill")))

        def mean(config: str) -> float:
            rates = [r["result"]["pass_rate"] for r in doc["runs"] if r["configuration"] == config
                     and r["eval_id"] in shared and r["result"]["pass_rate"] is not None]
            return math.fsum(rates) / len(rates)

        assert float(delta["pass_rate"]) == pytest.approx(mean("with_skill") - mean("without_skill"), abs=0.006)


def test_the_mean_is_never_the_best_run():
    found = stability([1.0, 0.5, 0.0], "standard")
    assert found.rates.mean == 0.5 and found.spread == 1.0 and found.unstable


@pytest.mark.parametrize("rates, unstable", [([0.85, 1.0], False), ([0.8, 1.0], True), ([0.5, 0.5], False)])
def test_a_gap_above_15_points_is_unstable(rates, unstable):
    assert stability(rates, "quick").unstable is unstable


def test_pass_at_k_and_pass_hat_k():
    assert pass_at_k(3, 1, 1) == pytest.approx(1 / 3) and pass_hat_k(3, 1, 1) == pytest.approx(1 / 3)
    assert pass_at_k(3, 1, 2) == pytest.approx(2 / 3) and pass_hat_k(3, 1, 2) == 0.0
    assert pass_at_k(3, 2, 2) == 1.0 and pass_hat_k(3, 2, 2) == pytest.approx(1 / 3)
    found = stability([1.0, 1.0, 0.5], "standard")
    assert found.pass_at() == {"1": 0.6667, "2": 1.0, "3": 1.0}
    assert found.pass_hat() == {"1": 0.6667, "2": 0.3333, "3": 0.0}
    assert stability([1.0], "standard").pass_at() == {"1": 1.0}  # only k up to the runs there are
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_mode_requirements():
    assert not stability([1.0], "quick").enough_runs and stability([1.0, 1.0], "quick").enough_runs
    assert not stability([1.0, 1.0], "standard").enough_runs


@pytest.mark.parametrize("names, flags, roles", [
    (["with_skill", "without_skill"], {}, ("with_skill", "without_skill")),
    (["without_skill", "with_skill"], {}, ("with_skill", "without_skill")),
    (["old_skill", "new_skill"], {}, ("new_skill", "old_skill")),
    (["a", "baseline"], {}, ("a", "baseline")),
    (["a", "b"], {"primary": "b"}, ("b", "a")),
    (["a", "b"], {"baseline": "b"}, ("a", "b")),
    (["with_x", "without_x", "with_y"], {}, ("with_x", "without_x")),
])
def test_configuration_roles(names, flags, roles):
    choice = choose(names, **flags)
    assert (choice.primary, choice.baseline) == roles


@pytest.mark.parametrize("names, flags, message", [
    (["a", "b"], {}, "--primary NAME --baseline NAME"),
    (["a", "b"], {"primary": "c"}, "no such configuration"),
    (["a", "b"], {"primary": "a", "baseline": "a"}, "same configuration"),
    (["a"], {"baseline": "a"}, "only configuration"),
])
def test_configuration_roles_that_cannot_be_told(names, flags, message):
    with pytest.raises(UsageError, match=message.replace("-", r"\-")):
        choose(names, **flags)


def test_document_order_is_stable_for_natural_eval_ids():
    runs = [_run(e, "with_skill", 1, ["pass"], [True], 1.0, 1) for e in ("10", "2", "1")]
    random.Random(0).shuffle(runs)
    assert _document(runs)["metadata"]["evals_run"] == [1, 2, 10]
