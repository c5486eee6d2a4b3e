"""examples/booking-skill/booking.rules on the booking example reproduces the table of
examples/README.md, cell by cell (semantic rows stay not graded)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import evaluate_workspace

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

P, F, S = "pass", "fail", "not_graded"
TABLE = {
    "eval-1-book-flight": {
        "runs": ["with_skill/run-1", "with_skill/run-2", "without_skill/run-1", "without_skill/run-2"],
        "rows": [
            [P, P, P, F],  # search before book
            [P, P, P, F],  # search args ZRH, LIS, 2026-05-14
            [P, P, P, F],  # exactly one successful booking
            [P, P, F, F],  # booked flight LX2084
            [P, P, F, F],  # passenger "Ana Müller"
            [P, P, P, F],  # response gives the returned bookingRef
            [S, S, S, S],  # polite: semantic
        ],
    },
    "eval-2-fare-export": {
        "runs": ["with_skill/run-1", "without_skill/run-1"],
        "rows": [[P, P], [P, F], [P, F], [S, S]],
    },
}


@pytest.fixture(scope="module")
def graded() -> dict:
    graded = evaluate_workspace(EXAMPLES / "booking-skill" / "booking.rules",
                                "examples/booking-skill/booking.rules",
                                EXAMPLES / "booking-skill" / "evals" / "evals.json",
                                EXAMPLES / "booking-skill-workspace")
    return {rel: verdicts for rel, (_, verdicts) in graded.items()}


def _cells():
    for eval_dir, table in TABLE.items():
        for column, run in enumerate(table["runs"]):
            for row, expected in enumerate(table["rows"]):
                yield pytest.param(f"iteration-1/{eval_dir}/{run}", row, expected[column],
                                   id=f"{eval_dir}:{run}:{row + 1}")


@pytest.mark.parametrize("rel, row, expected", list(_cells()))
def test_cell(graded, rel: str, row: int, expected: str):
    verdict = graded[rel][row]
    assert verdict.outcome.value == expected, verdict.message


def test_all_runs_graded(graded):
    assert len(graded) == 6


def test_explanations_name_the_traps(graded):
    without2 = graded["iteration-1/eval-1-book-flight/without_skill/run-2"]
    assert "claims bookReservation was called" in without2[3].message
    assert '"Zurich"' in without2[1].message
    without1 = graded["iteration-1/eval-1-book-flight/without_skill/run-1"]
    assert '"IB3471"' in without1[3].message and '"Ana Muller"' in without1[4].message
