"""What a folder's listing tells discovery (``engine.run.folder_walk``) about the folder:
whether it may hold eval metadata, whether it sits where a run's configuration
does, which run folders it holds, whether it holds a grader's files alone.
"""

from __future__ import annotations

import os

from referee.engine.run.identity import METADATA, is_eval_folder, is_run_folder, is_run_like

# What a grading script leaves in a run-<n> folder it makes inside the run it graded
# (skill-creator's aggregator looks for run-*/grading.json): the grade, and a copy of
# the run's timing. Neither is a record of the run.
GRADE_FILES = frozenset({"grading.json", "timing.json"})


def text_of(key: tuple) -> str:
    """The text a ``natural_key`` was made of."""
    return "".join(part[-1] for part in key)


def below_configuration(parts: tuple[str, ...]) -> bool:
    """Whether a run folder (it holds ``outputs/``) not named ``run-<n>`` sits in a
    configuration folder of an eval folder (``eval-1/with_skill/trial-2``,
    ``eval-1/with_skill/2``): read by the folders alone, the configuration would be
    its eval and its own name the configuration, an eval no rules name, so it went
    ungraded beside the runs of its configuration. An eval folder holds no eval."""
    return (len(parts) >= 3 and is_eval_folder(parts[-3]) and not is_eval_folder(parts[-2])
            and not is_run_like(parts[-2]) and not is_run_like(parts[-1]))


def numbered_runs_in(folder: str) -> list[str]:
    """The ``run-<n>`` folders right in ``folder`` that hold ``outputs/``, sorted
    (symlinked ones are not followed; a folder that cannot be listed holds none)."""
    try:
        with os.scandir(folder) as listing:
            return sorted(e.name for e in listing if is_run_folder(e.name) and not e.is_symlink()
                          and e.is_dir(follow_symlinks=False) and os.path.isdir(os.path.join(e.path, "outputs")))
    except OSError:
        return []


def grade_alone(folder: str) -> tuple[str, ...]:
    """The files of ``folder`` (sorted) when it holds a grader's files and nothing
    else: ``grading.json`` (and a ``timing.json``), as regular files; else none.
    Anything more (outputs/, a transcript, a response, any other file or folder, a
    symlink) may be a run's record, which would go unread; an empty folder tells nothing."""
    try:
        with os.scandir(folder) as listing:
            entries = [(e.name, e.is_file(follow_symlinks=False)) for e in listing]
    except OSError:
        return ()
    names = {name for name, _ in entries}
    if "grading.json" in names and names <= GRADE_FILES and all(regular for _, regular in entries):
        return tuple(sorted(names))
    return ()


def may_hold_metadata(entries: dict[str, os.DirEntry]) -> bool:
    """Whether a run folder, by its listing, may hold ``eval_metadata.json``: when it
    cannot, identifying the run need not look. Names are compared casefolded too,
    as a case-insensitive file system (macOS) opens EVAL_METADATA.JSON by that name."""
    if METADATA in entries:
        return True
    # All names at once: casefolding maps each character on its own, and no name holds "/".
    return f"/{METADATA}/" in f"/{'/'.join(entries)}/".casefold()
