"""SkillSentry layer 0: a baseline run that reads the skill, or another
configuration's folder, is marked with the call as evidence and left out of the delta."""

from __future__ import annotations

import json
from pathlib import Path

from graded_runs import write_run
from referee.engine.cli import main
from referee.engine.decision.contamination import findings, might_touch, needles
from referee.engine.run.transcript import parse_transcript


def _call(step: int, tool: str, args: dict) -> str:
    return (f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\n"
            "Return: {\"ok\": true}\nStatus: success\n\n")


def _workspace(root: Path, baseline_transcript: str, primary_transcript: str = "") -> Path:
    ws = root / "ws"
    for n in (1, 2, 3):
        write_run(ws / "eval-1" / "with_skill" / f"run-{n}", ["pass", "pass"], transcript=primary_transcript)
    write_run(ws / "eval-1" / "without_skill" / "run-1", ["fail", "fail"])
    write_run(ws / "eval-1" / "without_skill" / "run-2", ["fail", "fail"])
    write_run(ws / "eval-1" / "without_skill" / "run-3", ["pass", "pass"], transcript=baseline_transcript)
    skill = root / "skills" / "booking-skill"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("# skill", encoding="utf-8")
    return ws


def _aggregate(ws: Path, *extra: str) -> dict:
    main(["aggregate", str(ws), *extra])
    return json.loads((ws / "benchmark.json").read_text(encoding="utf-8"))


def test_a_baseline_reading_the_skill_is_contaminated_and_left_out(tmp_path):
    transcript = _call(1, "Read", {"file_path": "/home/u/skills/booking-skill/SKILL.md"}) + \
        _call(2, "Bash", {"command": "ls -la"})
    ws = _workspace(tmp_path, transcript)
    doc = _aggregate(ws, "--skill-path", str(tmp_path / "skills" / "booking-skill"))
    (found,) = doc["contaminated_runs"]
    assert found["path"] == "eval-1/without_skill/run-3"
    (evidence,) = found["evidence"]
    assert (evidence["step"], evidence["tool"], evidence["location"]) == (1, "Read", "outputs/transcript.md:3")
    assert "booking-skill/SKILL.md" in evidence["quote"] and "skill under test" in evidence["target"]
    run = next(r for r in doc["runs"] if r["path"] == found["path"])
    assert run["contaminated"] and not run["counted_in_summary"] and run["notes"]
    # the contaminated run (100 %) is out: the baseline is 0 %, the delta +1.00
    assert doc["run_summary"]["without_skill"]["runs"] == 2
    assert doc["run_summary"]["without_skill"]["excluded_contaminated"] == 1
    assert doc["run_summary"]["delta"]["pass_rate"] == "+1.00"
    reason = next(r for r in doc["release"]["reasons"] if r["rule"] == "contaminated")
    assert reason["status"] == "conditional" and "eval-1/without_skill/run-3" in reason["message"]


def test_include_contaminated_keeps_it_in_the_delta(tmp_path):
    ws = _workspace(tmp_path, _call(1, "Grep", {"pattern": "book", "path": "skills/booking-skill"}))
    doc = _aggregate(ws, "--skill-path", "skills/booking-skill", "--include-contaminated")
    assert doc["contaminated_runs"][0]["included_in_delta"] is True
    assert doc["run_summary"]["without_skill"]["runs"] == 3
    assert doc["run_summary"]["delta"]["pass_rate"] == "+0.67"


def test_reading_another_configurations_folder_is_contamination(tmp_path):
    ws = _workspace(tmp_path, _call(1, "Glob", {"pattern": "../with_skill/outputs/*.csv"}))
    doc = _aggregate(ws)  # no skill path: the other configurations' folders are still checked
    (found,) = doc["contaminated_runs"]
    assert found["evidence"][0]["target"] == "configuration with_skill's folder"


def test_the_skill_under_test_may_read_its_skill(tmp_path):
    ws = _workspace(tmp_path, "", primary_transcript=_call(1, "Read", {"file_path": "skills/booking-skill/SKILL.md"}))
    doc = _aggregate(ws, "--skill-path", "skills/booking-skill")
    assert doc["contaminated_runs"] == []


def test_the_skill_path_defaults_to_the_folder_above_evals(tmp_path):
    ws = _workspace(tmp_path, _call(1, "Read", {"file_path": "booking-skill/SKILL.md"}))
    evals = tmp_path / "skills" / "booking-skill" / "evals" / "evals.json"
    evals.parent.mkdir()
    evals.write_text(json.dumps({"skill_name": "booking", "evals": []}), encoding="utf-8")
    doc = _aggregate(ws, "--evals", str(evals))
    assert [c["path"] for c in doc["contaminated_runs"]] == ["eval-1/without_skill/run-3"]
    assert doc["metadata"]["skill_name"] == "booking" and doc["metadata"]["skill_path"] == "booking-skill"


def _find(transcript: str, skill=("skills/booking-skill",), others=("with_skill",)):
    parsed = parse_transcript(transcript, "outputs/transcript.md", "outputs/transcript.md")
    return findings(parsed.calls, needles(skill, others))


def test_names_that_only_look_alike_are_not_contamination():
    assert _find(_call(1, "Read", {"file_path": "booking-skill-workspace/notes.md"})) == ()
    assert _find(_call(1, "Read", {"file_path": "without_skill/outputs/a.csv"})) == ()
    assert _find(_call(1, "Read", {"file_path": "/data/my-booking-skill/x"})) == ()


def test_writes_are_not_reads_and_every_read_form_is():
    assert _find(_call(1, "Write", {"file_path": "booking-skill/SKILL.md"})) == ()
    for tool, args in (("Read", {"file_path": "booking-skill/SKILL.md"}), ("LS", {"path": "/x/booking-skill"}),
                       ("Bash", {"command": "cat ../with_skill/outputs/fares.csv"}),
                       ("Grep", {"pattern": "x", "paths": ["a", "with_skill/outputs"]})):
        earlier = "".join(_call(step, "Noop", {}) for step in (1, 2, 3))  # records are numbered 1, 2, ...
        (finding,) = _find(earlier + _call(4, tool, args))
        assert finding.tool == tool and finding.step == 4


def test_the_raw_text_prefilter_never_hides_a_finding():
    found = needles(["skills/booking-skill"], ["with_skill"])
    assert not might_touch("nothing here", found) and not might_touch(None, found)
    assert might_touch("cat booking-skill/SKILL.md", found)


def test_a_read_behind_a_broken_record_is_still_contamination(tmp_path):
    # Step 2 is numbered 3: from there on no record is trusted, yet the read happened.
    transcript = _call(1, "Bash", {"command": "ls"}) + \
        _call(3, "Read", {"file_path": "/home/u/skills/booking-skill/SKILL.md"})
    ws = _workspace(tmp_path, transcript)
    doc = _aggregate(ws, "--skill-path", str(tmp_path / "skills" / "booking-skill"))
    (found,) = doc["contaminated_runs"]
    assert found["path"] == "eval-1/without_skill/run-3"
    assert [e["tool"] for e in found["evidence"]] == ["Read"]


def test_a_subagent_reading_the_skill_is_contamination(tmp_path):
    ws = _workspace(tmp_path, _call(1, "Task", {"prompt": "look around"}))
    run = ws / "eval-1" / "without_skill" / "run-3"
    (run / "subagents").mkdir()
    (run / "subagents" / "step-1.md").write_text(
        _call(1, "Read", {"file_path": "/home/u/skills/booking-skill/SKILL.md"}), encoding="utf-8")
    source_map = {"version": 1, "format": "claude-code", "sources": ["s.jsonl"], "problems": [], "sha256": {},
                  "lines": {"outputs/transcript.md": [], "subagents/step-1.md": []}}
    (run / "source_map.json").write_text(json.dumps(source_map), encoding="utf-8")
    doc = _aggregate(ws, "--skill-path", str(tmp_path / "skills" / "booking-skill"))
    (found,) = doc["contaminated_runs"]
    (evidence,) = found["evidence"]
    assert (evidence["tool"], evidence["location"]) == ("Read (subagent step-1)", "subagents/step-1.md:3")
