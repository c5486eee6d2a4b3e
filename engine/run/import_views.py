"""What an import wrote, checked against its source map: a response, a transcript
view or a JSON file (metrics, timing) that is not the text the import wrote (its
SHA-256 differs: edited since, left short) or that the import could not read for
certain (the map's ``unread``) cannot be used, never read as it lies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from referee.engine.run.model import JsonFile, Problem, TextFile, text_sha256
from referee.engine.run.reading import RESPONSE
from referee.engine.run.safeio import join_report


def imported_response(found: TextFile, unread: Mapping[str, Mapping[int, tuple[str, ...]]], report: str) -> TextFile:
    """The response an import wrote, unusable where the import could not read it for
    certain (``importers.lossy``, ``claude_code``: its source map's ``unread`` names
    its lines)."""
    lines = unread.get(found.path)
    if not lines:
        return found
    message = ("the import could not read this response for certain (from bytes that are not UTF-8, with a "
               "line after it that could not be read, beside a part of a message not read, or with a call the "
               "source does not hold: see the run's warnings)")
    return replace(found, problems=found.problems + (Problem("unreadable", report, message, min(lines)),))


def as_written(text: str, digest: str) -> bool:
    """Whether ``text`` is the text an import wrote where its source map records
    ``digest`` (the SHA-256 of its UTF-8)."""
    return text_sha256(text) == digest


def view_as_written(view: TextFile, digest: str) -> bool:
    """``as_written(view.text, digest)`` for a file read with its text: hashed once for
    every reader that asks (``TextFile.sha256``)."""
    return view.sha256 == digest


def changed_response(found: TextFile | None, digests: dict[str, str], base: str) -> TextFile | None:
    """The response of an imported run (``found``, None when there is none), unusable
    when it is not the text the import wrote in ``outputs/response.md`` (the SHA-256
    its source map records): edited since, left short (a copy cut, a machine stopped
    before the disk had all of it), or gone where the import wrote words. The reply
    the source holds is then unknown; read as it is, or as none, 'not response
    contains "x"' passed on the words cut from it. ``base``: the run's place."""
    if found is None:
        written = digests.get(RESPONSE)
        if written is None or as_written("", written):  # the import wrote no reply
            return None
        message = ("the import wrote the run's reply here, and it is gone or empty now: the reply the source holds "
                   "is unknown, so the response cannot be used; import the source again")
        return TextFile(RESPONSE, None, 0, (Problem("unreadable", join_report(base, RESPONSE), message),))
    from referee.engine.run.agents import view_changed  # agents reads transcripts: loaded when needed

    changed = view_changed(found, RESPONSE, digests, base) if found.path == RESPONSE else None
    if changed is None:
        return found
    message = ("not the text the import wrote (see its view-changed warning): the reply the source holds is "
               "unknown, so the response cannot be used")
    return replace(found, problems=found.problems + (Problem("unreadable", changed.path, message),))


def changed_json(path: str, text: TextFile | None, digests: Mapping[str, str], base: str) -> JsonFile | None:
    """A JSON file an import wrote (its source map records its SHA-256) as unusable
    when it is gone or is not the text the import wrote (removed, edited, left short
    since): read as it is, or as missing, a check on its figures passed on what is
    left. None when it is the import's text, or the import wrote none (``text``: the
    file as read, None when there is none)."""
    written = digests.get(path)
    body = None if text is None else text.text
    if written is None or (text is not None and body is None):  # not written, or not read: said so there
        return None
    if text is not None and body is not None and view_as_written(text, written):
        return None
    how = "is gone now" if body is None else "has changed since (edited, or left short)"
    message = f"the import wrote this file, and it {how}: its figures are unknown; import the source again"
    return JsonFile(path, None, (Problem("unreadable", join_report(base, path), message),))


def imported_json(found: JsonFile, unread: Mapping[str, Mapping[int, tuple[str, ...]]], report: str) -> JsonFile:
    """A JSON file an import wrote (metrics, timing), unusable where the import could
    not read the source's own (its source map's ``unread`` names it): written as
    ``null``, it would otherwise read as a file with no fields."""
    if not unread.get(found.path):
        return found
    message = ("the import could not read this file's source (the executor's file beside its log, not JSON or "
               "not UTF-8, or names in it that are one once home folders are made <home>: see the run's warnings)")
    return replace(found, value=None, problems=found.problems + (Problem("unreadable", report, message, 1),))
