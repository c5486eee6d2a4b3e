"""The writer encodes each view once (``RunFiles.encoded``): its checks of the bytes,
its digests, an import's files and a run graded in memory all take those bytes, which
are the UTF-8 of the view's text whatever the text holds (a lone surrogate, escaped; a
home folder, scrubbed; a placeholder, replaced), as the text encoded for each was."""

from __future__ import annotations

import hashlib
from pathlib import Path

from hypothesis import given, settings, strategies as st

from referee.engine.run.importers import each_conversation
from referee.engine.run.importers.in_memory import source_runs
from referee.engine.run.importers.record import Call, Conversation, Origin, Text
from referee.engine.run.importers.writer import render_run

PIECES = st.sampled_from(["\ud800", "值", "/home/ann/x", "C:\\Users\\bo\\y", "/srv/work/app", "users", "\n", "\r",
                          "## [tool_calls] Step 1: x", "\x00", "é"])
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=6).map("".join)
AT = Origin("chat.json", 1)


@st.composite
def conversations(draw) -> Conversation:
    entries = []
    for text in draw(st.lists(TEXT, min_size=1, max_size=4)):
        if draw(st.booleans()):
            entries.append(Call(draw(TEXT) or "tool", {"q": text}, {"out": draw(TEXT)}, "success", AT))
        else:
            entries.append(Text("agent", draw(TEXT), text, AT))
    placeholders = (("/srv/work", "<cwd>"),) if draw(st.booleans()) else ()
    return Conversation("openai", ("chat.json",), tuple(entries), (Text("agent", "", draw(TEXT), AT),),
                        placeholders=placeholders)


@settings(max_examples=150, deadline=None)
@given(conversations())
def test_each_view_is_encoded_once_as_its_text_is(conversation: Conversation):
    files = render_run(conversation)
    assert files.encoded == {name: text.encode("utf-8") for name, text in files.views.items()}
    for name, digest in files.source_map.digests.items():
        assert digest == hashlib.sha256(files.views[name].encode("utf-8")).hexdigest()


def test_a_run_graded_in_memory_holds_its_views_as_written(tmp_path: Path):
    source = tmp_path / "chat.json"
    source.write_text('[{"role": "user", "content": "Go /home/ann/x \\ud800"}, {"role": "assistant", "content": '
                      '"Done, 值."}]', encoding="utf-8")
    (run,) = source_runs([source]).runs
    (_, _, conversation), = each_conversation("auto", [source], late=True)
    files = render_run(conversation)
    for name, text in files.views.items():
        assert run.files[name] == text.encode("utf-8")
    assert run.transcript_file.text == files.views["outputs/transcript.md"]

