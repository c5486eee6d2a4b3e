"""The readers under ``referee grade SOURCE...`` as docs/import.md shows them to a
library user (``conversations(FORMAT, paths)``, ``source_runs(paths)``) take the
paths as str or Path alike. A bare path where a list is meant is a TypeError naming
it (a str would otherwise be read as its characters), never an AttributeError."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.run.importers import conversations
from referee.engine.run.importers.in_memory import source_runs

CHAT = Path(__file__).parent / "fixtures" / "import" / "openai" / "chat.json"


def test_conversations_take_paths_as_text():
    assert conversations("openai", [str(CHAT)]) == conversations("openai", [CHAT])


def test_source_runs_take_paths_as_text():
    as_text, as_paths = source_runs([str(CHAT)]), source_runs([CHAT])
    assert [run.id for run in as_text.runs] == [run.id for run in as_paths.runs] and as_text.runs
    assert [run.files for run in as_text.runs] == [run.files for run in as_paths.runs]


@pytest.mark.parametrize("bare", [str(CHAT), CHAT])
def test_a_bare_path_is_a_type_error(bare):
    with pytest.raises(TypeError, match="list of paths"):
        source_runs(bare)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="list of paths"):
        conversations("openai", bare)  # type: ignore[arg-type]
