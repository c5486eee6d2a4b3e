"""Shared test fixtures: where the repository and the shared examples are, and no
network for any test."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from offline import no_network

# No test may depend on how fast the machine is: hypothesis's per-example deadline
# is a timing threshold, so it is off everywhere.
settings.register_profile("referee", deadline=None, print_blob=True)
settings.load_profile("referee")


@pytest.fixture(autouse=True, scope="session")
def _offline():
    """No test touches the network (tests/offline.py)."""
    with no_network():
        yield


REPO = Path(__file__).resolve().parents[1]
# The shared design folder sits beside the checkout (../shared), in CI too.
SHARED = REPO.parent / "shared"
SHARED_EXAMPLES = SHARED / "examples"


SHARED_PRESENT = (SHARED_EXAMPLES / "expense-skill-workspace").is_dir()


@pytest.fixture(scope="session")
def shared_examples() -> Path:
    """The shared examples; a test that uses this fixture (or is marked ``shared``) is
    left out of the run, with one line in the summary, when they are not there."""
    if not SHARED_PRESENT:  # only when a test is run by hand while they are missing
        pytest.skip(f"the shared examples are not beside the checkout ({SHARED_EXAMPLES})")
    return SHARED_EXAMPLES


def _needs_shared(item: pytest.Item) -> bool:
    return item.get_closest_marker("shared") is not None or "shared_examples" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Without ../shared the tests that need it are deselected, not skipped one by one:
    # a fresh clone prints one line about them instead of dozens of skip lines.
    if SHARED_PRESENT:
        return
    left_out = [item for item in items if _needs_shared(item)]
    if left_out:
        items[:] = [item for item in items if not _needs_shared(item)]
        config.hook.pytest_deselected(items=left_out)
        config.stash[_LEFT_OUT] = len(left_out)
        # Under pytest-xdist (-n) each worker collects and the controller prints the
        # summary: the count goes to it with what the worker sends back as it ends.
        sent_back = getattr(config, "workeroutput", None)
        if sent_back is not None:
            sent_back[_WORKER_LEFT_OUT] = len(left_out)


_LEFT_OUT = pytest.StashKey[int]()
_WORKER_LEFT_OUT = "referee_left_out"


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: the controller, as a worker ends
def pytest_testnodedown(node, error) -> None:
    # every worker collects every test, so each leaves out the same ones
    count = getattr(node, "workeroutput", {}).get(_WORKER_LEFT_OUT, 0)
    node.config.stash[_LEFT_OUT] = max(node.config.stash.get(_LEFT_OUT, 0), count)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    count = config.stash.get(_LEFT_OUT, 0)
    if count:
        terminalreporter.write_line(f"{count} tests need the shared examples, which are not beside the "
                                    f"checkout ({SHARED_EXAMPLES}); they were not run")


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
