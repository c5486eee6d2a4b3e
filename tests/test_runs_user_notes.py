"""``outputs/user_notes.md``: heading variants, bullet styles, empty sections."""

from __future__ import annotations

from referee.engine.run.user_notes import parse_user_notes, section_key

NOTES = """# User Notes

## UNCERTAINTIES
- first doubt
  wrapped onto a second line
* second doubt

## Needs Review:

## needs human review
1. check the total
2) check the date

## Workaround
+ retried once

## Other
- not collected

## Suggestions
- add a lookup tool
plain paragraph, not an item
"""


def test_sections_and_bullets():
    notes = parse_user_notes(NOTES.replace("\n", "\r\n"))
    assert notes.uncertainties == ("first doubt wrapped onto a second line", "second doubt")
    assert notes.needs_review == ("check the total", "check the date")
    assert notes.workarounds == ("retried once",)
    assert notes.suggestions == ("add a lookup tool",)


def test_missing_or_empty_text():
    assert parse_user_notes(None).uncertainties == ()
    assert parse_user_notes("").suggestions == ()
    assert parse_user_notes("## Uncertainty\n").uncertainties == ()


def test_section_key_variants():
    assert section_key("Uncertainty") == section_key("uncertainties") == "uncertainties"
    assert section_key("Needs  Human Review") == section_key("needs_review") == "needs_review"
    assert section_key("Notes") is None
