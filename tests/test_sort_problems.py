"""A run's problems are sorted by a key made once per path (``workspace.sort_problems``);
the reference makes it for each problem. Same problems, same order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.engine.run.identity import natural_key
from referee.engine.run.model import Problem
from referee.engine.run.workspace import sort_problems

PATHS = st.sampled_from(["iteration-1/eval-2-x/run-1/outputs/transcript.md", "iteration-1/eval-10-x/run-1/outputs/a.md",
                         "eval-2/run-01/b.json", "eval-2/run-1/b.json", "run-9", ".", "a10b2", "a2b10", ""])
PROBLEMS = st.lists(st.builds(Problem, st.sampled_from(["not-json", "bad-json", "missing"]), PATHS,
                              st.sampled_from(["why", "Return: value kept as text", ""]),
                              st.sampled_from([None, 0, 1, 2, 10, 83])), max_size=30)


def _sorted_by_a_key_each(problems: list[Problem]) -> list[Problem]:
    return sorted(set(problems), key=lambda p: (natural_key(p.path), p.line or 0, p.code, p.message))


@given(PROBLEMS)
def test_problems_sort_as_with_a_key_made_for_each(problems):
    assert sort_problems(problems) == _sorted_by_a_key_each(problems)
