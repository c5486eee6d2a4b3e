"""The conformance suite: every case of every tests/conformance/*.yaml file.

Verdict cases (``verdicts-*.yaml``) compile one rule and evaluate it on one run,
written into a temporary directory in the real run layout and loaded with the
real loader. Error cases (``errors-*.yaml``) parse and compile rules text and
expect a diagnostic with the given code, line and column (and, when the case names
them, ``message_contains`` and the whole ``hint``).

A verdict case::

    - id: compare-711-is-not-11
      rule: 'first(calls).args.n == 11'
      lets: {n: 'first(calls).args.n'}          # optional
      run:                                       # or fixture: shared:examples/...
        steps:                                   # shorthand for a dual-section transcript
          - {tool: calc, args: {n: 711}, return: {}, status: success}
          - {note: "Called calc."}
        transcript: "..."                        # or the transcript text itself
        response: "..."                          # or {repeat: "a", times: 49999, then: "b"}
        files: {summary.csv: "region,total\\n"}
        metrics: {...}
        timing: {...}
      expect: {outcome: fail, precision: exact_match, evidence_source: tool_calls,
               message_contains: "711", vacuous: false, notes_only: false}

A case with ``inputs: {"article.md": "text"}`` is compiled with an evals.json whose
eval 1 lists those files as skill-creator does (``evals/files/article.md``, beside
evals.json in ``evals/``); ``listed`` adds names it lists without writing them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from referee import dsl
from referee.engine.compile import check_rules, compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.workspace import load_run

HERE = Path(__file__).resolve().parent / "conformance"
REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"


def _cases() -> list:
    params = []
    for path in sorted(HERE.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            needs_shared = str(case.get("fixture", "")).startswith("shared:")
            marks = (pytest.mark.shared,) if needs_shared else ()
            params.append(pytest.param(path.name, case, id=str(case["id"]), marks=marks))
    return params


CASES = _cases()


def test_the_suite_is_large_enough():
    verdicts = [p for p in CASES if p.values[0].startswith("verdicts-")]
    assert len(verdicts) >= 80
    ids = [p.id for p in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"


@pytest.mark.parametrize("file_name, case", CASES)
def test_case(file_name: str, case: dict, tmp_path: Path):
    if "error" in case:
        _check_error_case(case, tmp_path)
    else:
        _check_verdict_case(case, tmp_path)


# ----------------------------------------------------------------- error cases


def write_evals(case: dict, root: Path):
    """The evals.json a case with ``inputs`` is compiled with, loaded; None without."""
    if "inputs" not in case and "listed" not in case:
        return None
    folder = root / "skill" / "evals"
    (folder / "files").mkdir(parents=True)
    listed = [f"evals/files/{name}" for name in case.get("inputs") or {}] + list(case.get("listed") or [])
    for name, text in (case.get("inputs") or {}).items():
        (folder / "files" / name).write_text(text, encoding="utf-8")
    document = {"evals": [{"id": 1, "prompt": "p", "expectations": [], "files": listed}]}
    (folder / "evals.json").write_text(json.dumps(document), encoding="utf-8")
    return dsl.load_evals(folder / "evals.json")


def _check_error_case(case: dict, tmp_path: Path) -> None:
    want = case["error"]
    try:
        tree = dsl.parse_rules(case["rules"], "case.rules")
        found = check_rules([tree], write_evals(case, tmp_path))
    except dsl.RulesError as err:
        found = err.diagnostics
    got = [(d.code, d.line, d.column) for d in found]
    expected = (want["code"], want.get("line"), want.get("column"))
    matching = [d for d in found if d.code == expected[0]
                and (expected[1] is None or d.line == expected[1])
                and (expected[2] is None or d.column == expected[2])]
    assert matching, f"expected {expected}, got {got}"
    # The words a case names, when it names any: the message's parts and the whole hint
    for part in _as_list(want.get("message_contains")):
        assert any(part in d.message for d in matching), [d.message for d in matching]
    if "hint" in want:
        assert want["hint"] in [d.hint for d in matching], [d.hint for d in matching]


# --------------------------------------------------------------- verdict cases


def rules_text(case: dict) -> str:
    lets = "".join(f"let {name} = {value}\n" for name, value in (case.get("lets") or {}).items())
    return f"eval 1\n{lets}expect: {case['rule']}\n"


def render_steps(steps: list[dict]) -> str:
    """A dual-section transcript from the shorthand list of calls and notes.

    Records are numbered 1, 2, 3, ... as the record grammar requires; a note takes
    its place in the list as its step (a note's step is free text)."""
    blocks = []
    records = 0
    for number, step in enumerate(steps, start=1):
        number = step.get("step", number)
        if "note" in step:
            blocks.append(f"## [agent_notes] Step {number}: {step.get('title', 'note')}\n{step['note']}\n")
            continue
        records += 1
        number = step.get("step", records)
        lines = [f"## [tool_calls] Step {number}: {step.get('title', step['tool'])}",
                 f"Tool: {step['tool']}"]
        for key, label in (("args", "Args"), ("return", "Return")):
            if key in step:
                lines.append(f"{label}: {json.dumps(step[key], ensure_ascii=False)}")
        lines.append(f"Status: {step.get('status', 'success')}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _text(spec) -> str:
    if isinstance(spec, dict):
        return spec.get("before", "") + spec["repeat"] * spec["times"] + spec.get("then", "")
    return spec


def write_run(run: dict, root: Path) -> Path:
    """Write an inline run into ``root`` in the real layout; returns the run dir."""
    run_dir = root / "eval-1" / "with_skill" / "run-1"
    outputs = run_dir / "outputs"
    outputs.mkdir(parents=True)
    transcript = run.get("transcript")
    if transcript is None and "steps" in run:
        transcript = render_steps(run["steps"])
    if transcript is not None:
        (outputs / "transcript.md").write_text(transcript, encoding="utf-8")
    if run.get("response") is not None:
        (outputs / "response.md").write_text(_text(run["response"]), encoding="utf-8")
    for name, content in (run.get("files") or {}).items():
        target = outputs / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict) and "bytes_hex" in content:
            target.write_bytes(bytes.fromhex(content["bytes_hex"]))
        else:
            target.write_bytes(_text(content).encode("utf-8"))
    if "metrics" in run:
        (outputs / "metrics.json").write_text(json.dumps(run["metrics"]), encoding="utf-8")
    if "timing" in run:
        (run_dir / "timing.json").write_text(json.dumps(run["timing"]), encoding="utf-8")
    return run_dir


def _fixture(spec: str) -> Path:
    if spec.startswith("shared:"):
        path = SHARED / spec.removeprefix("shared:")
        if not path.exists():
            pytest.skip(f"shared examples not beside the checkout ({SHARED})")
        return path
    return REPO / spec


def _check_verdict_case(case: dict, tmp_path: Path) -> None:
    tree = dsl.parse_rules(rules_text(case), "case.rules")
    program = compile_rules([tree], write_evals(case, tmp_path))
    ev = program.evals[0]
    run_dir = _fixture(case["fixture"]) if "fixture" in case else write_run(case.get("run") or {}, tmp_path)
    run = load_run(run_dir)
    verdict = evaluate(ev, run)[0]
    assertion = ev.assertions[0]
    want = case["expect"]
    shown = f"{verdict.outcome.value}: {verdict.message}"
    assert verdict.outcome.value == want["outcome"], shown
    if "precision" in want:
        assert assertion.precision.value == want["precision"]
    if "evidence_source" in want:
        assert assertion.evidence_source == want["evidence_source"]
    for part in _as_list(want.get("message_contains")):
        assert part in verdict.message, shown
    for part in _as_list(want.get("message_lacks")):
        assert part not in verdict.message, shown
    if "vacuous" in want:
        assert verdict.vacuous is want["vacuous"], shown
    if "notes_only" in want:
        assert verdict.notes_only is want["notes_only"], shown
    if "evidence_line" in want:
        assert want["evidence_line"] in [e.line for e in verdict.evidence], verdict.evidence


def _as_list(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
