"""A run graded in memory reads a document decoded whole without decoding its messages'
texts again: a message on a line it shares with others is placed by JSON Pointer alone
(``message_lines.SharedLine``, what ``MessageLines`` gives ``late``), so its text would
only be looked at for the lines it spans, which its bytes tell. tests/test_openai_late_columns.py
holds the places so found to those found as the import reads; here, that no text is
decoded, that a tool's message has its place made once (where its answer is, which is
also where the agent was last at work), and that ``columns`` gives what it gave when
each element looked at both of its neighbours in turn (the reference below)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from referee.engine.run.importers import each_conversation, openai_document
from referee.engine.run.importers.jsondoc import Element
from referee.engine.run.importers.message_lines import SharedLine, columns

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_peers  # noqa: E402  (the generated runs the peers are measured on)


def columns_by_neighbours(data: bytes, elements: list[Element]) -> list[int | None]:
    found: list[int | None] = []
    column, at = 0, 0
    for n, element in enumerate(elements):
        shared = any(0 <= k < len(elements) and k != n and elements[k].line == element.line for k in (n - 1, n + 1))
        if n == 0 or elements[n - 1].line != element.line:
            column = len(data[data.rfind(b"\n", 0, element.start) + 1:element.start].decode("utf-8", "replace"))
        else:
            column += len(data[at:element.start].decode("utf-8", "replace"))
        at = element.start
        found.append(column if shared else None)
    return found


PIECE = st.tuples(st.text(alphabet="ab值é ", max_size=4), st.booleans())  # (text before an element, a line break after it)


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECE, max_size=12))
def test_columns_are_those_each_neighbour_gave(pieces: list[tuple[str, bool]]):
    data, elements, line = b"", [], 1
    for text, breaks in pieces:
        data += text.encode("utf-8")
        start = len(data)
        data += "{}".encode("utf-8")
        elements.append(Element(start, len(data), line))
        if breaks:
            data, line = data + b"\n", line + 1
    assert columns(data, elements) == columns_by_neighbours(data, elements)


def test_a_document_decoded_whole_is_read_late_without_its_texts(tmp_path: Path, monkeypatch):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(bench_peers.conversation(random.Random(5), good=True)), encoding="utf-8")
    decoded: list[int] = []
    reference = openai_document.decoded
    monkeypatch.setattr(openai_document, "decoded", lambda *args: decoded.append(1) or reference(*args))
    (_, _, conversation), = each_conversation("auto", [path], late=True)
    assert conversation.calls and not decoded
    (_, _, eager), = each_conversation("auto", [path])
    assert eager.calls and decoded  # read as import reads it, each message's text is looked at for its places


def test_a_tool_messages_place_is_made_once(tmp_path: Path, monkeypatch):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(bench_peers.conversation(random.Random(7), good=True)), encoding="utf-8")
    asked: list[tuple[str, str]] = []
    reference = SharedLine.origin
    monkeypatch.setattr(SharedLine, "origin", lambda self, key, nth, suffix="": asked.append((self.pointer, suffix))
                        or reference(self, key, nth, suffix))
    (_, _, conversation), = each_conversation("auto", [path], late=True)
    answers = [call.result_origin for call in conversation.calls if call.result_origin is not None]
    assert answers and all(asked.count((place.pointer.removesuffix("/content"), "/content")) == 1
                           for place in answers)
