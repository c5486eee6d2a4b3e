"""Home folders, which name a person, made ``<home>`` in every file an import writes
(``engine.run.importers.writer``): in the text of each view, and in the texts and
keys of the JSON files written from values (metrics, timing)."""

from __future__ import annotations

import re
from typing import Any

# A home folder, which names a person: /home/NAME, /Users/NAME, C:\Users\NAME (its
# backslashes doubled inside JSON). Replaced by HOME in every file written.
HOME = "<home>"
_POSIX_HOME = re.compile(r"/(?:home|Users)/(?!<)[^/\\\s\"'<>:;|*?]+")
# Windows names a folder in any case and takes either slash: c:\users\ann, C:/Users/ann,
# and WSL shows its drives as /mnt/c: /mnt/c/Users/ann.
_WINDOWS_HOME = re.compile(r"(?:[A-Za-z]:|/mnt/[A-Za-z])(?:\\\\|\\|/)users(?:\\\\|\\|/)(?!<)[^/\\\s\"'<>:;|*?]+",
                           re.IGNORECASE)
_PATH_CHAR = re.compile(r"[\w.~/-]")
# A path as Windows writes it, behind its drive: it names a folder in any case.
WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]")
# A file URI's path starts after "file://" (and a Windows drive after one more "/"): there
# a home folder follows a path character and still starts the path.
_FILE_URI = re.compile(r"file:///?$", re.IGNORECASE)


def scrub_homes(text: str, data: bytes | None = None) -> str:
    """``text`` with each home folder (``/home/NAME``, ``/Users/NAME``, ``C:\\Users\\NAME``)
    made ``<home>``, where it starts a path (``a/home/x`` is a relative path, kept).
    Patterns run only on text that holds a word they need (a case-blind pattern tries
    every place of the text, which cost more than the rest of an import); a drive's home
    first, so ``C:/Users/ann`` is one home, not a drive before one. ``data``: the text's
    UTF-8, when the caller has it."""
    # "users" in any case, looked for in the UTF-8 bytes lowered (their ASCII letters alone),
    # which finds what the text lowered would: no other character lowers to u, s, e or r,
    # and lowering bytes costs a fraction of lowering text that is not all ASCII
    if b"users" in (text.encode("utf-8", "surrogatepass") if data is None else data).lower():
        text = _WINDOWS_HOME.sub(_home, text)
    if "/home/" in text or "/Users/" in text:
        text = _POSIX_HOME.sub(_home, text)
    return text


def without_homes(value: Any, clashed: list[str]) -> Any:
    """A JSON value written as a file (metrics, timing) with home folders scrubbed from
    its texts and its keys (a tool named ``/home/ann/tool`` is counted as the transcript
    names it, ``<home>/tool``). Keys that become one have their counts added, as the
    transcript shows their calls under one name; any other value so met keeps the first
    and is named in ``clashed``."""
    if isinstance(value, str):
        return scrub_homes(value)
    if isinstance(value, list):
        return [without_homes(item, clashed) for item in value]
    if not isinstance(value, dict):
        return value
    found: dict[str, Any] = {}
    for key, item in value.items():
        name, item = scrub_homes(key) if isinstance(key, str) else key, without_homes(item, clashed)
        if name not in found:
            found[name] = item
        elif _count(found[name]) and _count(item):
            found[name] += item
        else:
            clashed.append(name)
    return found


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _home(match: re.Match) -> str:
    at = match.start()
    before = match.string[at - 1] if at else ""
    if before and _PATH_CHAR.match(before) and not _FILE_URI.search(match.string, max(0, at - 8), at):
        return match.group()
    return HOME
