"""The LLM grader that judged a run's semantic assertions is part of what graded it:
runs of one eval judged by different models (a grade of with_skill with one model, of
without_skill with another) are compared by ``aggregate`` only when told, as runs
graded by different rules are, and ``report`` lists them among its problems."""

from __future__ import annotations

import json
from pathlib import Path

from llm_server import ScriptedServer, reading_judge
from named_folders import configurations

from referee.engine.cli import main

RULES = 'eval 1 "x"\nexpect "answers": response contains "ok"\nexpect "names LX2084": semantic "names LX2084"\n'


def _judged(tmp_path: Path, monkeypatch, models: dict[str, str]) -> Path:
    """Two runs of each configuration, each configuration graded by its model in ``models``."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ws, rules = configurations(tmp_path, ["with_skill", "without_skill"], runs=2)
    rules.write_text(RULES, encoding="utf-8")
    with ScriptedServer(default=reading_judge) as server:
        for config, model in models.items():
            main(["grade", str(ws), "--rules", str(rules), "--config", config,
                  "--llm", f"record:{tmp_path / f'{config}.jsonl'}", "--llm-backend", f"openai:{model}",
                  "--llm-base-url", server.url])
    for config, model in models.items():
        report = json.loads((ws / "eval-1" / config / "run-1" / "grading.json").read_text(encoding="utf-8"))
        assert report["grader"]["llm"]["model"] == model
    return ws


def test_runs_of_one_eval_judged_by_two_models_are_a_mix(tmp_path, monkeypatch, capsys):
    # Input: with_skill graded with --llm openai:lenient, without_skill with openai:strict.
    # aggregate decided on them as if one grader had judged both (exit 1 or 3, a
    # benchmark written); now it refuses (exit 2), naming the runs each model judged.
    ws = _judged(tmp_path, monkeypatch, {"with_skill": "lenient", "without_skill": "strict"})
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--mode", "quick"]) == 2
    err = capsys.readouterr().err
    assert "judged by different LLM graders: eval 1: openai:lenient judged 2 runs (eval-1/with_skill/run-1, " in err
    assert "openai:strict judged 2 runs (eval-1/without_skill/run-1, " in err
    assert not (ws / "benchmark.json").exists()
    assert main(["aggregate", str(ws), "--mode", "quick", "--allow-mixed-rules"]) in (1, 3)
    notes = json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))["notes"]
    assert any(note.startswith("judged by different LLM graders, compared anyway (--allow-mixed-rules): eval 1: ")
               for note in notes)
    (ws / "benchmark.json").unlink()
    capsys.readouterr()
    main(["report", str(ws), "--format", "markdown", "-o", "-"])
    assert "judged by different LLM graders: eval 1: openai:lenient judged 2 runs" in capsys.readouterr().out


def test_runs_judged_by_one_model_are_no_mix(tmp_path, monkeypatch, capsys):
    ws = _judged(tmp_path, monkeypatch, {"with_skill": "m", "without_skill": "m"})
    capsys.readouterr()
    assert main(["aggregate", str(ws), "--mode", "quick"]) != 2
    assert "different LLM graders" not in capsys.readouterr().err
