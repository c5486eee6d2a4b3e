"""An imported run's view is asked by several readers whether it is the text the
import wrote (the transcript by the calls' completeness and by the run's warnings, the
response by its reader and the warnings): its SHA-256 is found once per file read
(``TextFile.sha256``), and says what hashing its text each time says
(``import_views.as_written``, the reference)."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings, strategies as st

import referee.engine.run.model as model
from referee.engine.run.agents import view_changed
from referee.engine.run.importers.record import Call, Conversation, EVAL_PROMPT, Origin, Text
from referee.engine.run.importers.writer import TRANSCRIPT, render_run
from referee.engine.run.memory import MemoryRun
from referee.engine.run.model import RunId, TextFile
from referee.engine.run.import_views import as_written, view_as_written

TEXT = st.text(alphabet=st.characters(blacklist_categories=()), max_size=30)  # lone surrogates too


@settings(max_examples=200, deadline=None, derandomize=True)
@given(TEXT, TEXT)
def test_the_digest_found_once_says_what_hashing_says(text: str, other: str):
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    view = TextFile("outputs/transcript.md", other, len(other))
    assert view_as_written(view, digest) is as_written(other, digest)
    assert view_as_written(view, digest) is as_written(other, digest)  # asked again: the same answer


def test_a_view_asked_twice_is_hashed_once(monkeypatch):
    origin = Origin("chat.json", 1)
    files = render_run(Conversation("openai", ("chat.json",), (
        Text(EVAL_PROMPT, "", "Fix it", origin), Call("Bash", {"cmd": "ls"}, "a", "success", origin))))
    run = MemoryRun(files.views, RunId("run", "1", None, "c", 1), source_map=files.source_map, layout=files.layout)
    view = run.transcript_file
    hashed = []
    real = hashlib.sha256
    monkeypatch.setattr(model.hashlib, "sha256", lambda data: hashed.append(data) or real(data))
    digests = files.source_map.digests
    assert view_changed(view, TRANSCRIPT, digests, "run") is None
    assert view_changed(view, TRANSCRIPT, digests, "run") is None
    assert len(hashed) == 1
    edited = TextFile(view.path, view.text + "x", view.size + 1)
    assert view_changed(edited, TRANSCRIPT, digests, "run") is not None  # not the text written: said
