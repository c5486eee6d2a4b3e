"""Where a key of one message is cited: counted among its like (the same member of
each call) when those are all the keys of that name, else among every member of the
message in the order written (``member_ranks``, the reference). Drawn messages hold
the two to each other."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from referee.engine.run.importers.message_lines import MessageLines, key_offsets, member_ranks

_FUNCTION = st.fixed_dictionaries({}, optional={"name": st.sampled_from(["Bash", "Read"]),
                                                "arguments": st.just("{}")})
_CALL = st.fixed_dictionaries({"id": st.just("c"), "function": _FUNCTION},
                              optional={"name": st.just("x"), "type": st.just("function")})
_MESSAGE = st.fixed_dictionaries({"role": st.just("assistant"), "tool_calls": st.lists(_CALL, max_size=4)},
                                 optional={"name": st.just("planner"), "content": st.just("hi")})


def _reference(message: dict, key: str, suffix: str) -> int | None:
    """The rank of the key at ``suffix`` among every member named ``key``, in order."""
    holder = message
    parts = suffix.split("/")[1:]
    for part in parts[:-1]:
        holder = holder[int(part)] if isinstance(holder, list) else holder.get(part)
        if holder is None:
            return None
    if not isinstance(holder, dict) or parts[-1] not in holder:
        return None
    return member_ranks(message).get((id(holder), parts[-1]))


@settings(max_examples=300, deadline=None)
@given(_MESSAGE, st.sampled_from(["name", "arguments"]), st.booleans())
def test_a_key_is_ranked_as_every_member_of_its_name_ranks_it(message, key, pretty):
    text = json.dumps(message, indent=1 if pretty else None)
    lines = MessageLines(text, 1, "m.json", "/0", None if pretty else 0, json.loads(text))
    lines.keys[key] = key_offsets(text, key)
    for n in range(len(message["tool_calls"])):
        suffix = f"/tool_calls/{n}/function/{key}"
        assert lines._rank(key, suffix, n) == _reference(json.loads(text), key, suffix), (suffix, text)


# what the reader asks: a key and its pointer below the message (which ends with it), or the message's start
_PLACES = [("", ""), ("content", "/content"), ("name", "/name")] + [
    (key, f"/tool_calls/{n}/function/{key}") for n in range(5) for key in ("name", "arguments")]
_ASKED = st.tuples(st.sampled_from(_PLACES), st.integers(0, 4)).map(lambda p: (p[0][0], p[1], p[0][1]))


@settings(max_examples=300, deadline=None)
@given(_MESSAGE, st.lists(_ASKED, max_size=12), st.booleans())
def test_a_place_kept_is_the_place_found_anew(message, asked, pretty):
    """``origin`` keeps each place it found; ``placed``, the reference, finds it anew
    (on lines that have been asked nothing): the two give the same place, however
    often and in whatever order the places are asked for."""
    text = json.dumps(message, indent=1 if pretty else None)

    def lines() -> MessageLines:
        return MessageLines(text, 3, "m.json", "/0", None if pretty else 7, json.loads(text))

    kept = lines()
    for key, nth, suffix in asked + asked:
        assert kept.origin(key, nth, suffix) == lines().placed(key, nth, suffix), (key, nth, suffix, text)


def test_a_place_asked_for_again_is_not_looked_for_again():
    text = json.dumps({"role": "tool", "tool_call_id": "c", "content": "done"})
    lines = MessageLines(text, 1, "m.json", "/2", 0, json.loads(text))
    first = lines.origin("content", 0, "/content")
    assert lines.origin("content", 0, "/content") is first
    assert first.column == text.index('"content"') + 1 and first.pointer == "/2/content"
