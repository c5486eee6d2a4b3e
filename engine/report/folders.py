"""The folder a user names to write into is checked before any work, and never created.

``aggregate --output DIR``, ``compare --out DIR``, ``analyze --out DIR`` and the folder
of ``report -o FILE`` or ``suggest -o FILE`` must be folders that are there already. A
path with a typo in it is refused, saying so, rather than made into a tree nobody looks
in while the command reports success; and it is refused before the work, so a
comparison that asks a model has not paid for replies it then cannot write. (The
folders referee picks itself inside a workspace, such as ``comparison/`` and
``report_files/``, are made as before.)

Nor does ``-o`` name what the command reads: ``report -o`` a run's grading.json, or
``suggest -o`` its evals.json, would replace the input with the output.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from referee.engine.usage import UsageError


def named_folder(folder: Path, flag: str, writes: tuple[str, ...] = ()) -> Path:
    """``folder`` when it is a folder (a link to one is followed, as the shell would)
    where the files named ``writes`` would not stand among a run's own (``not_in_a_run``);
    ``UsageError`` naming ``flag`` otherwise."""
    if folder.is_dir():
        for name in writes:
            not_in_a_run(folder / name, flag)
        return folder
    if folder.exists() or folder.is_symlink():
        raise UsageError(f"{folder} is not a folder: {flag} names the folder to write into; "
                         f"give a folder with {flag} (nothing was done)")
    raise UsageError(f"{folder} does not exist: {flag} names a folder that must be there already "
                     "(referee creates none, so a mistyped path writes nothing); create it first, "
                     f"or give another place with {flag} (nothing was done)")


def folder_of_file(file: Path, flag: str) -> Path:
    """``file``, when the folder it would be written into is there (``named_folder``)."""
    folder = file.parent
    if not folder.is_dir():
        if folder.exists() or folder.is_symlink():
            raise UsageError(f"{folder} is not a folder, so {file} cannot be written there; "
                             f"give another place with {flag} (nothing was done)")
        raise UsageError(f"{folder} does not exist, so {file} cannot be written there: {flag} writes "
                         "into a folder that must be there already (referee creates none, so a "
                         f"mistyped path writes nothing); create it first, or give another place "
                         f"with {flag} (nothing was done)")
    return file


# What the readers of a grade read at a workspace's root (besides the run folders).
_ROOT_DOCUMENTS = re.compile(r"benchmark\.json|validity\.json|critique\.json|shard-merge\.json"
                             r"|shard-[0-9]+-of-[0-9]+\.json")


def not_read_from(file: Path, workspace: Path, flag: str) -> Path:
    """``file``, unless it is a file already there that the command reads from
    ``workspace``: a file of a run folder (its grading.json, its outputs) or a document
    at the root (benchmark.json, ...). ``-o`` replaces what it names, as the shell's
    ``>`` does; pointed at its own input by mistake, it would put a report in place of
    the grade it reports (a link to such a file is followed, as the write would)."""
    try:
        if not file.is_file():
            return file
        target, root = file.resolve(), workspace.resolve()
    except (OSError, RuntimeError):  # a loop of links: the write says what is wrong
        return file
    if target.parent == root and _ROOT_DOCUMENTS.fullmatch(target.name):
        what = f"{target.name}, which it reads"
    elif target.is_relative_to(root) and _run_folder_of(target, root) is not None:
        what = "a file of a run folder it reports on"
    else:
        return file
    raise UsageError(f"{file} is {what}: {flag} would put the report in its place; "
                     f"give another place with {flag} (nothing was done)")


def _run_folder_of(target: Path, root: Path) -> Path | None:
    """The run folder (a folder holding outputs/) that holds ``target``, up to ``root``."""
    for folder in target.parents:
        if (folder / "outputs").is_dir():
            return folder
        if folder == root or not folder.is_relative_to(root):
            return None
    return None


def not_an_input(file: Path, inputs: list[Path], flag: str, read_as: str = "") -> Path:
    """``file``, unless it is one of the files the command reads (the same file,
    through a link too): it would be replaced before anyone read what it said.
    ``read_as`` names how the command was given it (``--against``)."""
    for given in inputs:
        try:
            same = file.is_file() and given.is_file() and os.path.samefile(file, given)
        except OSError:
            same = False
        if same:
            named = "" if str(given) == str(file) else f" as {given}"
            how = f" ({read_as}{named})" if read_as else named
            raise UsageError(f"{file} is read by this command{how}, and it would write over it; "
                             f"give another place with {flag} (nothing was done)")
    return file


def not_in_a_run(file: Path, flag: str) -> Path:
    """``file``, unless it would stand among a run's own files (in its outputs/, or
    beside them under a name referee does not write): the next grade would take it
    for something the agent made, and the run's grade is stale from then on, as its
    files changed (``freshness.files_digest``)."""
    from referee.engine.report.freshness import digested

    try:
        place = file.parent.resolve() / file.name
    except (OSError, RuntimeError):  # a loop of links: the write says what is wrong
        return file
    for folder in place.parents:
        if (folder / "outputs").is_dir():
            if digested(place.relative_to(folder).as_posix()):
                raise UsageError(f"{file} would stand among the files of a run (the folder holding "
                                 "outputs/ it is in): the run would change, and its grade with it; give a "
                                 f"place outside the run with {flag} (nothing was done)")
            return file
    return file
