"""Grading keeps each graded run's record on disk until it is written: records
come back exactly, --check makes nothing inside the workspace, and the --json
summary printed run by run is the same text as the whole document rendered at once."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.commands import grade_report
from referee.engine.report.spill import InMemory, Spill
from referee.engine.report.atomic import encode
from referee.engine.report.stdout import log_safe_json, utf8_writer

REPO = Path(__file__).resolve().parents[1]
WORKSPACE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"

RECORDS = [b"", "é 值 \U0001F600".encode(), b"x" * 100_000, b"\n\x00\xff"]


def test_spill_gives_back_what_it_was_given(tmp_path):
    with Spill(tmp_path) as spill:
        tickets = [spill.put(record) for record in RECORDS * 50]
        with ThreadPoolExecutor(4) as pool:  # writer threads read while nothing is put
            found = list(pool.map(spill.get, tickets))
    assert found == RECORDS * 50
    assert list(tmp_path.iterdir()) == []  # the file never had a name


def test_in_memory_spill_is_the_same_store():
    store = InMemory()
    tickets = [store.put(record) for record in RECORDS]
    assert [store.get(t) for t in tickets] == RECORDS


def test_a_spill_that_holds_nothing_makes_no_file(tmp_path):
    with Spill(tmp_path / "missing") as spill:
        assert spill._file is None


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
               {"path": "c\udcff", "expectations": [{"evidence": "##[add-mask]x"}], "nested": [[1, 2], {"k": None}],
                "summary": {"pass_rate": 0.6667}}]
    for runs in (entries, entries[:1], []):
        rest = {"skipped": [{"path": "runs", "eval_id": "1"}], "totals": {"runs": len(runs)}, "check": True,
                "exit_code": 1, "empty": []}
        grade_report._print_json(iter(runs), lambda: rest)
        document = {"schema_version": grade_report.JSON_SCHEMA_VERSION, "runs": runs, **rest}
        assert capsys.readouterr().out == _printed(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


def _printed(text: str) -> str:
    """``text`` as a JSON document on standard output reads (``stdout.print_json``)."""
    return encode(log_safe_json(text)).decode("utf-8")


REAL = REPO / "tests" / "fixtures" / "real"


@pytest.mark.parametrize("given", [
    [WORKSPACE, "--rules", RULES],
    [REAL / "audit-skill-workspace", "--rules", REAL / "audit-skill-workspace" / "report.rules",
     "--response", "outputs/audit-report.md"],
    [REAL / "human-narrative-workspace", "--rules", REAL / "human-narrative-workspace" / "narrative.rules"],
])
def test_json_summary_of_real_runs_is_json_dumps_of_itself(given, capsys):
    # The reference: the document json.dumps lays out, as printed; each run's entry
    # goes out unwalked (render.own_json), the rest through json_text.
    main(["grade", *map(str, given), "--check", "--json"])
    out = capsys.readouterr().out
    assert out == _printed(json.dumps(json.loads(out), ensure_ascii=False, indent=2) + "\n")


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1", None])
def test_utf8_text_reaches_any_stream_in_order(encoding):
    import io

    text = "</script> 值 é\n"
    raw = io.BytesIO()
    stream = io.StringIO() if encoding is None else io.TextIOWrapper(raw, encoding=encoding, errors="replace")
    stream.write("before ")
    write = utf8_writer(stream)
    write(text.encode())
    stream.write(" after")
    stream.flush()
    if encoding is None:
        assert stream.getvalue() == "before " + text + " after"
    else:  # the text as UTF-8 between what was written in the stream's own encoding
        assert raw.getvalue() == b"before " + text.encode() + b" after"


def test_written_reports_are_those_of_a_grade_in_memory(tmp_path, capsys):
    from referee.engine.decision.provenance import rules_name
    from referee.engine.grade import RulesSource, grade_all, grader_info
    from referee.engine.run.workspace import discover

    workspace = tmp_path / "ws"
    _copy(WORKSPACE, workspace)
    assert main(["grade", str(workspace), "--rules", str(RULES), "--jobs", "2"]) in (0, 1)
    text = RULES.read_text(encoding="utf-8")
    found = discover(workspace)  # without --evals, the sentences are those of eval_metadata.json
    source = RulesSource(((rules_name(str(RULES), text), text),), sentences=found.expectations)
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
    from referee.engine.grade import RulesSource, _graded, eval_of, grade_all, grader_info
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
    for result in _graded(program, runs, source, grader_info(), 1, None, None, True):
        critiques.setdefault(result.eval_key, []).append(result.critique)
    for jobs in (1, 2):
        for key, graded in zip(keys, grade_all(program, discover(workspace).runs, source, grader_info(), jobs)):
            expected = eval_feedback(eval_of(program, key).assertions, critiques[key])
            assert graded.report.document["eval_feedback"] == expected
            assert json.loads(graded.grading)["eval_feedback"] == json.loads(json.dumps(expected))


def test_a_worker_takes_the_inherited_program_only_for_the_same_rule_texts():
    import signal

    from referee.engine import grade as grading
    from referee.engine.grade import RulesSource

    source = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
    other = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8") + "\n# changed\n"),))
    program = source.compile()
    previous = signal.getsignal(signal.SIGINT)
    try:
        grading._WORKER["inherited"] = (source, program)
        grading._start_worker(source, {})
        assert grading._WORKER["program"] is program
        grading._WORKER["inherited"] = (other, program)
        grading._start_worker(source, {})
        assert grading._WORKER["program"] is not program and "inherited" not in grading._WORKER
    finally:
        signal.signal(signal.SIGINT, previous)
        grading._WORKER.clear()


def test_a_record_comes_back_from_the_spill_as_it_went_in(tmp_path):
    from referee.engine.report.run_report import RunReport

    document = {"expectations": [{"key": "1#2", "text": "</script>", "outcome": "fail", "evidence": "line\nbreak"}],
                "summary": {"passed": 1, "total": 3, "pass_rate": 1 / 3, "tiny": 1e-05}, "eval_feedback": None,
                "gate": {"counted": ["1#1", "1#2"], "passed": 1, "total": 2}, "claims": [],
                "run": {"path": "a/\ud800 值", "eval_name": None, "run_number": 3}, "problems": []}
    feedback = {"suggestions": [], "overall": "none"}
    for store in (Spill(tmp_path), InMemory()):
        ticket = store.put(RunReport(document).record())
        back = RunReport.from_record(store.get(ticket), feedback).document
        assert back == {**document, "eval_feedback": feedback} and list(back) == list(document)
        assert RunReport.from_record(store.get(ticket)).document == document
        store.close()


def test_a_json_entry_holds_the_reports_data_and_what_was_written():
    from referee.engine.grade import RulesSource, grade_all, grader_info
    from referee.engine.report.render import FREE_PARTS
    from referee.engine.report.terminal import Tally
    from referee.engine.report.write import WriteResult
    from referee.engine.run.workspace import discover

    source = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
    graded = [g for g in grade_all(source.compile(), discover(WORKSPACE).runs, source, grader_info()) if g]
    results = [WriteResult(), WriteResult(written=True, kept_aside=(("grading.json", "grading.json.bak"),)),
               WriteResult(refused=("grading.json", "ground_truth.json")), WriteResult(error="cannot write: 值\n")]
    for g in graded:
        written = json.loads(g.grading)
        for result in results:
            entry = grade_report._json_run(g.report, result, Tally())
            assert [entry[k] for k in ("expectations", "eval_feedback")] == \
                [written[k] for k in ("expectations", "eval_feedback")]
            assert (entry["path"], entry["gate"], entry["summary"]) == (written["run"]["path"], written["gate"],
                                                                        written["summary"])
            assert (entry["written"], entry["write_error"]) == (result.written, result.error or None)
            assert "warnings" not in entry  # the example runs have none
            assert not set(entry) & set(FREE_PARTS)  # render.own_json does not walk it


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


def test_a_grade_that_writes_nothing_finds_no_claims_and_shows_the_same(tmp_path):
    # --check shows no claims, metrics, timing or skill type and records no files
    # digest, so it makes none of them (the reference: a grade that does); everything
    # else of every report is the same, and a claimless report is never written.
    from referee.engine.grade import RulesSource, grade_spilled, grader_info
    from referee.engine.run.workspace import discover

    source = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
    program = source.compile()
    for jobs in (1, 2):
        with Spill(tmp_path) as spill:
            full = grade_spilled(program, discover(WORKSPACE).runs, source, grader_info(), spill, jobs)
            bare = grade_spilled(program, discover(WORKSPACE).runs, source, grader_info(), spill, jobs,
                                 writes=False)
            assert any(f.report().document["claims"] for f in full)  # the reference finds some
            assert all(f.report().document["run"]["files_digest"] for f in full)
            assert all(f.report().document["execution_metrics"] for f in full)
            for f, b in zip(full, bare):
                document = f.report().document
                run = {**document["run"], "files_digest": None}
                assert b.report().document == {**document, "claims": None, "run": run, "execution_metrics": None,
                                               "execution_metrics_source": None, "timing": None, "skill_type": None}
                with pytest.raises(ValueError, match="without its claims"):
                    b.report().grading_text()
