"""Sharding never changes the grade: for any number of shards from 1 to 8, graded on
any hosts (copies of the workspace at other paths) in any order, the merged reports,
benchmark, decision and rendered reports are byte for byte one unsharded grade's.
And the fold of the shards' critique facts is the tally of all the runs."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.cli import main
from referee.engine.facts.contents import Contents
from referee.engine.facts.feedback import EvalTally, RunFacts
from referee.engine.shards.tally import fold, tally_from_json, tally_json
from sharded import RULE_ARGS, files, fresh, grade, sharded

FORMATS = ("html", "junit", "markdown", "github")


def outcome(workspace: Path, capsys) -> tuple:
    """Everything a user gets from a graded workspace: the reports, the decision of
    aggregate, benchmark.json and .md, and each report format with its exit code."""
    capsys.readouterr()
    decided = main(["aggregate", str(workspace)])
    printed = capsys.readouterr().out.replace(str(workspace), "WORKSPACE")
    rendered = [("aggregate", decided, printed)]
    for fmt in FORMATS:
        code = main(["report", str(workspace), "--format", fmt, "-o", "-"])
        rendered.append((fmt, code, capsys.readouterr().out))
    return (files(workspace), decided, files(workspace, ("benchmark.json", "benchmark.md")), rendered)


@st.composite
def assignments(draw):
    """n shards, each graded on one of three hosts, in some order."""
    count = draw(st.integers(1, 8))
    hosts = {index: draw(st.integers(1, 3)) for index in range(1, count + 1)}
    order = draw(st.permutations(range(1, count + 1)))
    return count, hosts, list(order)


@pytest.fixture(scope="module")
def unsharded_folder(tmp_path_factory) -> Path:
    """Where the unsharded grade is made, once for the module (pytest removes it)."""
    return tmp_path_factory.mktemp("unsharded")


@settings(max_examples=4, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(assignments())
def test_merged_shards_are_one_unsharded_grade(capsys, unsharded_folder, assignment):
    count, hosts, order = assignment
    expected_code, expected = unsharded_outcome(capsys, unsharded_folder)
    with tempfile.TemporaryDirectory() as where:
        merged = sharded(Path(where), count, hosts, order)
        code = main(["merge", str(merged), *RULE_ARGS])
        assert code == expected_code  # the decision: grade's rule over every run
        assert outcome(merged, capsys) == expected


_BASE: dict[str, tuple] = {}


def unsharded_outcome(capsys, where: Path) -> tuple:
    if "done" not in _BASE:
        workspace = fresh(where)
        _BASE["done"] = (grade(workspace), outcome(workspace, capsys))
    return _BASE["done"]


names = st.sampled_from(["a", "b", "c", "d"])
run_facts = st.builds(
    lambda path, config, tools, outcomes, vacuous, certain, files: RunFacts(
        path, config, tuple(tools), tuple(outcomes), tuple(vacuous),
        None if files is None else Contents(tools=frozenset(tools), files=frozenset(files)), certain),
    st.just(""), st.sampled_from(["with_skill", "without_skill"]), st.lists(names, max_size=3),
    st.lists(st.sampled_from(["pass", "fail", "error"]), min_size=3, max_size=3),
    st.lists(st.booleans(), min_size=3, max_size=3), st.booleans(), st.none() | st.lists(names, max_size=2))


@settings(max_examples=100)
@given(st.lists(run_facts, max_size=14), st.integers(1, 5), st.randoms(use_true_random=False))
def test_the_fold_of_the_shards_tallies_is_the_tally_of_all_runs(facts, count, random):
    runs = [RunFacts(f"run-{n}", *astuple_rest(f)) for n, f in enumerate(facts)]
    whole = EvalTally(3)
    for run in runs:
        whole.add(run)
    parts = [EvalTally(3) for _ in range(count)]
    for run in runs:  # each shard adds its runs in the workspace's order
        parts[random.randrange(count)].add(run)
    through_json = [tally_from_json(tally_json(part)) for part in parts]
    assert tally_json(fold(through_json, lambda path: int(path.split("-")[1]))) == tally_json(whole)


def astuple_rest(run: RunFacts) -> tuple:
    return (run.configuration, run.tools, run.outcomes, run.vacuous, run.contents, run.tools_certain)
