"""``referee grade``: grade every run of a workspace, offline and deterministically."""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import given_name, given_path, response_name
from referee.engine.commands import grade_sources
from referee.engine.commands.grade_report import JSON_SCHEMA_VERSION, print_results, runs_text, their
from referee.engine.commands.grade_batch import check_flags, export_requests, unused_results
from referee.engine.commands.grade_rules import check_evals, compile_source, critique_feedback, rules_source
from referee.engine.commands.grade_shard import add_shard_argument, warn_leftover_manifests, write_manifest
from referee.engine.report.color import add_color_argument, use_color
from referee.engine.commands.llm_flags import add_llm_arguments, refuse_writes_under_check
from referee.engine.run.select import add_selection_arguments, select_runs, selection_from_args, shared_ids
from referee.engine.commands.warnings import MAX_WARNINGS, warn, warn_all
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands
    from referee.engine.compile import Program
    from referee.engine.report.spill import Spill
    from referee.engine.report.stored import Stored
    from referee.engine.report.write import WriteResult

EXIT_CODES = """\
exit codes:
  0  every assertion that counts toward the gate passed, in every graded run
     (with --primary C: in every run of configuration C; the other
     configurations' runs are graded and written, and shown as context)
  1  some counted assertion failed or errored, or nothing counted at all
     (existence-only and not-graded semantic assertions never count)
  2  usage or input error: bad rules (diagnostics are printed), missing
     workspace, no runs found, no run matching an eval of the rules, a
     grading.json / ground_truth.json that referee did not write (use --force),
     or a run whose reports could not be written (disk full, read-only folder:
     that run keeps its old files, the others are written)
  130  interrupted (Ctrl-C): the message says which runs were written

With --shard I/N, a graded shard exits 0 whatever its verdicts (and 2 as above):
the decision is the merge's (`referee merge`), never one shard's.

Each graded run gets grading.json (skill-creator's format plus referee's fields)
and ground_truth.json (the deterministic checks alone) beside its outputs/.
In the summary, errors count as failed; not-graded semantic assertions are
left out of passed/failed/total and counted as not_graded.
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``grade`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "grade", help="grade every run of a workspace and write grading.json",
        description="Grade every run that discovery finds under WORKSPACE with the rules "
                    "given, with no network and no model (unless --llm is given); or, given "
                    "SOURCE files, the runs referee import would write from them, in memory.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace", type=given_path, metavar="WORKSPACE",
                        help="the workspace, or any folder of one (iteration, eval, configuration, run), "
                             "or a source file (see SOURCE)")
    grade_sources.add_arguments(parser)
    parser.add_argument("--rules", type=given_name, nargs="+", action="extend", default=[], metavar="FILE",
                        help="rules files (one or more); may be left out when --evals carries "
                             "its checks under \"referee\"")
    parser.add_argument("--evals", type=given_name, metavar="EVALS_JSON", default=None,
                        help="skill-creator evals.json: its expectations set the order and texts")
    parser.add_argument("--response", metavar="PATH", type=response_name,
                        help="the file the harness delivered as the answer, relative to each run folder "
                             "(outputs/result.md): it is the response")
    parser.add_argument("--jobs", "-j", type=_jobs, default=1, metavar="N",
                        help="processes that grade and write, this one included (default 1; 0 = one per CPU); "
                             "output is identical")
    parser.add_argument("--check", action="store_true", help="grade and report; write nothing")
    parser.add_argument("--force", action="store_true",
                        help="replace report files referee did not write, keeping each as <name>.bak")
    parser.add_argument("--json", action="store_true",
                        help="one JSON document on stdout, every assertion of every run "
                             f"(schema_version {JSON_SCHEMA_VERSION})")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="every assertion, passes too, with whole evidence; every file written")
    add_color_argument(parser)
    parser.add_argument("--primary", metavar="CONFIG",
                        help="gate on this configuration's runs alone (the skill under test): the "
                             "exit code counts them, the others are context (runs without the skill "
                             "fail by design)")
    add_selection_arguments(parser)
    add_shard_argument(parser)
    parser.add_argument("--regex-timeout", type=float, default=None, metavar="SECONDS",
                        help="deprecated and ignored: no regex match has a timeout (docs/limits.md)")
    # Plain argparse from the engine: the adapter is imported only once --llm is given.
    add_llm_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Grade, write, report; returns the exit code documented in ``--help``."""
    if args.regex_timeout is not None:
        warn("--regex-timeout is deprecated and ignored: no regex match has a timeout, "
             "verdicts depend on the evidence alone (docs/limits.md)")
    refuse_writes_under_check(args)  # before check_flags: an export sets --check itself
    check_flags(args)
    # The rendered reports wait on disk until they are written, so memory does not
    # grow with the number of runs (engine.report.spill); with --check that file is
    # made outside the workspace.
    try:  # the engine is loaded here, not when the command line is built (--help needs none of it)
        from referee.engine import grade  # noqa: F401
        from referee.engine.report.spill import Spill

        if args.json or not args.check:  # the encoder of what is printed or written, loaded here
            from referee.engine.report import render  # noqa: F401  (its first call must import nothing)
    except KeyboardInterrupt:
        return _interrupted("before grading", [], None, args.check)
    args.sources = grade_sources.given_sources(args.workspace, args)
    if args.sources is not None and args.shard is not None:
        raise UsageError("--shard grades a workspace folder and writes its manifest there; "
                         "source files are graded in memory: import them first (referee import)")
    args.check = args.check or args.sources is not None  # runs held in memory have no folder to write into
    with Spill(None if args.check else args.workspace) as spill:
        return _grade(args, spill)


def _grade(args: argparse.Namespace, spill: Spill) -> int:
    from referee.engine.grade import cpu_jobs, grade_spilled, grader_info
    from referee.engine.run.discovery import holds_evals
    from referee.engine.run.kept_apart import SHARED_ID
    from referee.engine.report import terminal
    from referee.engine.report.write import WriteInterrupted

    err_color = use_color(sys.stderr, args.color)
    try:
        setup = _prepare(args, err_color)
    except KeyboardInterrupt:
        return _interrupted("before grading", [], None, args.check)
    if isinstance(setup, int):
        return setup
    program, source, judge, runs, part, unread = setup
    critique = {} if args.sources is not None else critique_feedback(args.workspace, source,
                                                                      [e.key for e in program.evals], args.response)
    bar = terminal.ProgressBar("grading")
    tallies: dict = {}  # each eval's critique facts: a shard's manifest keeps them
    try:
        results = grade_spilled(program, runs, source, grader_info(), spill, args.jobs or cpu_jobs(), bar,
                                judge, critique, writes=not args.check,
                                tallies=tallies)
    except KeyboardInterrupt:
        # Nothing is written before every run is graded, so stopping here loses nothing;
        # a judge still waiting to retry a request is told to give up at once.
        if judge is not None and hasattr(judge, "cancel"):
            judge.cancel()
        bar.close()
        return _interrupted("while grading", [], len(runs), args.check)
    finally:
        bar.close()
    # Only the runs left out are built again (runs may be a RunList): not every Run at once.
    left_out = [runs[n].id for n, g in enumerate(results) if g is None]
    skipped = [(rid.rel, rid.eval_id) for rid in left_out]
    for rid in left_out[:MAX_WARNINGS]:
        shared = rid.extra.get(SHARED_ID)
        kept = (f" (eval id '{shared}' names evals in other folders too, so this one is '{rid.eval_id}': "
                "name it so in the rules)") if shared is not None else ""
        warn(f"{rid.rel}: no eval of the rules matches eval '{rid.eval_id}'{kept}; not graded")
    graded = [g for g in results if g is not None]
    if not graded and part is None:  # a shard of no graded run is valid: its manifest says so
        return _fail("no run matches an eval of the rules; check the eval ids and names")
    _warn_unapplied(program, {g.eval_key for g in graded})
    # The evals the rules check: the gate does not pass while one has no run it counts,
    # unless the user chose the evals (--eval, --as-eval, or a folder inside an eval or a
    # run) or graded a shard (whose merge decides). Sources are held to it as the
    # workspace import writes of them is.
    chosen = part is not None or args.select_evals or (
        args.as_eval is not None if args.sources is not None else not holds_evals(args.workspace))
    expected = [] if chosen else [ev.key for ev in program.evals if any(a.check is not None for a in ev.assertions)]
    if args.llm_batch_export:
        return export_requests(args, judge)
    try:
        written = _write(graded, args)
        if part is not None and not args.check:
            write_manifest(args, part, program, source, results, written, tallies, critique)
    except WriteInterrupted as stopped:
        return _interrupted("while writing", stopped.results, len(graded), args.check)
    except KeyboardInterrupt:
        return _interrupted("before writing", [], len(graded), args.check)
    try:
        code = print_results(args, graded, written, skipped, unread, expected)
        warn_leftover_manifests(args)
        unused_results(args, judge)
        return code
    except KeyboardInterrupt:
        return _interrupted("after writing", written, len(graded), args.check)


def _warn_unapplied(program: Program, used: set[str]) -> None:
    """Rules that applied to no run, while a run was graded by its eval's sentences
    alone (eval_metadata.json): the rules name the eval otherwise than the runs do,
    and nothing else would say so."""
    unapplied = [ev.key for ev in program.evals
                 if ev.key not in used and any(a.check is not None for a in ev.assertions)]
    bare = [ev.key for ev in program.evals
            if ev.key in used and all(a.check is None for a in ev.assertions)]
    if unapplied and bare:
        warn(f"the rules for {_evals(unapplied)} applied to no run, while {_evals(bare)} "
             f"{'was' if len(bare) == 1 else 'were'} graded by the sentences of eval_metadata.json alone: "
             "check the eval ids in the rules (an id that evals in several folders share reads "
             "'<folder>/<id>' when they are graded together; see referee show)")


def _evals(keys: list[str]) -> str:
    shown = ", ".join(repr(key) for key in keys[:MAX_WARNINGS])
    more = f" and {len(keys) - MAX_WARNINGS} more" if len(keys) > MAX_WARNINGS else ""
    return f"eval {shown}" if len(keys) == 1 else f"evals {shown}{more}"


def _interrupted(when: str, results: list[WriteResult], runs: int | None, check: bool) -> int:
    """Say what Ctrl-C left behind, exactly: how many runs were written, how many not
    (``runs`` is None before the runs are known: then none was written)."""
    if check or runs is None:
        told = " (--check)" if check else "; every run kept its old files"
        print(f"referee: interrupted {when}; nothing was written{told}", file=sys.stderr)
        return 130
    written = sum(1 for r in results if r.written)
    kept = runs - written
    if not written:
        told = f"nothing was written: {runs_text(kept)} kept {their(kept)} old files"
    else:
        told = f"{runs_text(written)} {'was' if written == 1 else 'were'} written, {kept} kept {their(kept)} old files"
    print(f"referee: interrupted {when}; {told}", file=sys.stderr)
    return 130


def _prepare(args: argparse.Namespace, color: bool):
    """Everything before grading; an int is an exit code (the error is printed)."""
    from referee.engine.run.discovery import REFUSED
    from referee.engine.run.reading import response_files
    from referee.engine.run.workspace import discover

    if args.sources is None and not args.workspace.is_dir():
        return _fail(f"workspace not found: {args.workspace}")
    source = rules_source(args)
    check_evals(source, color)  # finding the runs reads evals.json's response_file names
    discovery = (grade_sources.discover_sources(args.sources, args) if args.sources is not None else
                 discover(args.workspace, response_files(args.response, args.evals)))
    if args.evals is None:  # the evals' sentences are the ones their eval_metadata.json gives
        source = replace(source, sentences=discovery.expectations)
    if not source.files and args.evals is None and not source.sentences:
        return _fail("nothing to grade with: give --rules FILE..., or --evals evals.json with checks "
                     "under its \"referee\" key, or eval_metadata.json expectations (see docs/language.md)")
    program = compile_source(source, color)
    judge = _judge(args)
    if isinstance(judge, int):
        return judge
    warn_all([str(p) for p in discovery.problems])
    taken = [p for p in discovery.problems if p.code in REFUSED]
    if taken:  # a run would stand for another in the reports, or go unread
        return _fail(f"{taken[0].path}: {taken[0].message}; nothing was graded")
    if not discovery.runs:
        if args.sources is not None:
            return _fail("no run in the sources given (see the warnings); an empty benchmark is not a success")
        from referee.engine.run.importers.detect import import_hint

        hint = import_hint(args.workspace)
        return _fail(f"no runs found under {args.workspace} (a run is a directory holding outputs/); "
                     "an empty benchmark is not a success" + (f"; {hint}" if hint else ""))
    selection = selection_from_args(args)
    if args.shard is not None:  # the shard's runs; none is a valid shard
        from referee.engine.shards.grading import shard_part

        part = shard_part(discovery.runs, args.shard, selection)
        return program, source, judge, part.runs, part, ()
    runs = select_runs(discovery.runs, selection)
    if not runs:
        where = "of the sources given" if args.sources is not None else f"under {args.workspace}"
        return _fail(f"no run {where} matches {selection.describe()}"
                     + shared_ids(selection, (run.id for run in discovery.runs)))
    if args.primary is not None:
        configs = sorted({run.id.configuration for run in runs})
        if args.primary not in configs:
            return _fail(f"--primary {args.primary}: no run of that configuration among the runs graded "
                         f"({', '.join(configs)})")
    # Run folders that cannot be read, of the runs selected: the gate does not pass on them.
    unread = [rid for rid in discovery.unread if selection.matches_id(rid)]
    return program, source, judge, runs, None, unread


def _judge(args: argparse.Namespace):
    if not getattr(args, "llm", None):
        return None
    from referee.llm_adapter.cli import judge_from_args

    try:
        return judge_from_args(args)
    except ValueError as exc:
        return _fail(f"--llm: {exc}")


def _write(graded: list[Stored], args: argparse.Namespace) -> list[WriteResult]:
    from referee.engine.grade import cpu_jobs
    from referee.engine.report.lock import WorkspaceBusy, workspace_lock
    from referee.engine.report.write import WriteInterrupted, WriteResult, ctrl_c_sets, write_all

    if args.check:
        return [WriteResult()] * len(graded)  # nothing happened to any: one result says so for all
    jobs = _WriteJobs(graded)
    results = None
    # Shards write disjoint runs of one workspace, at once: each run's folder is locked
    # while it is written (write.write_run), not the whole workspace.
    lock = nullcontext() if args.shard is not None else workspace_lock(args.workspace)
    try:
        with lock:
            with ctrl_c_sets(threading.Event()) as stop:
                results = write_all(jobs, args.force, stop, args.jobs or cpu_jobs())
            if stop.is_set():
                raise WriteInterrupted(results)
    except WorkspaceBusy as busy:
        raise UsageError(str(busy)) from None
    except KeyboardInterrupt:
        if results is None:
            raise  # before any run was written
        raise WriteInterrupted(results) from None  # as the lock was let go: all written
    try:
        _warn_written(graded, results)
    except KeyboardInterrupt:
        raise WriteInterrupted(results) from None
    return results


class _WriteJobs(Sequence):
    """``(folder, {file name: text})`` of each graded run, made when the writer asks
    for it: a folder's path and the run's texts are not held for every run at once."""

    def __init__(self, graded: Sequence) -> None:
        self.graded = graded

    def __len__(self) -> int:
        return len(self.graded)

    def __getitem__(self, index: int | slice):
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(len(self)))]
        graded = self.graded[index]
        return graded.place.path, graded.files


def _warn_written(graded: list[Stored], results: list[WriteResult]) -> None:
    """Warn about each run that was not written as asked, or was written over a foreign file."""
    failed = [(g, r) for g, r in zip(graded, results) if r.error]
    for g, result in failed[:MAX_WARNINGS]:
        warn(f"{g.place.rel}: {result.error}; this run kept its old files")
    if len(failed) > MAX_WARNINGS:
        warn(f"... and {len(failed) - MAX_WARNINGS} more runs could not be written")
    for g, result in zip(graded, results):
        for name in result.refused:
            warn(f"{g.place.rel}/{name} was not written by referee; left untouched and this run "
                  f"was not written. Move it away, or rerun with --force to keep it as {name}.bak")
        for name, backup in result.kept_aside:
            warn(f"{g.place.rel}/{name} was not written by referee; kept it as {g.place.rel}/{backup}")


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (one per CPU) or more")
    return value


def _fail(message: str) -> int:
    raise UsageError(message)
