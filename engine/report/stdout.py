"""A document on standard output: ``--json``, ``report -o -``, a drafted rules file.

A document is bytes for a program to read, not text for a person: JSON's interchange
encoding is UTF-8, and the JUnit and HTML reports declare UTF-8. So it goes out as the
UTF-8 that ``-o FILE`` would write, whatever the console's encoding. Written as text on
a console encoded in ASCII or Latin-1 (``PYTHONIOENCODING``), it came out as another
encoding's bytes under an XML declaration of UTF-8, or with Python's ``\\xfc`` for
what the encoding lacks, which is no JSON escape: a document no parser reads.
"""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from referee.engine.report.atomic import encode


def print_json(text: str) -> None:
    """JSON ``text`` on standard output, as ``print_document`` writes it, with each ``##[``
    written ``##\\u005b`` (``log_safe_json``)."""
    print_document(log_safe_json(text))


def log_safe_json(text: str) -> str:
    """JSON ``text`` with each ``##[`` written ``##\\u005b``: the same values. Standard output
    may be a CI log, whose runner reads a workflow command in its legacy form, ``##[name]``,
    anywhere in a line (``##[add-mask]FAIL`` would hide "FAIL" in the rest of the log);
    in JSON, ``##[`` can only stand inside a string, where the escape reads as ``[``."""
    return text.replace("##[", "##\\u005b")


def log_safe_bytes(data: bytes) -> bytes:
    """``log_safe_json`` on UTF-8 ``data``, without decoding it: ``##[`` is ASCII, and
    UTF-8 never uses an ASCII byte inside another character, so its bytes stand
    exactly where the text has it."""
    return data.replace(b"##[", b"##\\u005b")


def print_document(text: str) -> None:
    """``text`` on standard output as ``-o FILE`` would write it (UTF-8)."""
    utf8_writer(sys.stdout)(encode(text))


def utf8_writer(stream: TextIO) -> Callable[[bytes], object]:
    """Write UTF-8 bytes to ``stream``: straight to the bytes beneath it, after what
    was written to it as text; as text to a stream with no bytes beneath (one a test
    or a program that embeds referee put in place of standard output)."""
    raw = getattr(stream, "buffer", None)
    if raw is None:
        return lambda data: stream.write(data.decode("utf-8"))
    stream.flush()  # what was written as text goes first
    return raw.write
