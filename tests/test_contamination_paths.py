"""Contamination over paths written as Windows writes them: case does not name another
folder there, and a skill path given with backslashes still names its folder."""

from __future__ import annotations

import json

from referee.engine.decision.contamination import findings, might_touch, needles
from referee.engine.run.transcript import parse_transcript


def _targets(skill: list[str], others: list[str], path: str) -> list[str]:
    text = (f"## [tool_calls] Step 1: Read\nTool: Read\nArgs: {json.dumps({'file_path': path})}\n"
            "Return: {}\nStatus: success\n\n")
    parsed = parse_transcript(text, "outputs/transcript.md", "outputs/transcript.md")
    found = needles(skill, others)
    assert might_touch(text, found) or not findings(parsed.calls, found)
    return [f.target for f in findings(parsed.calls, found)]


def test_a_windows_path_in_another_case_is_the_same_skill():
    assert _targets(["C:\\Users\\Ann\\skill"], [], "c:\\users\\ann\\SKILL\\SKILL.md") == \
        ["the skill under test (skill)"]


def test_a_windows_skill_path_names_its_folder():
    assert _targets(["C:\\Users\\Ann\\booking-skill"], [], "D:\\copy\\booking-skill\\SKILL.md") == \
        ["the skill under test (booking-skill)"]
    assert _targets(["C:\\Users\\Ann\\booking-skill"], [], "D:\\copy\\Booking-Skill\\SKILL.md") == \
        ["the skill under test (booking-skill)"]


def test_another_configurations_folder_in_another_case_is_contamination():
    assert _targets([], ["with_skill"], "..\\With_Skill\\outputs\\a.csv") == ["configuration with_skill's folder"]


def test_the_prefilter_ignores_case_too():
    found = needles(["skills/booking-skill"], ["with_skill"])
    assert might_touch("type C:\\W\\BOOKING-SKILL\\SKILL.md", found)
    assert not might_touch("nothing here", found)


def test_names_that_only_look_alike_stay_apart_in_any_case():
    assert _targets(["C:\\Users\\Ann\\booking-skill"], ["with_skill"], "C:\\x\\Booking-Skill-Workspace\\a") == []
    assert _targets([], ["with_skill"], "C:\\x\\WITHOUT_SKILL\\outputs\\a.csv") == []
