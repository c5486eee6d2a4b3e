"""The file a harness delivered as the answer, taken over a summary when both exist.

A harness that delivers the answer as a file names it (``--response PATH``,
relative to the run folder). When a source is imported, its run folder is the
folder the source lies in, or the one above when that folder is ``outputs/``;
the file named there, or else an ``outputs/response.md`` beside the source, is
the run's response, each line mapped to that file, instead of what the importer
read as the agent's last words. As when the run is graded where it lies: a file
named but missing leaves the run with no response (never the agent's last words),
and one that is there but cannot be read (a link out of the run folder, a folder,
too large) leaves the response unknown, so the source is not imported.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.engine.run.importers.record import Conversation, Origin, Text
from referee.engine.run.importers.source import read_source
from referee.engine.run.model import Problem
from referee.engine.run.safeio import locate, safe_relative

DEFAULT = "outputs/response.md"


def run_folder(folder: Path) -> Path:
    """The run folder of a source lying in ``folder``."""
    return folder.parent if folder.name == "outputs" else folder


class UnreadableResponse(Exception):
    """The delivered file is there but cannot be read; ``str(error)`` says why."""


def delivered(folder: Path, named: str | None, source: str, problems: list[Problem]) -> tuple[Text, ...] | None:
    """The delivered file of the source named ``source`` lying in ``folder``, as the
    response: ``(text,)``; ``()`` for a file named but missing (a problem of the
    source); None when nothing is delivered (the importer's response stands).
    Raises ``UnreadableResponse`` for a file that is there but cannot be read, and for
    a name that leaves the run folder: the harness named a file as the answer, which is
    not read (as ``grade --response`` does not read it), so the response is unknown,
    neither the agent's last words nor none."""
    rel = safe_relative(named) if named is not None else DEFAULT
    if rel is None:
        raise UnreadableResponse(f"--response {named}: the path leaves the run folder, so the file the harness "
                                 "named as the answer is not read: the run's response is unknown")
    root = run_folder(folder)
    path = root / rel
    if path.name == source and path.parent == folder:
        return None  # the source itself
    found = locate(root, rel, path.name)
    if found.real is None and found.exists:
        why = found.problems[0].message if found.problems else "cannot be read"
        raise UnreadableResponse(f"the delivered response {rel} is there but cannot be read ({why}): the run's "
                                 "response is unknown")
    if found.real is None:
        if named is None:
            return None
        problems.append(Problem("no-response", source, f"--response {named}: no such file beside the source; "
                                "the run has no response"))
        return ()
    read = read_source(Path(found.real), path.name)
    problems.extend(read.problems)
    return (Text("agent", "delivered file", read.text, Origin(read.name, 1), per_line=True),)


def with_delivered(conversation: Conversation, path: Path, named: str | None) -> Conversation:
    """``conversation`` (read from the source at ``path``) with the delivered file
    as its response when there is one."""
    problems = list(conversation.problems)
    reply = delivered(path.parent, named, path.name, problems)
    if reply is None:
        return replace(conversation, problems=tuple(problems))
    return replace(conversation, response=reply, problems=tuple(problems))
