"""The LLM grader that judged the semantic assertions is part of what graded a state:
``diff`` of two grades of the same runs, one judged by a lenient model and one by a
strict one, said REGRESSION (exit 1) for a skill that did not change, naming no model.
It refuses such states unless told (``--allow-different-judges``), as it refuses
states graded by different rules, and says so in a note when told."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from llm_server import ScriptedServer, verdicts
from named_folders import configurations

from referee.engine.cli import main

RULES = 'eval 1 "x"\nexpect "answers": response contains "ok"\nexpect "is polite": semantic "is polite"\n'
REPLY = "ok, your booking LX2084 is confirmed, thank you for waiting."


def _grade(ws: Path, rules: Path, cassette: Path, model: str | None, verdict: str = "PASS") -> None:
    if model is None:
        assert main(["grade", str(ws), "--rules", str(rules)]) in (0, 1)
        return
    judge = verdicts(("It thanks the traveller.", [("response", REPLY.removeprefix("ok, ").rstrip("."))], verdict))
    with ScriptedServer(default=lambda body: judge) as server:
        main(["grade", str(ws), "--rules", str(rules), "--llm", f"record:{cassette}",
              "--llm-backend", f"openai:{model}", "--llm-base-url", server.url])


@pytest.fixture
def states(tmp_path: Path, monkeypatch):
    """The same runs twice, BASE and NEW, each graded by ``grade(base, new)``'s models."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ws, rules = configurations(tmp_path, ["with_skill", "without_skill"], runs=2)
    rules.write_text(RULES, encoding="utf-8")
    for response in ws.rglob("response.md"):
        response.write_text(REPLY + "\n", encoding="utf-8")
    new = tmp_path / "new"
    shutil.copytree(ws, new)

    def grade(base_model, new_model, new_verdict="FAIL"):
        _grade(ws, rules, tmp_path / "base.jsonl", base_model)
        _grade(new, rules, tmp_path / "new.jsonl", new_model, new_verdict)
        return ws, new
    return grade


def test_states_judged_by_two_models_are_refused_unless_told(states, capsys):
    base, new = states("lenient", "strict")
    capsys.readouterr()
    assert main(["diff", str(base), str(new), "--primary", "with_skill"]) == 2
    err = capsys.readouterr().err
    assert "judged by different LLM graders (BASE ws: openai:lenient; NEW new: openai:strict)" in err
    assert "--allow-different-judges" in err
    # told, the diff shows the flip and says the judges differ
    assert main(["diff", str(base), str(new), "--primary", "with_skill", "--allow-different-judges",
                 "--json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [f["text"] for f in found["flipped_assertions"] if f["configuration"] == "with_skill"] == ["is polite"]
    assert any(n.startswith("judged by different LLM graders") and n.endswith("(--allow-different-judges)")
               for n in found["notes"])


def test_one_model_judging_both_is_no_refusal(states, capsys):
    base, new = states("m", "m")
    capsys.readouterr()
    assert main(["diff", str(base), str(new), "--primary", "with_skill"]) == 1  # the judge's verdict fell
    assert "LLM graders" not in capsys.readouterr().out


def test_a_state_no_model_judged_is_said(states, capsys):
    base, new = states("m", None)
    capsys.readouterr()
    main(["diff", str(base), str(new), "--primary", "with_skill"])
    assert "judged by different LLM graders (BASE ws: openai:m; NEW new: none): the semantic assertions" \
        in capsys.readouterr().out


def _aggregate(ws: Path, *extra: str) -> int:
    return main(["aggregate", str(ws), "--primary", "with_skill", "--baseline", "without_skill", *extra])


def test_benchmark_json_records_the_judge_and_against_refuses_another(states, capsys):
    """benchmark.json named no judge, so ``aggregate --against`` a baseline blessed under a
    lenient model read the strict model's FAILs as the skill's regression (exit 1 with
    --fail-on-regression), naming no model."""
    base, new = states("lenient", "strict")
    _aggregate(base)
    blessed = base / "benchmark.json"
    assert json.loads(blessed.read_text(encoding="utf-8"))["metadata"]["judges"] == ["openai:lenient"]
    capsys.readouterr()
    assert _aggregate(new, "--check", "--against", str(blessed), "--fail-on-regression") == 2
    err = capsys.readouterr().err
    assert "judged by different LLM graders (blessed benchmark.json: openai:lenient; this benchmark: " \
           "openai:strict)" in err and "--allow-different-judges" in err
    # two benchmark files compare the same way through diff
    _aggregate(new)
    assert main(["diff", str(blessed), str(new / "benchmark.json")]) == 2
    assert main(["diff", str(blessed), str(new / "benchmark.json"), "--allow-different-judges"]) == 1


def test_an_older_benchmark_without_judges_is_read_with_the_judge_unknown(states, capsys):
    base, new = states("m", "m")
    _aggregate(base)
    older = json.loads((base / "benchmark.json").read_text(encoding="utf-8"))
    del older["metadata"]["judges"]
    blessed = base / "older.json"
    blessed.write_text(json.dumps(older), encoding="utf-8")
    capsys.readouterr()
    _aggregate(new, "--check", "--against", str(blessed), "--fail-on-regression")
    out = capsys.readouterr().out
    assert "blessed older.json records no LLM grader (a benchmark.json of an older referee): judge unknown" in out
    # the reason benchmark.json keeps says it too
    assert "(older.json records no LLM grader: judge unknown, a change of judge cannot be seen)" in out
    older["metadata"]["judges"] = "openai:m"  # not what aggregate writes: refused, never read as unknown
    blessed.write_text(json.dumps(older), encoding="utf-8")
    assert _aggregate(new, "--check", "--against", str(blessed)) == 2
    assert 'metadata.judges is "openai:m", not a list of LLM graders' in capsys.readouterr().err


def test_report_refuses_a_benchmark_whose_judges_were_edited(states, capsys):
    base, _ = states("lenient", None)
    _aggregate(base)
    path = base / "benchmark.json"
    assert main(["report", str(base)]) in (0, 1, 3)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["metadata"]["judges"] = ["openai:strict"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    assert main(["report", str(base)]) == 2
    assert 'its metadata.judges ["openai:strict"] is not the LLM graders that judged the grades there ' \
           "(openai:lenient)" in capsys.readouterr().err
    del doc["metadata"]["judges"]  # an older referee's file: nothing to check it by
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["report", str(base)]) != 2
