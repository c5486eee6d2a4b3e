"""`referee critique`: assertions graded on mutants of the runs where they pass."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import given, settings, strategies as st

import referee
from conftest import REPO
from referee.engine.cli import main
from referee.engine.critique.assess import critique_run
from referee.engine.critique.findings import feedback_suggestions, load_findings
from referee.engine.critique.image import image_of, to_run
from referee.engine.critique.claims import Claims
from referee.engine.critique.mutants import Shape
from referee.engine.run.memory import memory_run

BOOKING = REPO / "examples" / "booking-skill"
WORKSPACE = REPO / "examples" / "booking-skill-workspace"


def _critique(rules: Path, capsys, *extra: str) -> dict:
    code = main(["critique", str(WORKSPACE), "--rules", str(rules), *extra, "--json", "--check"])
    document = json.loads(capsys.readouterr().out)
    assert code == (1 if document["weak"] else 0)
    return {a["text"]: a for a in document["assertions"]}


def test_the_deliberately_weak_assertions_are_flagged_and_the_strong_one_is_not(capsys):
    found = _critique(BOOKING / "weak.rules", capsys)
    assert found["A reservation is made"]["weak"]  # existence only
    assert "passes whatever arguments travel_bookReservation is called with" in \
        found["A reservation is made"]["reasons"]
    common = found["The reply confirms the booking"]
    assert common["weak"] and any("any text containing 'the'" in r for r in common["reasons"])
    vacuous = found["Every cancellation is refunded"]
    assert vacuous["weak"] and vacuous["vacuous_runs"]
    assert not found["LX2084 is booked for Ana Müller"]["weak"]


def test_the_example_rules_are_strong_except_the_existence_check(capsys):
    found = _critique(BOOKING / "booking.rules", capsys, "--evals", str(BOOKING / "evals" / "evals.json"))
    weak = sorted(text for text, a in found.items() if a["weak"])
    assert weak == ["outputs/fares.csv exists"]
    assert all(a["mutants"] for a in found.values() if a["passing_runs"])


def test_mutants_never_touch_the_workspace_and_the_findings_go_to_critique_json(tmp_path: Path, capsys):
    copy = tmp_path / "ws"
    shutil.copytree(WORKSPACE, copy)
    before = {p: p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()}
    main(["critique", str(copy), "--rules", str(BOOKING / "weak.rules"), "--check"])
    assert {p: p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()} == before
    main(["critique", str(copy), "--rules", str(BOOKING / "weak.rules")])
    after = {p: p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()}
    assert set(after) - set(before) == {copy / "critique.json"}
    assert {p: after[p] for p in before} == before
    findings = load_findings(copy)
    assert findings is not None and "1" in findings.weak
    suggestions = feedback_suggestions(findings, "1")
    assert all(s["source"] == "critique" for s in suggestions)
    assert any("any text containing 'the'" in s["reason"] for s in suggestions)


def test_a_rewritten_run_grades_like_the_original():
    program = referee.compile((BOOKING / "booking.rules").read_text(encoding="utf-8"), "booking.rules",
                              evals=BOOKING / "evals" / "evals.json")
    for result, run in zip(referee.grade(program, WORKSPACE), _runs()):
        copy = to_run(image_of(run), run)
        (again,) = referee.grade(program, copy)
        outcomes = [e["outcome"] for e in json.loads(result.grading_json)["expectations"]]
        assert [e["outcome"] for e in again.expectations] == outcomes, result.path


def test_an_eval_named_with_a_slash_in_its_metadata_is_critiqued(tmp_path: Path, capsys):
    # eval_metadata.json may name the eval "book/flight": the mutants, runs in memory
    # with the run's identity, were built by memory_run, which refused the name, and
    # critique stopped with an internal error (ValueError).
    shutil.copytree(WORKSPACE, tmp_path / "ws")
    metadata = tmp_path / "ws" / "iteration-1" / "eval-1-book-flight" / "eval_metadata.json"
    document = json.loads(metadata.read_text(encoding="utf-8"))
    metadata.write_text(json.dumps({**document, "eval_name": "book/flight"}), encoding="utf-8")
    code = main(["critique", str(tmp_path / "ws"), "--rules", str(BOOKING / "booking.rules"), "--check"])
    out, err = capsys.readouterr()
    assert code == 1 and "internal error" not in err and "ok    1#1 travel_searchFlights" in out


def test_a_lone_surrogate_escape_in_the_json_a_run_holds_is_critiqued(tmp_path: Path, capsys):
    # A call's Args and timing.json may hold the JSON escape "\\udfff", which reads as
    # a lone surrogate: written back into a mutant as the character, it made the run in
    # memory refuse its transcript, and critique stopped with an internal error.
    shutil.copytree(WORKSPACE, tmp_path / "ws")
    run = tmp_path / "ws" / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1"
    transcript = run / "outputs" / "transcript.md"
    text = transcript.read_text(encoding="utf-8")
    transcript.write_text(text.replace('Args: {"flightId"', 'Args: {"note": "\\udfff", "flightId"', 1),
                          encoding="utf-8")
    timing = json.loads((run / "timing.json").read_text(encoding="utf-8"))
    (run / "timing.json").write_text(json.dumps({**timing, "note": "\udfff"}), encoding="utf-8")
    (before,) = [r for r in _runs(tmp_path / "ws") if r.id.rel.endswith("book-flight/with_skill/run-1")]
    assert before.transcript.calls[1].args.value["note"] == "\udfff"
    copy = to_run(image_of(before), before)
    assert copy.transcript.calls[1].args.value == before.transcript.calls[1].args.value
    assert copy.timing.value == before.timing.value
    code = main(["critique", str(tmp_path / "ws"), "--rules", str(BOOKING / "booking.rules"), "--check"])
    out, err = capsys.readouterr()
    assert code == 1 and "internal error" not in err and "ok    1#1 travel_searchFlights" in out


def _runs(workspace: Path = WORKSPACE):
    from referee.engine.run.workspace import discover

    return discover(workspace).runs


def test_usage_errors_are_clear(tmp_path: Path, capsys):
    assert main(["critique", str(tmp_path / "none"), "--rules", str(BOOKING / "weak.rules")]) == 2
    assert "workspace not found" in capsys.readouterr().err


def test_errors_in_evals_json_name_that_file(tmp_path: Path, capsys):
    evals = json.loads((BOOKING / "evals" / "evals.json").read_text(encoding="utf-8"))
    evals["evals"][0]["expectations"][0] = {"text": "x"}  # an object, not a sentence
    bad = tmp_path / "evals.json"
    bad.write_text(json.dumps(evals), encoding="utf-8")
    assert main(["critique", str(WORKSPACE), "--rules", str(BOOKING / "weak.rules"), "--evals", str(bad),
                 "--check"]) == 2
    err = capsys.readouterr().err
    assert "evals.json has errors; run `referee check`" in err and "the rules have errors" not in err, err


# --- property: a sound assertion fails when the single call it needs is removed -------

TOOLS = ["read", "search", "write", "notify"]
SOUND = [
    'exactly 1 calls to "save" with status success',
    'any calls to "save" have .args.doc == {doc}',
    'count(calls to "save") == 1',
    'last(calls to "save" with status success).args.doc == {doc}',
]
# 'any calls to "save" with status success' says only that a save succeeded: like
# 'exists', it passes whatever the save was called with (tests/test_critique_presence_counts.py).


@st.composite
def runs_with_one_save(draw):
    before = draw(st.lists(st.sampled_from(TOOLS), max_size=4))
    after = draw(st.lists(st.sampled_from(TOOLS), max_size=4))
    doc = draw(st.text(alphabet="abcxyz019", min_size=1, max_size=6))
    blocks, step = [], 0
    for tool in [*before, "save", *after]:
        step += 1
        args = json.dumps({"doc": doc} if tool == "save" else {"q": step})
        blocks.append(f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {args}\n"
                      f"Return: {{}}\nStatus: success\n")
    note = draw(st.sampled_from(["", "## [agent_notes] Step 1: done\nI saved the doc.\n"]))
    return "\n".join(blocks) + note, doc


@settings(max_examples=60)
@given(runs_with_one_save(), st.sampled_from(SOUND))
def test_removing_the_single_call_an_assertion_needs_makes_it_fail(made, template):
    transcript, doc = made
    check = template.replace("{doc}", json.dumps(doc))
    program = referee.compile(f"eval 1\nexpect: {check}\n")
    run = memory_run({"outputs/transcript.md": transcript})
    (ev,) = program.evals
    found: dict = {}
    critique_run(ev, run, {}, found)
    (critique,) = found.values()
    drops = [t for t in critique.tried if t.mutant == "drop-call"]
    assert drops, "the assertion passed and cites the call, so the call is dropped"
    assert all(t.must_fail and not t.passed for t in drops)
    assert not critique.weak, critique.reasons()


def test_shape_reads_what_the_check_and_its_lets_read():
    shape = Shape.of('saved.args.x == 1 first(calls to "f").return.y', False, Claims())
    assert shape.reads_args and shape.reads_return


def test_aggregate_notes_carry_the_critique_findings(tmp_path: Path, capsys):
    copy = tmp_path / "ws"
    shutil.copytree(WORKSPACE, copy)
    # graded by the rules critiqued: findings about other rules are left out of the notes
    main(["grade", str(copy), "--rules", str(BOOKING / "weak.rules"), "--force"])
    main(["critique", str(copy), "--rules", str(BOOKING / "weak.rules")])
    main(["aggregate", str(copy)])
    notes = json.loads((copy / "benchmark.json").read_text(encoding="utf-8"))["notes"]
    assert any("mutation testing found weak assertions" in n and "Every cancellation is refunded" in n
               for n in notes)


def test_grade_adds_the_critique_to_eval_feedback_while_the_rules_are_the_same(tmp_path: Path, capsys):
    copy = tmp_path / "ws"
    shutil.copytree(WORKSPACE, copy)
    weak = BOOKING / "weak.rules"
    main(["critique", str(copy), "--rules", str(weak)])
    main(["grade", str(copy), "--rules", str(weak)])
    first = copy / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1" / "grading.json"
    grading = json.loads(first.read_text(encoding="utf-8"))
    found = [s for s in grading["eval_feedback"]["suggestions"] if s.get("source") == "critique"]
    assert any("any text containing 'the'" in s["reason"] for s in found)
    other = tmp_path / "other.rules"
    other.write_text(weak.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    capsys.readouterr()
    main(["grade", str(copy), "--rules", str(other), "--force"])
    assert "critique.json was made with other rules" in capsys.readouterr().err
    grading = json.loads(first.read_text(encoding="utf-8"))
    assert not [s for s in grading["eval_feedback"]["suggestions"] if s.get("source") == "critique"]


def test_an_assertion_no_mutant_could_break_is_said_untested_not_ok(tmp_path: Path, capsys):
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "book-flight"\n'
                     'expect "no odd commands": no calls to glob "*" where .args.x matches /q+z/\n'
                     'expect "names the flight": response contains "LX2084"\n', encoding="utf-8")
    main(["critique", str(WORKSPACE), "--rules", str(rules), "--evals", str(BOOKING / "evals" / "evals.json"),
          "--check"])
    out = capsys.readouterr().out
    assert "--    1#8 no odd commands\n      untested: no mutant of what it claims could be built" in out
    assert "0 of 0" not in out
    assert "ok    1#9 names the flight\n" in out


def test_the_mutants_do_not_charge_the_lines_they_look_through(tmp_path: Path, capsys):
    """A mutant that puts banned words under a section finds the section without
    spending the critique's budget per line of the response (it is no assertion)."""
    run = tmp_path / "ws" / "iteration-1" / "eval-1-task"
    outputs = run / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (run / "eval_metadata.json").write_text('{"eval_id": 1, "eval_name": "task", "prompt": "Do it."}')
    (outputs / "transcript.md").write_text("## [tool_calls] Step 1: Bash\nTool: Bash\nArgs: {}\nReturn: \"ok\"\n"
                                           "Status: success\n")
    (outputs / "response.md").write_text("## Summary\n\nAll good.\n\n## Log\n" + "step done\n" * 3_000)
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "task"\nexpect 1: not (section(response, "Summary") contains "TODO")\n')
    assert main(["critique", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--budget", "2000"]) == 0
    assert "critique stopped" not in capsys.readouterr().err
