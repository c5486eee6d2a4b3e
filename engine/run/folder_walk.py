"""The depth-first walk over a workspace's folders that ``engine.run.discovery`` makes.

Each folder holding ``outputs/`` is a run: identified (``engine.run.identity``), its
order key and folder kept. Anything else met on the way is said as a problem, and a
folder that was a run but cannot be read is kept as not read. After the walk, the
layout problems that need every run found: evals that share an id in different
folders, an eval folder split between evals, two runs claiming one number.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from referee.engine.run.identity import (METADATA, SOURCE_MAP, MetadataReader, eval_prefix, identify, is_eval_folder,
                                         is_run_folder, is_run_like, natural_key)
from referee.engine.run.kept_apart import KeptApart, Place, place_of
from referee.engine.run.metadata_evals import EvalSentences, located, sentences_of, text_or_none
from referee.engine.run.model import Problem, RunId
from referee.engine.run.run_folders import (below_configuration, grade_alone, may_hold_metadata, numbered_runs_in,
                                            text_of)

_STRAY = re.compile(r"(?:eval|run)[-_]", re.I)  # files named like a run or eval folder
RUN_NUMBER_TAKEN = "run-number-taken"  # two runs of one configuration claim one number
RUN_INSIDE_RUN = "run-inside-run"  # a run folder below a folder that is a run itself: never read
GRADE_FOLDER = "grade-folder"  # a run-<n> folder inside a run holding only a grader's files: not read
# Files a run folder holds beside outputs/: a folder with one of them and no outputs/
# was meant to be a run.
_RUN_FILES = ("transcript.md", "response.md", "timing.json", "grading.json")
_COUNTED = "(counted as not read by the gate, report and aggregate)"  # how a run folder not read is said


def order_key(rid: RunId, key: Callable[[str], tuple]) -> tuple:
    """The order of runs: iteration (none first), eval, configuration and run number,
    eval and configuration by ``key`` (their natural key); ties: see ``engine.run.discovery``."""
    iteration = (0, 0) if rid.iteration is None else (1, rid.iteration)
    return iteration, key(rid.eval_id), key(rid.configuration), rid.run_number


class Walker:
    """Depth-first walk that never follows symlinked folders (no loops, no escapes).

    Each run found is identified (its order needs its eval, configuration and run
    number) and then let go: only its order key and ``rel`` are kept, with its
    eval id and the folder above its eval (``RunId.extra["folder"]``), so that
    evals sharing an id in different folders are kept apart (``keep_apart``), and
    the first sentences each eval's metadata gives. Folders are plain strings
    here: a Path is built only for a run, which ``identify`` needs."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.found: list[tuple[tuple, str]] = []
        self.evals: list[Place] = []  # where each run found has its eval
        self._sentences: dict[Place, EvalSentences] = {}
        self.problems: list[Problem] = []
        # Folders that were runs and cannot be read: a run-<n> folder with no outputs/
        # (empty, symlinked, or holding other files), a configuration folder holding a
        # run's files but no outputs/. A decision on the runs found leaves them out, so
        # those that decide (the gate, report, aggregate) count them as not read.
        self.unread: list[RunId] = []
        self.metadata = MetadataReader()
        self.prefix = eval_prefix(root)
        # The natural keys of folder names, eval ids and configurations: run-1 ... run-N
        # recur in every configuration folder, and an eval id in every run of the eval.
        self._keys: dict[str, tuple] = {}

    def visit(self, folder: str, parts: tuple[str, ...], rel: str = ".") -> None:
        entries = self._entries(folder, rel)
        if entries is None:
            return
        outputs = entries.get("outputs")
        if outputs is not None and outputs.is_dir(follow_symlinks=False):
            self._add_run(folder, parts, rel, entries)
            self._runs_inside(entries, rel)
            return
        if not entries:
            if parts and is_run_folder(parts[-1]):
                self._warn("empty-dir", rel, f"empty run folder: its run cannot be read {_COUNTED}")
                self._not_read(folder, rel, {})
            else:
                self._warn("empty-dir", rel, "empty folder; skipped")
            return
        before = len(self.found)
        for name in sorted(entries, key=self._key):
            self._visit_entry(entries[name], parts + (name,), f"{rel}/{name}" if parts else name)
        self._check_found(folder, parts, rel, before, entries)

    def _runs_inside(self, entries: dict[str, os.DirEntry], rel: str) -> None:
        """A run's folder is not walked: a run folder in it (``with_skill/run-1/outputs``
        beside ``with_skill/outputs``) would go unread, and a grade pass without it. Said,
        naming both (``RUN_INSIDE_RUN``)."""
        for name in sorted(entries):
            entry = entries[name]
            if name == "outputs" or entry.is_symlink() or not entry.is_dir(follow_symlinks=False):
                continue
            inner = f"{rel}/{name}" if rel != "." else name
            grade = grade_alone(entry.path) if is_run_folder(name) else None
            if grade:
                self._warn(GRADE_FOLDER, inner, f"holds only {' and '.join(grade)}, "
                           f"a grade of the run {rel} (a folder holding outputs/) written there by a grading "
                           "script, and is not read: the run is graded from its own folder, and its grade "
                           "written beside its outputs/")
            elif is_run_folder(name) or os.path.isdir(os.path.join(entry.path, "outputs")):
                self._warn(RUN_INSIDE_RUN, inner, f"a run folder inside the run {rel} (a folder holding outputs/), "
                           "which is not read: move one of them, so that no run holds another")
            else:
                # A level further down: eval-1/outputs/ (a run at the eval level) above
                # eval-1/with_skill/run-1/outputs/, the layout of runs below a run.
                for below in numbered_runs_in(entry.path):
                    self._warn(RUN_INSIDE_RUN, f"{inner}/{below}", f"a run folder inside the run {rel} (a folder "
                               "holding outputs/), which is not read: move one of them, so that no run holds "
                               "another")

    def _entries(self, folder: str, rel: str) -> dict[str, os.DirEntry] | None:
        try:
            with os.scandir(folder) as listing:
                return {e.name: e for e in listing if not e.name.startswith(".") and e.name != "__pycache__"}
        except OSError as exc:
            self._warn("unreadable", rel, f"cannot list folder: {exc.strerror or exc}")
            return None

    def _add_run(self, folder: str, parts: tuple[str, ...], rel: str, entries: dict[str, os.DirEntry]) -> None:
        name = parts[-1] if parts else self.root.name
        if is_run_like(name) and not is_run_folder(name):
            self._warn("bad-run-name", rel, f"run folder name is not run-<number>: its run is not graded {_COUNTED}")
            self._misnamed(folder, rel)
            return
        if below_configuration(parts):
            self._warn("bad-run-name", rel, f"a folder holding outputs/ in the configuration folder {parts[-2]!r} of "
                       f"the eval folder {parts[-3]!r} is a run, and its name is not run-<number>: its run is not "
                       f"graded {_COUNTED}")
            self._misnamed(folder, rel)
            return
        run_id, metadata, _ = identify(folder, rel, self.metadata, self.prefix, may_hold_metadata(entries),
                                       SOURCE_MAP in entries)
        self.found.append((order_key(run_id, self._key), rel))
        self._without_eval(run_id, rel, name)
        place = place_of(run_id)._replace(iteration=None)  # an eval's sentences are the same in every iteration
        self.evals.append(place_of(run_id))
        sentences = sentences_of(metadata) if metadata else ()
        if sentences and place not in self._sentences:
            file, places = located(folder, rel, metadata, sentences)
            self._sentences[place] = EvalSentences(run_id.eval_id, run_id.eval_name,
                                                   text_or_none(metadata.get("prompt")) or "", sentences, rel,
                                                   file, places)

    def _without_eval(self, run_id: RunId, rel: str, name: str) -> None:
        """A run-<n> folder right in the workspace whose eval nothing names (no eval
        folder, no eval_id in metadata): its eval is read from its own name, so each
        such run is an eval of its own, apart from the runs beside it. The workspace
        folder's name would be the eval's, but it varies with where the workspace lies."""
        if rel == "." or not is_run_folder(name) or "eval_folder" in run_id.extra or run_id.eval_id != name:
            return
        self._warn("no-eval-folder", rel, f"run folder right in the workspace, with no eval folder above it and no "
                   f"eval_metadata.json naming its eval: it is read as eval {name!r}, apart from the runs beside "
                   "it; put the runs in an eval folder (eval-1/run-1), or give each an eval_metadata.json "
                   "with its eval_id")

    def keep_apart(self) -> KeptApart:
        """The eval ids that evals in different folders share; their runs' order
        keys are made again with the ids as ``KeptApart`` qualifies them."""
        repeated = KeptApart.of(self.evals)
        if repeated:
            for n, ((key, rel), place) in enumerate(zip(self.found, self.evals)):
                eval_id = repeated.qualified(place)
                if eval_id != place.eval_id:
                    self.found[n] = ((key[0], self._key(eval_id)) + key[2:], rel)
        return repeated

    def evals_split(self) -> None:
        """Runs of one eval folder read as runs of different evals: the eval_metadata.json
        of a run (or of a configuration) names another eval than the rest, or only some
        runs have one. Each eval then has only some of the runs, and the aggregate
        counts them as evals of their own: said, naming a run of each."""
        first: dict[tuple, tuple[str, str]] = {}
        for (_, rel), place in zip(self.found, self.evals):
            if not place.eval_folder:
                continue  # run folders right in the workspace: no eval folder holds them
            eval_id, taken = first.setdefault((place.folder, place.iteration, place.eval_folder), (place.eval_id, rel))
            if eval_id != place.eval_id:
                self._warn("eval-split", rel, f"read as eval {place.eval_id!r}, but {taken}, in the same eval folder "
                           f"{place.eval_folder!r}, is eval {eval_id!r}: an eval_metadata.json of one run or "
                           "configuration names another eval than the rest; give every run of the folder the "
                           "same eval_id, or one eval_metadata.json in the eval folder")

    def numbers_taken(self) -> None:
        """Runs that claim one number (``run-1`` beside ``run-01``, both run 1) of one
        configuration of an eval in one iteration: said, naming both
        (``RUN_NUMBER_TAKEN``). A run's number is its identity in every report
        (grading.json, benchmark.json, JUnit, shards), where one would shadow the other."""
        first: dict[tuple, str] = {}
        for key, rel in self.found:
            taken = first.setdefault(key, rel)
            if taken != rel:
                self._warn(RUN_NUMBER_TAKEN, rel, f"{taken} and {rel} are both run {key[3]} of eval "
                           f"{text_of(key[1])}, configuration {text_of(key[2])}: number the runs apart "
                           "(run-1, run-2)")

    def sentences(self, repeated: KeptApart) -> tuple[EvalSentences, ...]:
        """The sentences of each eval (by its qualified id when kept apart), in walk
        order: the first found for each."""
        found: dict[str, EvalSentences] = {}
        for place, one in self._sentences.items():
            eval_id = repeated.qualified(place)
            if eval_id not in found:
                found[eval_id] = replace(one, eval_id=eval_id)
        return tuple(found.values())

    def _key(self, text: str) -> tuple:
        key = self._keys.get(text)
        if key is None:
            key = self._keys[text] = natural_key(text)
        return key

    def _visit_entry(self, entry: os.DirEntry, parts: tuple[str, ...], rel: str) -> None:
        if entry.is_symlink():
            if entry.is_dir() and is_run_folder(entry.name):
                self._warn("symlink-skipped", rel, f"symlinked run folder; not followed, so its run cannot be read "
                           f"{_COUNTED}")
                self._not_read(entry.path, rel, {})
            elif entry.is_dir():
                self._warn("symlink-skipped", rel, "symlinked folder; not followed")
            return
        if entry.is_dir(follow_symlinks=False):
            self.visit(entry.path, parts, rel)
        elif _STRAY.match(entry.name) and entry.name != METADATA:
            self._warn("stray-file", rel, "file where a run or eval folder was expected; skipped")

    def _check_found(self, folder: str, parts: tuple[str, ...], rel: str, before: int,
                     entries: dict[str, os.DirEntry]) -> None:
        if len(self.found) > before or not parts:
            return
        name = parts[-1]
        held = [file for file in _RUN_FILES if file in entries]
        if is_run_folder(name):
            self._warn("no-outputs", rel, f"run folder has no outputs/ folder: its run cannot be read {_COUNTED}")
            self._not_read(folder, rel, entries)
        elif is_run_like(name):
            self._warn("bad-run-name", rel, "run folder name is not run-<number>; skipped")
        elif held:
            # A configuration folder of the flat layout (eval-1/without_skill/) that lost
            # or never had outputs/: skipped without a word, its eval would be graded on
            # its other configurations alone.
            self._warn("no-outputs", rel, f"folder holds {', '.join(held)} but no outputs/ folder, "
                       f"so its run cannot be read {_COUNTED}")
            self._not_read(folder, rel, entries)
        elif is_eval_folder(name):
            self._warn("no-runs", rel, "no run (a folder holding outputs/) below this eval folder")

    def _not_read(self, folder: str, rel: str, entries: dict[str, os.DirEntry]) -> None:
        """Keep the id of a run folder that cannot be read: where its eval,
        configuration and number are, as a run there would have them (its own
        eval_metadata.json is read only from a folder that was listed)."""
        run_id, _, _ = identify(folder, rel, self.metadata, self.prefix, may_hold_metadata(entries), False)
        self.unread.append(run_id)

    def _misnamed(self, folder: str, rel: str) -> None:
        """Keep the id of a run folder (it holds ``outputs/``) whose name is no
        ``run-<n>``: it is a run, with no number to report it by. Identified as a
        ``run-<n>`` beside it would be: read by its own name, ``run-a`` would be the
        configuration and the configuration the eval."""
        if rel == ".":
            self._not_read(folder, rel, {})
            return
        parent, parent_rel = os.path.dirname(folder), rel.rpartition("/")[0]
        numbered = f"{parent_rel}/run-1" if parent_rel else "run-1"
        run_id, _, _ = identify(os.path.join(parent, "run-1"), numbered, self.metadata, self.prefix, False, False)
        self.unread.append(replace(run_id, rel=rel))

    def _warn(self, code: str, rel: str, message: str) -> None:
        self.problems.append(Problem(code, rel, message))
