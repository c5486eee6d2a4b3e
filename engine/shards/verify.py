"""Whether the shards found in a workspace make one grade, before anything reads them.

The manifests (``shard-i-of-n.json`` at the workspace's root) are checked against
each other and against the runs of the workspace. Every problem is gathered,
each under its kind, and the whole list refuses the merge:

- ``mixed``: the shards disagree on what graded them (referee version, number of
  shards, rules, evals, the input files the rules read, LLM grader or cassette, options);
- ``missing``: a shard of 1..n has no manifest;
- ``duplicate``: two manifests are the same shard, or two list the same run;
- ``foreign``: a manifest lists a run that is not in this workspace, that is
  another run there (another identity), or that belongs to another shard (its
  identity hashes elsewhere): it was made for other runs, or another n;
- ``changed``: a run's report is not the one its shard wrote (nor the one a merge
  wrote), so it was graded again or edited since; the merge also finds a run
  whose files are not the ones its report was graded from (``merge``);
- ``ungraded``: a run present in the workspace that no shard graded or left out;
- ``selection``: a manifest lists a run as graded, or as left out (not selected,
  or no eval matches it), where the shards' selection and the rules say otherwise
  (``selection_problems``, for the merge, which has the rules): the manifest was
  edited, and a run moved out of its runs would go uncounted;
- ``tally``: a manifest's critique facts that the reports of its runs contradict
  (``recount``, for the merge): the eval critique would be made from edited facts.

Once merged (``merge``), ``shard-merge.json`` records every run's reports as the
merge wrote them; ``aggregate`` and ``report`` require it.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from referee.engine.report.freshness import file_digest
from referee.engine.report.marker import GRADING, GROUND_TRUTH
from referee.engine.run.workspace import report_path
from referee.engine.shards.manifest import BadManifest, LeftOut, Manifest, RunEntry, read_manifest
from referee.engine.shards.part import identity_of, manifest_name, shard_of

if TYPE_CHECKING:
    from referee.engine.compile import Program
    from referee.engine.run.model import RunId
    from referee.engine.run.workspace import Run

GRADED = "graded"  # a run's place in its manifest when it was graded (``selection_problems``)
MANIFEST_NAME = re.compile(r"shard-([0-9]+)-of-([0-9]+)\.json")
MERGE_RECORD = "shard-merge.json"
SHOWN = 10  # problems listed per kind; the rest are counted


class MergeRefused(Exception):
    """The shards do not make one grade; ``problems`` lists ``(kind, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__(describe(problems))
        self.problems = problems


@dataclass
class WorkspaceRun:
    folder: Path
    identity: tuple[str, str, int]
    order: int  # its place in the workspace's order


@dataclass
class Shards:
    """The manifests of a workspace (by shard number), checked; the runs of the
    workspace by path; what a merge recorded, if one did."""

    count: int
    manifests: dict[int, tuple[str, Manifest]]
    runs: dict[str, WorkspaceRun]
    merged: dict[str, dict[str, str]] | None = None  # path -> {grading, ground_truth} from shard-merge.json
    problems: list[tuple[str, str]] = field(default_factory=list)

    @property
    def first(self) -> Manifest:
        return self.manifests[min(self.manifests)][1]


def shard_files(workspace: Path) -> list[str]:
    """The manifests (``manifest_files``) and, when there, the merge's record: the files
    a sharded grade leaves at the workspace's root."""
    return manifest_files(workspace) + ([MERGE_RECORD] if (workspace / MERGE_RECORD).exists() else [])


def manifest_files(workspace: Path) -> list[str]:
    """The names of the shard manifests at the workspace's root, sorted."""
    found: list[tuple[tuple[int, ...], str]] = []
    try:
        with os.scandir(workspace) as listing:
            for entry in listing:
                match = MANIFEST_NAME.fullmatch(entry.name)
                if match is not None:
                    found.append((tuple(int(n) for n in match.groups()), entry.name))
    except OSError:
        return []
    return [name for _, name in sorted(found)]


def check(workspace: Path, runs: Sequence[Run], merged: dict[str, Any] | None = None, final: bool = False) -> Shards:
    """The workspace's shards, checked against each other and the workspace's ``runs``
    (a discovery's); ``merged`` is shard-merge.json's content when there is one.
    ``final`` (for the readers of a merged grade) requires the merge, and every
    report as the merge left it. Raises ``MergeRefused`` with every problem found."""
    problems: list[tuple[str, str]] = []
    manifests = _read_all(workspace, problems)
    if not manifests:
        raise MergeRefused(problems or [("missing", f"no shard manifest (shard-i-of-n.json) in {workspace}")])
    count = _settings(manifests, problems)
    unread = set(manifest_files(workspace)) - {name for name, _ in manifests}
    by_shard = _by_shard(manifests, count, problems, unread)
    shards = Shards(count or 0, by_shard, _workspace_runs(runs), _merged_runs(workspace, merged, manifests, problems if final else []))
    if final and shards.merged is None and not problems:
        problems.append(("unmerged", f"the {count} shards are not merged yet: run `referee merge {workspace} "
                                     "--rules ...` (with the rules they graded with) first"))
    if count is not None:
        _check_runs(shards, problems, final)
    if problems:
        raise MergeRefused(problems)
    return shards


def _read_all(workspace: Path, problems: list[tuple[str, str]]) -> list[tuple[str, Manifest]]:
    found = []
    for name in manifest_files(workspace):
        path = workspace / name
        if os.path.islink(path):
            problems.append(("foreign", f"{name} is a symbolic link, not a manifest a shard wrote"))
            continue
        try:
            found.append((name, read_manifest(path)))
        except BadManifest as exc:
            problems.append(("foreign", str(exc)))
    return found


def _settings(manifests: list[tuple[str, Manifest]], problems: list[tuple[str, str]]) -> int | None:
    """The number of shards they agree on (None when they do not), and every setting they mix."""
    settings = [(name, m.settings()) for name, m in manifests]
    for key in settings[0][1]:
        values: dict[str, list[str]] = {}
        for name, found in settings:
            values.setdefault(repr(found[key]), []).append(name)
        if len(values) > 1:
            told = "; ".join(f"{', '.join(names)}: {value}" for value, names in values.items())
            problems.append(("mixed", f"the shards were graded with different {key} ({told}); grade "
                                      "every shard with one referee, one set of rules and options"))
    counts = {m.shards for _, m in manifests}
    return counts.pop() if len(counts) == 1 else None


def _by_shard(manifests: list[tuple[str, Manifest]], count: int | None, problems: list[tuple[str, str]],
              unread: set[str]) -> dict[int, tuple[str, Manifest]]:
    """Each shard's manifest; ``unread``: the manifests there that could not be read
    (a problem already names each), which are not said to be missing too."""
    found: dict[int, tuple[str, Manifest]] = {}
    for name, m in manifests:
        if name != manifest_name(m.shard, m.shards):
            problems.append(("foreign", f"{name} holds shard {m.shard} of {m.shards} "
                                        f"({manifest_name(m.shard, m.shards)}): renamed or copied over"))
        if m.shard in found:
            problems.append(("duplicate", f"{found[m.shard][0]} and {name} are both shard {m.shard}"))
            continue
        found[m.shard] = (name, m)
    if count is not None:
        for index in range(1, count + 1):
            if index not in found and manifest_name(index, count) not in unread:
                problems.append(("missing", f"shard {index} of {count} ({manifest_name(index, count)}) is not "
                                            "in the workspace: copy its reports and manifest in, or grade it"))
    return found


def _workspace_runs(runs: Sequence[Run]) -> dict[str, WorkspaceRun]:
    return {report_path(run.id): WorkspaceRun(run.path, identity_of(run.id), order)
            for order, run in enumerate(runs)}


def manifest_digests(workspace: Path, names: Sequence[str]) -> dict[str, str | None]:
    """Each manifest's digest, by name: what shard-merge.json was made from."""
    return {name: file_digest(workspace / name) for name in sorted(names)}


def _merged_runs(workspace: Path, merged: dict[str, Any] | None, manifests: list[tuple[str, Manifest]],
                 problems: list[tuple[str, str]]) -> dict[str, dict[str, str]] | None:
    """The reports a merge wrote, when shard-merge.json was made from these very
    manifests (a record of others is a problem only where it is required)."""
    if merged is None:
        return None
    if merged.get("manifests") != manifest_digests(workspace, [name for name, _ in manifests]):
        problems.append(("changed", f"{MERGE_RECORD} was made from other manifests than the ones here; "
                                    "run `referee merge` again"))
        return None
    return {entry["path"]: entry for entry in merged.get("runs", ())}


def _check_runs(shards: Shards, problems: list[tuple[str, str]], final: bool) -> None:
    seen: dict[str, str] = {}
    forms = _spellings(shards.runs)
    for index in sorted(shards.manifests):
        name, m = shards.manifests[index]
        entries: list[RunEntry | LeftOut] = [*m.runs, *m.left_out]
        for entry in entries:
            where = _foreign(entry, m, shards, seen, name, forms)
            if where is not None:
                problems.append(where)
                continue
            seen[entry.path] = name
            if isinstance(entry, RunEntry) and not (final and shards.merged is None):  # unmerged: said once
                problems.extend(_changed(entry, shards, name, final))
    for path in shards.runs:
        if path not in seen:
            problems.append(("ungraded", f"{path} is in the workspace, but no shard graded it (it was added "
                                         f"since, or its shard graded another copy); grade shard "
                                         f"{shard_of(shards.runs[path].identity, shards.count)} again"))


def _spellings(paths: Iterable[str]) -> dict[str, str]:
    """The workspace's run paths that are not plain ASCII, by their NFC form."""
    return {unicodedata.normalize("NFC", path): path for path in paths if not path.isascii()}


def _other_form(path: str, forms: dict[str, str]) -> str:
    """What to add when a run of the workspace has ``path``'s name spelled in another
    Unicode form (an accent composed, NFC, or decomposed, NFD, as a copy through macOS
    may leave it): the two look the same when printed, yet are different paths to the
    file system, so the merge does not take one for the other."""
    other = forms.get(unicodedata.normalize("NFC", path))
    if other is None or other == path:
        return ""
    return (f" as spelled: the workspace has {other}, which looks the same but spells it in "
            f"another Unicode form ({_form(path)} in the manifest, {_form(other)} here; copied "
            "through a file system that renames, such as macOS?); grade the shard again here")


def _form(text: str) -> str:
    for form in ("NFC", "NFD"):
        if unicodedata.is_normalized(form, text):
            return form
    return "neither NFC nor NFD"


def _foreign(entry: RunEntry | LeftOut, m: Manifest, shards: Shards, seen: dict[str, str], name: str,
             forms: dict[str, str]) -> tuple[str, str] | None:
    run = shards.runs.get(entry.path)
    identity = (entry.eval_id, entry.configuration, entry.run_number)
    if entry.path in seen:
        return "duplicate", f"{entry.path} is listed by {seen[entry.path]} and by {name}"
    if run is None:
        return "foreign", (f"{name} lists {entry.path}, which is not a run of this workspace"
                           + _other_form(entry.path, forms))
    if run.identity != identity:
        return "foreign", (f"{name} lists {entry.path} as eval {entry.eval_id}, {entry.configuration}, run "
                           f"{entry.run_number}; in this workspace it is eval {run.identity[0]}, "
                           f"{run.identity[1]}, run {run.identity[2]}")
    owner = shard_of(identity, shards.count)
    if owner != m.shard:
        return "foreign", f"{name} lists {entry.path}, which belongs to shard {owner} of {shards.count}"
    return None


def _changed(entry: RunEntry, shards: Shards, name: str, final: bool) -> list[tuple[str, str]]:
    """A report that is neither the one its shard wrote nor the one the merge wrote
    (only the merge's, when ``final``)."""
    folder = shards.runs[entry.path].folder
    merged = (shards.merged or {}).get(entry.path, {})
    found = []
    for file, key, wrote in ((GRADING, "grading", entry.grading), (GROUND_TRUTH, "ground_truth", entry.ground_truth)):
        now = file_digest(folder / file)
        allowed = {merged.get(key)} if final else {wrote, merged.get(key)}
        if now not in allowed:
            by = "the merge" if final else name
            found.append(("changed", f"{entry.path}/{file} is not the one {by} wrote (graded again or "
                                     "edited since); grade its shard again and merge"))
    return found


def selection_problems(shards: Shards, runs: Sequence[Run], program: Program) -> list[tuple[str, str]]:
    """Each run's place in its manifest, derived again: a run the shards' selection
    (their ``options``) leaves out is "not selected"; else one no eval of ``program``
    (the rules they graded with) matches is "no eval of the rules matches it"; else it
    was graded. A manifest that says otherwise was edited (a failing run moved among
    the left out would drop out of the merged decision): every such run is a problem."""
    from referee.engine.run.select import described
    from referee.engine.shards.grading import NO_EVAL, NOT_SELECTED

    text = shards.first.options.get("selection")
    selection = described(text if isinstance(text, str) else None)
    if selection is None:
        return [("selection", f"the shards' selection {text!r} is none that `referee grade` records: which runs "
                              "they were to grade cannot be told; grade every shard again")]
    listed: dict[str, tuple[str, str]] = {}  # path -> (manifest, GRADED or the reason left out)
    for name, m in shards.manifests.values():
        listed.update((entry.path, (name, GRADED)) for entry in m.runs)
        listed.update((entry.path, (name, entry.reason)) for entry in m.left_out)
    problems = []
    for run in runs:
        path = report_path(run.id)
        if path not in listed:  # not listed at all: ``ungraded``, said by ``check``
            continue
        name, said = listed[path]
        if not selection.matches(run.id.eval_id, run.id.eval_name, run.id.configuration, run.id.run_number):
            due = NOT_SELECTED
        else:
            due = GRADED if program.for_run(run.id, run.metadata) is not None else NO_EVAL
        if said != due:
            problems.append(("selection", f"{name} lists {path} as {_place(said)}, but the shards' selection "
                                          f"({text or 'none'}) and the rules make it {_place(due)}: the manifest "
                                          "was edited; grade its shard again"))
    return problems


def unread_counted(shards: Shards, unread: Sequence[RunId]) -> tuple[str, ...]:
    """The run folders of ``unread`` (a discovery's: no outputs/) that the shards'
    selection and ``--primary`` count: as ``referee grade`` counts them, not read."""
    from referee.engine.run.select import described

    text = shards.first.options.get("selection")
    selection = described(text if isinstance(text, str) else None)
    primary = shards.first.options.get("primary")
    return tuple(rid.rel for rid in unread if (selection is None or selection.matches_id(rid))
                 and (primary is None or rid.configuration == primary))


def evals_without_runs(shards: Shards, program: Program, graded: set[str]) -> tuple[str, ...]:
    """The evals the rules check that no shard graded a run by (``graded``), as
    ``referee grade`` counts them: none when the shards' selection names evals."""
    from referee.engine.run.select import described

    text = shards.first.options.get("selection")
    selection = described(text if isinstance(text, str) else None)
    if selection is None or selection.evals:
        return ()
    return tuple(ev.key for ev in program.evals
                 if ev.key not in graded and any(a.check is not None for a in ev.assertions))


def _place(reason: str) -> str:
    return reason if reason == GRADED else f"left out ({reason})"


def describe(problems: list[tuple[str, str]]) -> str:
    """The problems, grouped by kind, ``SHOWN`` of each and how many more."""
    lines = []
    for kind in ("mixed", "missing", "duplicate", "foreign", "changed", "ungraded", "selection", "tally", "unmerged"):
        found = [message for k, message in problems if k == kind]
        # One problem a line: a run folder's name it quotes may hold a line break, written
        # as \n, or the rest would start a line of its own (a CI workflow command).
        lines += [f"  {kind}: " + message.replace("\n", "\\n") for message in found[:SHOWN]]
        if len(found) > SHOWN:
            lines.append(f"  {kind}: ... and {len(found) - SHOWN} more")
    return "\n".join(lines)


def require_one_grade(workspace: Path) -> None:
    """For the readers of a grade (``aggregate``, ``report``, and ``compare``,
    ``analyze``, ``validate``, ``diff`` of a workspace): nothing to do in a
    workspace without shard manifests; else its shards must be merged, and every
    check above hold. Raises ``UsageError`` listing what does not."""
    if not manifest_files(workspace):
        return
    from referee.engine.run.workspace import discover
    from referee.engine.shards.merge import read_record
    from referee.engine.usage import UsageError

    try:
        check(workspace, discover(workspace).runs, read_record(workspace), final=True)
    except MergeRefused as refused:
        regraded = any(kind in ("changed", "ungraded") for kind, _ in refused.problems)
        raise UsageError(f"{workspace} was graded in shards that do not make one grade yet; nothing was "
                         f"read:\n{refused}" + (f"\n{leftover_advice(workspace)}" if regraded else "")) from None


def leftover_advice(workspace: Path) -> str:
    """What to do when the reports are not the shards' any more: a grade without
    ``--shard`` since the merge wrote its own, and the manifests describe the grade
    before it. Nothing is removed for the user: which grade the reports should be is
    theirs to say, and moving the manifests away loses no report."""
    listed = ", ".join(shard_files(workspace))
    return (f"  what to do: if you graded {workspace} again without --shard since the shards were graded, "
            f"its reports are that grade's and the shard files ({listed}) describe the grade before it: "
            f"move them out of {workspace} and run this again (a grade of part of the workspace leaves "
            "the other runs' reports as the shards wrote them: aggregate then refuses the runs as graded by "
            "different rules, if they were). If not, grade the changed runs' shards again and run referee merge.")
