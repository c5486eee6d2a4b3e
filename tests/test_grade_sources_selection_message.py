"""``referee grade SOURCE... --eval ID`` that no run of the sources matches says so of
the sources given, not of the first of them alone ("no run under a.json matches")."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "import"


def test_a_selection_no_source_matches_names_the_sources(capsys):
    chat, session = FIXTURES / "openai" / "chat.json", FIXTURES / "claude-code" / "session.jsonl"
    code = main(["grade", str(chat), str(session), "--rules", str(FIXTURES / "openai" / "chat.rules"),
                 "--eval", "nope"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no run of the sources given matches --eval nope" in err
    assert f"under {chat}" not in err
