"""Grading keeps the rendered reports on disk until they are written: the texts
come back exactly, --check makes nothing inside the workspace, and the --json
summary printed run by run is the same text as the whole document rendered at once."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.commands import grade as grade_command
from referee.engine.report.render import json_text
from referee.engine.report.spill import InMemory, Spill

REPO = Path(__file__).resolve().parents[1]
WORKSPACE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"

TEXTS = [("", "{\n  \"a\": 1\n}", "é 值 \U0001F600"), ("lone \ud800 surrogate", "x" * 100_000, "\n")]


def test_spill_gives_back_what_it_was_given(tmp_path):
    with Spill(tmp_path) as spill:
        tickets = [spill.put(*texts) for texts in TEXTS * 50]
        with ThreadPoolExecutor(4) as pool:  # writer threads read while nothing is put
            found = list(pool.map(spill.get, tickets))
        parts = [tuple(spill.part(ticket, index) for index in range(3)) for ticket in tickets]
    assert found == parts == TEXTS * 50
    assert list(tmp_path.iterdir()) == []  # the file never had a name


def test_in_memory_spill_is_the_same_store():
    store = InMemory()
    tickets = [store.put(*texts) for texts in TEXTS]
    assert [store.get(t) for t in tickets] == TEXTS
    assert [tuple(store.part(t, i) for i in range(3)) for t in tickets] == TEXTS


def test_a_spill_that_holds_nothing_makes_no_file(tmp_path):
    with Spill(tmp_path / "missing") as spill:
        assert spill._files == []


_FORKED: dict = {}  # what the forked workers below find in their memory


def _put_in_shared_part(texts: tuple[str, ...]) -> tuple[int, ...]:
    return _FORKED["part"].put(*texts)


def test_texts_forked_workers_put_come_back_here(tmp_path):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    many = TEXTS * 40
    with Spill(tmp_path) as spill:
        own = spill.put(*TEXTS[1])
        _FORKED["part"] = spill.share()
        try:  # two workers put at once: what each returns must not overlap the other's
            with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
                marks = list(pool.map(_put_in_shared_part, many, chunksize=3))
        finally:
            _FORKED.clear()
        later = spill.put(*TEXTS[0])
        tickets = [spill.adopt(m) for m in marks]
        assert [spill.get(t) for t in tickets] == many
        assert [spill.part(t, 1) for t in tickets] == [texts[1] for texts in many]
        assert (spill.get(own), spill.get(later)) == (TEXTS[1], TEXTS[0])
    assert list(tmp_path.iterdir()) == []  # neither file ever had a name


def _listing(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in sorted(root.rglob("*"))}


def test_check_makes_nothing_inside_the_workspace(tmp_path, capsys):
    workspace = tmp_path / "ws"
    _copy(WORKSPACE, workspace)
    before = _listing(workspace)
    main(["grade", str(workspace), "--rules", str(RULES), "--check"])
    assert _listing(workspace) == before


def test_json_summary_printed_run_by_run_is_the_whole_document(capsys):
    entries = [{"path": "a\nb", "expectations": [{"text": "</script> 值", "evidence": ""}], "empty": {}},
               {"path": "c", "expectations": [], "nested": [[1, 2], {"k": None}]}]
    for runs in (entries, entries[:1], []):
        document = {"schema_version": grade_command.JSON_SCHEMA_VERSION, "runs": runs,
                    "skipped": [{"path": "runs", "eval_id": "1"}], "totals": {"runs": len(runs)}, "check": True,
                    "exit_code": 1}
        nested = iter(("    " + grade_command._nested(json_text(entry))).encode() for entry in runs)
        grade_command._print_json(nested, lambda: {**document, "runs": []})
        assert capsys.readouterr().out == json_text(document) + "\n"


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1", None])
def test_utf8_text_reaches_any_stream_in_order(encoding):
    import io

    text = "</script> 值 é\n"
    raw = io.BytesIO()
    stream = io.StringIO() if encoding is None else io.TextIOWrapper(raw, encoding=encoding, errors="replace")
    stream.write("before ")
    write = grade_command._utf8_writer(stream)
    write(text.encode())
    stream.write(" after")
    stream.flush()
    expected = "before " + text + " after"
    if encoding is None:
        assert stream.getvalue() == expected
    else:  # what writing the text itself would have given, in the stream's own encoding
        assert raw.getvalue() == expected.encode(encoding, "replace")


def test_the_parts_a_json_entry_copies_from_a_report_can_hold_no_float():
    # --json copies these parts' text from grading.json (see FROM_REPORT); the schema is why.
    from typing import get_args

    from pydantic import BaseModel

    from referee.engine.report.models import GradingReport

    def kinds(annotation) -> set:
        inner = get_args(annotation)
        found = set().union(*map(kinds, inner)) if inner else {annotation}
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            for field in annotation.model_fields.values():
                found |= kinds(field.annotation)
        return found

    fields = GradingReport.model_fields
    for key in grade_command.FROM_REPORT:
        assert float not in kinds(fields[key].annotation), key
    assert float in kinds(fields["summary"].annotation)  # the walk does find one


def test_written_reports_are_those_of_a_grade_in_memory(tmp_path, capsys):
    from referee.engine.grade import RulesSource, grade_all, grader_info
    from referee.engine.run.workspace import discover

    workspace = tmp_path / "ws"
    _copy(WORKSPACE, workspace)
    assert main(["grade", str(workspace), "--rules", str(RULES), "--jobs", "2"]) in (0, 1)
    text = RULES.read_text(encoding="utf-8")
    found = discover(workspace)  # without --evals, the sentences are those of eval_metadata.json
    source = RulesSource(((grade_command._display(str(RULES), text), text),), sentences=found.expectations)
    runs = found.runs
    for graded in grade_all(source.compile(), runs, source, grader_info()):
        if graded is not None:
            assert (graded.run.path / "grading.json").read_text(encoding="utf-8") == graded.grading
            assert (graded.run.path / "ground_truth.json").read_text(encoding="utf-8") == graded.truth


def _copy(source: Path, target: Path) -> None:
    for path in sorted(source.rglob("*")):
        if path.name in ("grading.json", "ground_truth.json") or "__pycache__" in path.parts:
            continue
        destination = target / path.relative_to(source)
        if path.is_dir():
            destination.mkdir(parents=True, exist_ok=True)
        else:
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(path.read_bytes())
            os.utime(destination, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns))


def test_an_eval_whose_runs_are_apart_gets_the_feedback_of_all_of_them(tmp_path):
    """Discovery order puts iteration-2's runs of eval 1 after eval 2: the feedback of
    eval 1 is still made from all its runs, in order, once the last one is in."""
    from referee.engine.facts.feedback import eval_feedback
    from referee.engine.grade import RulesSource, _rendered, eval_of, grade_all, grader_info
    from referee.engine.report.render import feedback_text
    from referee.engine.run.workspace import discover

    workspace = tmp_path / "ws"
    _copy(WORKSPACE / "iteration-1", workspace / "iteration-1")
    _copy(WORKSPACE / "iteration-1" / "eval-1-book-flight", workspace / "iteration-2" / "eval-1-book-flight")
    text = RULES.read_text(encoding="utf-8")
    source = RulesSource(((RULES.name, text),))
    program = source.compile()
    runs = discover(workspace).runs
    keys = [program.for_run(run.id, run.metadata).key for run in runs]
    assert keys.index(keys[-1]) < max(i for i, key in enumerate(keys) if key != keys[-1])  # apart
    critiques: dict[str, list] = {}
    for result in _rendered(program, runs, source, grader_info(), 1, None, None, None):
        critiques.setdefault(result.eval_key, []).append(result.critique)
    for jobs in (1, 2):
        for key, graded in zip(keys, grade_all(program, discover(workspace).runs, source, grader_info(), jobs)):
            expected = feedback_text(eval_feedback(eval_of(program, key).assertions, critiques[key]))
            assert expected in graded.grading


def test_a_worker_takes_the_inherited_program_only_for_the_same_rule_texts():
    import signal

    from referee.engine import grade as grading
    from referee.engine.grade import RulesSource

    source = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
    other = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8") + "\n# changed\n"),))
    program = source.compile()
    previous = signal.getsignal(signal.SIGINT)
    try:
        shared = object()
        grading._WORKER["inherited"] = (source, program, shared)
        grading._start_worker(source, {})
        assert grading._WORKER["program"] is program and grading._WORKER["spill"] is shared
        grading._WORKER["inherited"] = (other, program, shared)
        grading._start_worker(source, {})
        assert grading._WORKER["program"] is not program and "inherited" not in grading._WORKER
        assert grading._WORKER["spill"] is None  # rebuilt from the texts: it shares nothing
    finally:
        signal.signal(signal.SIGINT, previous)
        grading._WORKER.clear()


def test_a_brief_comes_back_from_the_spill_as_it_went_in(tmp_path):
    from referee.engine.grade import Stored, _brief_text
    from referee.engine.report.brief import Brief

    short = Brief(run={"path": "a/\ud800 值", "eval_name": None, "run_number": 3},
                  summary={"passed": 1, "total": 3, "pass_rate": 1 / 3, "tiny": 1e-05},
                  gate={"counted": ["1#1", "1#2"], "excluded": [], "passed": 1, "total": 2, "pass_rate": 0.5},
                  failed=({"key": "1#2", "text": "</script>", "outcome": "fail", "evidence": "line\nbreak"},))
    for store in (Spill(tmp_path), InMemory()):
        ticket = store.put("{\n  ", "[]", ",\n  ", "tail", "truth", _brief_text(short))
        stored = Stored(None, "1", ticket, store, {"1": "block"})
        assert stored.brief == short
        assert (stored.head, stored.expectations, stored.tail, stored.truth) == ("{\n  [],\n  ", "[]", "tail", "truth")
        assert stored.grading == "{\n  [],\n  blocktail"
        store.close()


def test_a_json_entry_copies_the_reports_text_as_rendering_it_again_would():
    from referee.engine.grade import RulesSource, grade_all, grader_info
    from referee.engine.report.render import join_feedback, member_text, render, split_at_feedback
    from referee.engine.report.write import WriteResult
    from referee.engine.run.workspace import discover

    source = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
    graded = [g for g in grade_all(source.compile(), discover(WORKSPACE).runs, source, grader_info()) if g]
    results = [WriteResult(), WriteResult(written=True, kept_aside=(("grading.json", "grading.json.bak"),)),
               WriteResult(refused=("grading.json", "ground_truth.json")), WriteResult(error="cannot write: 值\n")]
    # A report whose strings hold what could confuse a cut: line breaks and member
    # openings written inside strings, a script end, a lone surrogate, other scripts.
    document = json.loads(graded[0].grading)
    tricky = '\n  "eval_feedback": null,\n}</script><!-- \ud800 值'
    document["expectations"][0].update(text=tricky, evidence=tricky)
    head, tail = split_at_feedback(render({**document, "eval_feedback": None}))
    block = render({"eval_feedback": {"suggestions": [{"reason": tricky}], "overall": tricky}})
    forged = join_feedback(head, block[len('{\n  "eval_feedback": '):-len("\n}\n")], tail)
    for g in graded:
        for grading in (g.grading, forged):
            front = grading[:grading.index('\n  "eval_feedback": ')]  # the part of the spill it is cut from
            expectations = member_text(front, "expectations")
            feedback = grade_command._nested(member_text(grading, "eval_feedback"))
            for result in results:
                expected = json_text(grade_command._json_run(g.brief, json.loads(grading), result))
                entry = grade_command._json_front(g.brief, expectations) + feedback + grade_command._json_back(result)
                assert entry == "    " + grade_command._nested(expected)


def test_a_members_value_is_cut_without_its_comma_or_the_closing_brace():
    from referee.engine.report.render import around_member, around_nulls, member_text

    text = json_text({"a": {"x": "\n  \"b\": 1"}, "b": [2, {"c": None}]}) + "\n"
    assert member_text(text, "a") == json_text({"x": "\n  \"b\": 1"}).replace("\n", "\n  ")
    assert member_text(text, "b") == json_text([2, {"c": None}]).replace("\n", "\n  ")
    for key in ("a", "b"):
        before, value, after = around_member(text, key)
        assert before + value + after == text and value == member_text(text, key)
    assert around_member(text, "a")[2].startswith(",\n  \"b\": ")
    holder = json_text({"a": None, "b": 1})
    before, after = around_nulls(holder, ["a"])
    assert before + member_text(text, "a") + after == json_text({"a": {"x": "\n  \"b\": 1"}, "b": 1})


def test_a_grade_lets_each_run_go_once_it_is_in(tmp_path):
    # What a graded run leaves is its place and its ticket: discovery's Run objects
    # are not held to the end, so memory does not grow with them.
    import gc
    import weakref

    from referee.engine.grade import RulesSource, grade_spilled, grader_info
    from referee.engine.run.workspace import discover

    source = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
    runs = list(discover(WORKSPACE).runs)  # a list of Runs (discovery's own builds them as asked)
    alive = [weakref.ref(run) for run in runs]
    for jobs in (1, 2):
        with Spill(tmp_path) as spill:
            stored = grade_spilled(source.compile(), runs, source, grader_info(), spill, jobs)
            gc.collect()
            assert runs == [None] * len(stored) and [ref() for ref in alive] == [None] * len(alive)
            assert [s.place.rel for s in stored] == [r.id.rel for r in discover(WORKSPACE).runs]
        runs = list(discover(WORKSPACE).runs)
        alive = [weakref.ref(run) for run in runs]
