"""The writer's scans of each file it writes give what the scans they replaced gave.

A lone surrogate is found by encoding the text (``_written``, which keeps the bytes
for the file), where a regex of the surrogates searched it; a Windows home's
``users`` by lowering the text's UTF-8 bytes (``scrub_homes``, given those bytes or
not), where the text itself was lowered. The replaced scans are kept here as the
reference.
"""

from __future__ import annotations

import re
import sys

from hypothesis import given, settings, strategies as st

from referee.engine.run.importers import homes, writer
from referee.engine.run.importers.homes import scrub_homes

_SURROGATE = re.compile("[\ud800-\udfff]")
# the characters the scans turn on, beside any text: every case of "users", the
# characters whose lowering is not one character (İ) or is ASCII (the Kelvin sign), the
# long s a case-blind regex takes for an s, surrogates, separators and homes
PIECES = st.sampled_from(["users", "USERS", "uSeRs", "Users", "İ", "\u212a", "\u017f", "uſers", "\ud800", "\udfff",
                          "\ud83d\ude00", "C:", "c:\\", "C:/", "\\\\", "/mnt/c/", "/home/ann", "/Users/bo", "值", " "])
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=12).map("".join)


def escaped_by_regex(text: str) -> str:
    if _SURROGATE.search(text):
        return text.encode("utf-8", errors="backslashreplace").decode("utf-8")
    return text


def scrubbed_by_lowered_text(text: str) -> str:
    if "users" in text.lower():
        text = homes._WINDOWS_HOME.sub(homes._home, text)
    if "/home/" in text or "/Users/" in text:
        text = homes._POSIX_HOME.sub(homes._home, text)
    return text


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_surrogates_are_escaped_as_the_regex_found_them(text: str):
    written, data = writer._written(text)
    assert written == escaped_by_regex(text)
    assert data == written.encode("utf-8")


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_homes_are_scrubbed_as_when_the_text_was_lowered(text: str):
    assert scrub_homes(text) == scrubbed_by_lowered_text(text)
    written, data = writer._written(text)
    assert scrub_homes(written, data) == scrubbed_by_lowered_text(written)


def test_no_character_but_an_ascii_letter_lowers_to_a_letter_of_users():
    """Why lowering the bytes finds what lowering the text finds: the ASCII letters
    lower alike in both, and no other character lowers to u, s, e or r."""
    others = "".join(map(chr, [*range(0x80, 0xD800), *range(0xE000, sys.maxunicode + 1)])).lower()
    assert not any(letter in others for letter in "user")
    assert "k" in others  # the check can fail: the Kelvin sign lowers to an ASCII k
