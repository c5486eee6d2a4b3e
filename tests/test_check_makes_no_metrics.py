"""A grade that writes nothing (``referee grade --check``, sources graded in memory)
makes no execution metrics, timing or skill type: only a written grading.json shows
them. What it shows stays what a writing grade shows, the run's warnings included:
the metrics read the run's products, and a product that is no text is a warning
once read (``Run.problems``), so such a grade reads them all the same.

The reference is the grade that writes (``writes=True``). The runs are the example
workspace's (examples/booking-skill-workspace), with products and metrics.json
files of every shape the metrics read differently put beside their outputs.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.engine.grade import RulesSource, evaluate_run
from referee.engine.run.workspace import load_run

REPO = Path(__file__).resolve().parents[1]
WORKSPACE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
RUN = WORKSPACE / "iteration-1" / "eval-2-fare-export" / "with_skill" / "run-1"
SOURCE = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
PROGRAM = SOURCE.compile()

# What a product may hold, each read otherwise: text, a PNG (NUL bytes: binary),
# Latin-1 text (not UTF-8), a PDF (a document not read as text), UTF-16 with its mark.
PRODUCTS = {
    "text": "flight,price\nLX2084,189.00\n".encode(),
    "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01",
    "latin1": "Zürich,189\n".encode("latin-1"),
    "pdf": b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
    "utf16": "Zürich\n".encode("utf-16"),
}
# metrics.json as the metrics read it: absent, copied (its counts are figures and
# the record does not contradict them; one counting calls the record lacks makes the
# record one read in part, which holds no count to account), or computed instead (a
# count that is no figure, a count the record contradicts, no object, no JSON).
METRICS = {
    "absent": None,
    "copied": None,  # the example's own file
    "more calls": {"total_tool_calls": 40, "errors_encountered": 0, "output_chars": 10},
    "not a figure": {"total_tool_calls": "two", "errors_encountered": 0, "output_chars": 10},
    "contradicted": {"total_tool_calls": 1, "errors_encountered": 0, "output_chars": 10},
    "no object": [1, 2],
    "no JSON": "{",
}


def _run(root: Path, products: dict[str, str], metrics: str):
    folder = root / "iteration-1" / "eval-2-fare-export" / "with_skill" / "run-1"
    shutil.copytree(RUN, folder)
    for name in ("grading.json", "ground_truth.json"):
        (folder / name).unlink()
    for name, kind in products.items():
        (folder / "outputs" / name).parent.mkdir(exist_ok=True)
        (folder / "outputs" / name).write_bytes(PRODUCTS[kind])
    written = folder / "outputs" / "metrics.json"
    if metrics == "absent":
        written.unlink(missing_ok=True)
    elif metrics != "copied":
        given_text = METRICS[metrics]
        written.write_text(given_text if isinstance(given_text, str) else json.dumps(given_text), encoding="utf-8")
    return load_run(folder, root)


def _facts(root: Path, products: dict[str, str], metrics: str, writes: bool):
    return evaluate_run(PROGRAM, _run(root, products, metrics), writes).facts


_NOT_MADE = {"metrics": None, "metrics_source": None, "timing": None, "skill_type": None, "claims": None}


def test_the_example_runs_shown_the_same_without_their_metrics(tmp_path):
    written = _facts(tmp_path / "a", {"chart.png": "png"}, "absent", True)
    shown = _facts(tmp_path / "b", {"chart.png": "png"}, "absent", False)
    assert written.metrics is not None and written.timing and written.skill_type == "code_execution"
    assert any("chart.png" in problem and "binary" in problem for problem in written.problems)
    assert shown.metrics is shown.metrics_source is shown.timing is shown.skill_type is None
    assert shown == replace(written, **_NOT_MADE, info={**written.info, "files_digest": None})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(products=st.dictionaries(st.sampled_from(["fares2.csv", "chart.png", "notes/out.txt", "report.pdf"]),
                                st.sampled_from(sorted(PRODUCTS)), max_size=3),
       metrics=st.sampled_from(sorted(METRICS)))
def test_a_grade_that_writes_nothing_warns_as_one_that_writes(tmp_path_factory, products, metrics):
    # Whatever the products and metrics.json, the facts a --check grade makes are the
    # writing grade's but for what only its report shows; its warnings are the same.
    root = tmp_path_factory.mktemp("run")
    written = _facts(root / "written", products, metrics, True)
    shown = _facts(root / "shown", products, metrics, False)
    assert shown.problems == written.problems
    assert shown == replace(written, **_NOT_MADE, info={**written.info, "files_digest": None})
