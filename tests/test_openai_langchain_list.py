"""A list of LangChain's own message dicts alone (what ``messages_to_dict``, ``dumpd``
or ``model_dump`` write) holds no conversation this importer reads (docs/import.md):
importing it is an error naming the source and saying how to convert it
(``convert_to_openai_messages``), never a hollow run whose checks are all ERRORs.
Such a message among OpenAI messages is skipped, as before
(tests/test_openai_langchain_messages.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import read_sources
from test_openai_langchain_messages import OPENAI, SAVED

RULES = 'eval 1\nexpect 1: not response contains "Deleted"\n'


@pytest.mark.parametrize("saved", SAVED.values(), ids=SAVED.keys())
@pytest.mark.parametrize("wrapped", [False, True], ids=["list", "messages"])
def test_a_list_of_langchain_messages_is_an_error_naming_the_source(tmp_path: Path, saved: list, wrapped: bool):
    source = tmp_path / "lc.json"
    source.write_text(json.dumps({"messages": saved} if wrapped else saved, indent=1), encoding="utf-8")
    read = read_sources("openai", [source])
    assert not read.conversations
    error, = read.errors
    assert str(source) in error and "convert_to_openai_messages" in error
    with pytest.raises(ValueError, match="lc.json"):  # detected as no format: an input error, nothing graded
        referee.grade(RULES, source, as_eval="1")


def test_langchain_messages_among_openai_messages_are_skipped_as_before(tmp_path: Path):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(OPENAI + SAVED["dumpd"]), encoding="utf-8")
    read = read_sources("openai", [source])
    assert read.errors == () and len(read.conversations) == 1
