"""What ``referee grade`` prints once the runs are graded (and written): each run's
lines and the totals, or with ``--json`` one document on stdout."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from referee.engine.commands.warnings import warn
from referee.engine.report.color import use_color
from referee.engine.report.inert import inert, inert_data

if TYPE_CHECKING:
    import argparse

    from referee.engine.report import terminal
    from referee.engine.report.brief import Brief
    from referee.engine.report.run_report import RunReport
    from referee.engine.report.stored import Stored
    from referee.engine.report.write import WriteResult
    from referee.engine.run.model import RunId

# The --json document's layout: raised whenever a key changes meaning or goes away.
JSON_SCHEMA_VERSION = 2


SHOWN_RUNS = 20  # runs of each group printed in full without --verbose; the rest are counted


class _Gate:
    """The runs the exit code counts: those of ``primary`` (``--primary``), or every run."""

    def __init__(self, primary: str | None) -> None:
        from referee.engine.report import terminal

        self.primary = primary
        self.tally = terminal.Tally()
        self.evals: set[str] = set()  # the rules' evals of the runs counted

    def counts(self, brief: Brief) -> bool:
        return self.primary is None or brief.run["configuration"] == self.primary

    def add(self, brief: Brief) -> None:
        """Count a run the gate counts."""
        self.tally.add(brief)
        self.evals.add(brief.run["rules_eval"])

    def without_runs(self, expected: Sequence[str]) -> list[str]:
        """The evals of ``expected`` that no run the gate counted was graded by (once
        every run is counted): the gate does not pass without them."""
        return [key for key in expected if key not in self.evals]

    def unread(self, unread: Sequence[RunId]) -> list[str]:
        """The run folders of ``unread`` (discovery's: no outputs/) the gate counts:
        a run it cannot read is never a pass."""
        return [rid.rel for rid in unread if self.primary is None or rid.configuration == self.primary]


def print_results(args: argparse.Namespace, graded: list[Stored], results: list[WriteResult],
                  skipped: list[tuple[str, str]], unread: Sequence[RunId] = (), expected: Sequence[str] = ()) -> int:
    """Print the graded runs (``engine.report.stored.Stored``) with what happened to
    their files (``results``), then the totals; returns the exit code: 0 when every
    assertion the gate counts passed (the runs of ``--primary`` alone, when given)
    and no run folder it counts was left unread (``unread``: discovery's), nor an eval
    of ``expected`` (those the rules check, unless the evals were chosen) with no run
    it counts.

    Runs that did not pass come first, then those that passed, then, with
    ``--primary``, the other configurations' runs as context (one line each without
    ``--verbose``); without ``--verbose`` each group shows at most ``SHOWN_RUNS`` runs
    and counts the rest, so the summary fits a CI log at any number of runs."""
    from referee.engine.report import terminal

    refused = sum(1 for r in results if r.refused)
    tally, gate = terminal.Tally(), _Gate(getattr(args, "primary", None))
    not_read = gate.unread(unread)

    def code() -> int:  # once every brief is counted
        if any(r.error for r in results):
            return 2
        verdicts = _exit_code(gate.tally.totals(refused))
        verdicts = 1 if verdicts == 0 and (not_read or gate.without_runs(expected)) else verdicts
        # A shard's verdicts are not the decision: the merge's are (`referee merge`).
        return 0 if verdicts == 1 and getattr(args, "shard", None) is not None else verdicts

    if args.json:
        entries = (_json_run(g.report(), result, tally, gate) for g, result in zip(graded, results))
        _print_json(entries, lambda: _json_document(skipped, tally.totals(refused), args.check, code(), gate.primary,
                                                    not_read, gate.without_runs(expected)))
        return code()
    _print_runs(graded, results, tally, gate, args)
    color = use_color(sys.stdout, args.color)
    print(terminal.total_line(tally.totals(refused), color=color))
    if gate.primary is not None:
        print(terminal.gate_line(gate.primary, gate.tally.totals(refused), color))
    if not_read:
        print(terminal.unread_line(not_read))
    if gate.without_runs(expected):
        print(terminal.no_runs_line(gate.without_runs(expected)))
    print(_written_line(results, args))
    if args.verbose:
        _print_written(graded, results, args.workspace)
    if gate.tally.totals(refused).gate_total == 0 and getattr(args, "shard", None) is None:
        warn("nothing counted toward the gate (only existence or not-graded semantic "
             "assertions" + (f" in the runs of {gate.primary}" if gate.primary else "") + "); this is not a pass")
    return code()


def _print_runs(graded: list[Stored], results: list[WriteResult], tally: terminal.Tally, gate: _Gate,
                args: argparse.Namespace) -> None:
    """The runs that did not pass, those that passed, then the context (see
    ``print_results``). Each run is read back once to be counted; only a run that
    passed and is printed is read again."""
    from referee.engine.report import terminal

    printer = _Printer(args)
    passed: list[int] = []
    context: dict[str, tuple[terminal.Tally, list[int]]] = {}
    for number, (g, result) in enumerate(zip(graded, results)):
        report = g.report()
        brief = tally.add(report.brief)
        if not gate.counts(brief):
            counted, members = context.setdefault(brief.run["configuration"], (terminal.Tally(), []))
            counted.add(brief)
            members.append(number)
            continue
        gate.add(brief)
        if terminal.run_status(brief) == "PASS" and not result.refused:
            passed.append(number)
        elif printer.room("failed"):
            printer.run(g, report, result)
    printer.more("failed", "that did not pass")
    for number in passed:
        if printer.room("passed"):
            printer.run(graded[number], graded[number].report(), results[number])
    printer.more("passed", "that passed")
    for config, (counted, members) in context.items():
        if args.verbose:
            for number in members:
                printer.run(graded[number], graded[number].report(), results[number])
        # The configuration's name is its folder's: the run's text, made inert as the run lines are.
        print(terminal.context_line(inert(config), counted.totals(0), gate.primary or "", printer.color))


class _Printer:
    """Prints runs' lines; an eval's hints under the first of its runs printed."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.color = use_color(sys.stdout, args.color)
        self.verbose = args.verbose
        self.hinted: set[str] = set()
        self.shown: dict[str, int] = {}
        self.hidden: dict[str, int] = {}

    def room(self, group: str) -> bool:
        """Whether another run of ``group`` is printed (always with --verbose); counts it either way."""
        if self.verbose or self.shown.get(group, 0) < SHOWN_RUNS:
            self.shown[group] = self.shown.get(group, 0) + 1
            return True
        self.hidden[group] = self.hidden.get(group, 0) + 1
        return False

    def more(self, group: str, what: str) -> None:
        hidden = self.hidden.get(group, 0)
        if hidden:
            print(f"... and {hidden} more run{'' if hidden == 1 else 's'} {what} (--verbose prints every run; "
                  "referee report --format markdown lists every failure)")

    def run(self, g: Stored, report: RunReport, result: WriteResult) -> None:
        from referee.engine.report import terminal

        note = "refused: not written" if result.refused else ""
        # The run's own text (names, quotes, paths) is made inert before colour is added.
        lines = terminal.run_lines(_inert_brief(report.brief), note, self.color, inert_data(report.shown()),
                                   self.verbose, inert_data(report.warnings), hints=g.eval_key not in self.hinted)
        self.hinted.add(g.eval_key)
        print("\n".join(lines))


def _print_written(graded: list[Stored], results: list[WriteResult], workspace: Path) -> None:
    from referee.engine.report.marker import GRADING, GROUND_TRUTH
    from referee.engine.report.terminal import on_its_line

    for g, result in zip(graded, results):
        if result.written:
            print("\n".join(f"  wrote {on_its_line(inert(_shown(workspace, g.place.rel, name)))}"
                             for name in (GRADING, GROUND_TRUTH)))


def _exit_code(totals: terminal.Totals) -> int:
    if totals.refused_runs:
        return 2
    if totals.gate_total == 0 or totals.gate_passed < totals.gate_total:
        return 1
    return 0


def _written_line(results: list[WriteResult], args: argparse.Namespace) -> str:
    """Which files were written, or that none were: a reader must not have to guess."""
    from referee.engine.report.marker import GRADING, GROUND_TRUTH

    if getattr(args, "sources", None) is not None:
        return "nothing was written: the sources were graded in memory (referee import writes run folders)"
    if args.check:
        return "nothing was written (--check)"
    written = sum(1 for r in results if r.written)
    failed = sum(1 for r in results if r.error)
    kept = f"{runs_text(failed)} could not be written and kept {their(failed)} old files (see the warnings)"
    if not written:
        return "nothing was written" + (f": {kept}" if failed else "")
    runs = f"{written} run folder" + ("" if written == 1 else "s")
    line = f"wrote {GRADING} and {GROUND_TRUTH} in {runs} under {inert(args.workspace.as_posix())}"
    refused = sum(1 for r in results if r.refused)
    line += f"; {kept}" if failed else ""
    return line + (f"; {refused} not written (see the warnings)" if refused else "")


def _shown(workspace: Path, rel: str, name: str) -> str:
    return (workspace / name if rel in ("", ".") else workspace / rel / name).as_posix()


def _json_document(skipped: list[tuple[str, str]], totals: terminal.Totals, check: bool, code: int,
                   primary: str | None, not_read: list[str], no_runs: list[str]) -> dict:
    """The --json document but its ``runs``, which ``_print_json`` puts first, one
    entry at a time. ``schema_version`` names the layout; ``primary`` is the
    configuration the exit code counts (null: every run); ``unread_runs`` the run
    folders it counts that could not be read (no outputs/); ``evals_without_runs``
    the evals the rules check that no run graded."""
    return {"skipped": [{"path": p, "eval_id": e} for p, e in skipped],
            "totals": totals.__dict__, "check": check, "primary": primary, "exit_code": code,
            "unread_runs": not_read, "evals_without_runs": no_runs}


def _json_run(report: RunReport, result: WriteResult, tally: terminal.Tally, gate: _Gate | None = None) -> dict:
    """A run's --json entry (``RunReport.json_entry``); its brief is counted into
    ``tally``, and into the gate's when the gate counts it."""
    from referee.engine.report import terminal

    brief = tally.add(report.brief)
    if gate is not None and gate.counts(brief):
        gate.add(brief)
    info = brief.run
    about = {"path": info["path"], "eval_id": info["eval_id"], "eval_name": info["eval_name"],
             "configuration": info["configuration"], "run_number": info["run_number"],
             "status": terminal.run_status(brief), "summary": brief.summary, "gate": brief.gate,
             "failed": list(brief.failed)}
    written = {"written": result.written, "refused": list(result.refused), "write_error": result.error or None,
               "kept_aside": [{"file": f, "backup": b} for f, b in result.kept_aside]}
    return report.json_entry(about, written)


def _print_json(entries: Iterator[dict], document: Callable[[], dict]) -> None:
    """``print(json_text({"schema_version": ..., "runs": [*entries], **document()}))``,
    one entry at a time: the same bytes, but only one run's entry is held at once.
    ``document()`` is asked for once the entries are out: what follows the runs in it
    (the totals) is counted as they go by. (An object's members, as ``json.dumps``
    with ``indent=2`` lays them out, are ``"key": value`` one level in, between commas.)
    Every part goes out as UTF-8 (``engine.report.stdout``), whatever the console's
    encoding, and encoded as grading.json is: a lone surrogate (a folder name that is
    not UTF-8) as its JSON escape ``\\udcff``, never as bytes that are not UTF-8."""
    from referee.engine.report.atomic import encode
    from referee.engine.report.render import json_text, own_json
    from referee.engine.report.stdout import log_safe_bytes, utf8_writer

    raw = utf8_writer(sys.stdout)

    def write(data: bytes) -> None:  # each part is whole JSON text, or a member's: no "##[" is split
        raw(log_safe_bytes(data))

    write(f'{{\n  "schema_version": {JSON_SCHEMA_VERSION},\n  "runs": ['.encode())
    count = 0
    for entry in entries:  # referee's own data: own_json need not walk it
        write(("," if count else "").encode() + b"\n    " + _nested(own_json(entry), 2))
        count += 1
    write(b"\n  ]" if count else b"]")
    for key, value in document().items():
        write(encode(f",\n  {json_text(key)}: ") + _nested(encode(json_text(value)), 1))
    write(b"\n}\n")


def _nested(data: bytes, levels: int) -> bytes:
    """JSON ``data`` laid out ``levels`` deeper (every newline of it is layout: strings escape theirs)."""
    return data.replace(b"\n", b"\n" + b"  " * levels)


def _inert_brief(brief: Brief):
    return replace(brief, run=inert_data(brief.run), failed=inert_data(brief.failed))


def runs_text(count: int) -> str:
    return f"{count} run" + ("" if count == 1 else "s")


def their(count: int) -> str:
    return "its" if count == 1 else "their"
