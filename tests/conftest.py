"""Shared test fixtures: where the repository and the shared examples are."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# No test may depend on how fast the machine is: hypothesis's per-example deadline
# is a timing threshold, so it is off everywhere.
settings.register_profile("referee", deadline=None, print_blob=True)
settings.load_profile("referee")

REPO = Path(__file__).resolve().parents[1]
# The shared design folder sits beside the checkout (../shared), in CI too.
SHARED = REPO.parent / "shared"
SHARED_EXAMPLES = SHARED / "examples"


@pytest.fixture
def shared_examples() -> Path:
    if not (SHARED_EXAMPLES / "expense-skill-workspace").is_dir():
        pytest.skip(f"the shared examples are not beside the checkout ({SHARED_EXAMPLES})")
    return SHARED_EXAMPLES


@pytest.fixture
def repo() -> Path:
    return REPO


def evaluate_workspace(rules: Path, display: str, evals: Path, workspace: Path) -> dict:
    """Compile ``rules`` (named ``display`` in messages) against ``evals`` and evaluate
    every run of ``workspace``: ``{run rel: (compiled eval, verdicts)}``."""
    from referee import dsl
    from referee.engine.compile import compile_rules
    from referee.engine.evaluate import evaluate
    from referee.engine.run.workspace import discover

    tree = dsl.parse_rules(rules.read_text(encoding="utf-8"), display)
    program = compile_rules([tree], dsl.load_evals(evals))
    out = {}
    for run in discover(workspace).runs:
        ev = program.for_run(run.id, run.metadata)
        assert ev is not None, run.id.rel
        out[run.id.rel] = (ev, evaluate(ev, run))
    return out
