"""What ``referee grade`` prints once the runs are graded (and written): each run's
lines and the totals, or with ``--json`` one document on stdout."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from referee.engine.commands.warnings import warn
from referee.engine.report.inert import inert, inert_data

if TYPE_CHECKING:
    from referee.engine.report import terminal
    from referee.engine.report.write import WriteResult

# The --json document's layout: raised whenever a key changes meaning or goes away.
JSON_SCHEMA_VERSION = 2


def print_results(args, graded, results: list[WriteResult], skipped) -> int:
    """Print each graded run (an ``engine.report.stored.Stored``) with what happened to
    its files (``results``), then the totals; returns the exit code.

    One run at a time: each is read back from the spill once, and its brief is
    counted toward the totals as it goes by (they come after the runs)."""
    from referee.engine.report import terminal

    refused = sum(1 for r in results if r.refused)
    tally = terminal.Tally()

    def code() -> int:  # once every brief is counted
        return 2 if any(r.error for r in results) else _exit_code(tally.totals(refused))

    if args.json:
        entries = (_json_run(g.report(), result, tally) for g, result in zip(graded, results))
        _print_json(entries, lambda: _json_document(skipped, tally.totals(refused), args.check, code()))
        return code()
    _print_runs(graded, results, tally, args)
    totals = tally.totals(refused)
    print(terminal.total_line(totals, color=terminal.use_color(sys.stdout, args.color)))
    print(_written_line(results, args))
    if args.verbose:
        _print_written(graded, results, args.workspace)
    if totals.gate_total == 0:
        warn("nothing counted toward the gate (only existence or not-graded semantic "
              "assertions); this is not a pass")
    return code()


def _print_runs(graded, results: list[WriteResult], tally: terminal.Tally, args) -> None:
    """Each run's lines, its warnings under them; each eval's hints under its first run."""
    from referee.engine.report import terminal

    color = terminal.use_color(sys.stdout, args.color)
    hinted: set[str] = set()
    for g, result in zip(graded, results):
        report = g.report()
        brief = tally.add(report.brief)
        note = "refused: not written" if result.refused else ""
        # The run's own text (names, quotes, paths) is made inert before colour is added.
        lines = terminal.run_lines(_inert_brief(brief), note, color, inert_data(report.shown()), args.verbose,
                                   inert_data(report.warnings), hints=g.eval_key not in hinted)
        hinted.add(g.eval_key)
        print("\n".join(lines))


def _print_written(graded, results: list[WriteResult], workspace: Path) -> None:
    from referee.engine.report.marker import GRADING, GROUND_TRUTH

    for g, result in zip(graded, results):
        if result.written:
            print("\n".join(f"  wrote {inert(_shown(workspace, g.place.rel, name))}" for name in (GRADING, GROUND_TRUTH)))


def _exit_code(totals: terminal.Totals) -> int:
    if totals.refused_runs:
        return 2
    if totals.gate_total == 0 or totals.gate_passed < totals.gate_total:
        return 1
    return 0


def _written_line(results: list[WriteResult], args) -> str:
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


def _json_document(skipped, totals, check: bool, code: int) -> dict:
    """The --json document but its ``runs``, which ``_print_json`` puts first, one
    entry at a time. ``schema_version`` names the layout."""
    return {"skipped": [{"path": p, "eval_id": e} for p, e in skipped],
            "totals": totals.__dict__, "check": check, "exit_code": code}


def _json_run(report, result: WriteResult, tally: terminal.Tally) -> dict:
    """A run's --json entry (``RunReport.json_entry``); its brief is counted into ``tally``."""
    from referee.engine.report import terminal

    brief = tally.add(report.brief)
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
    with ``indent=2`` lays them out, are ``"key": value`` one level in, between commas.)"""
    from referee.engine.report.render import json_text

    sys.stdout.write(f'{{\n  "schema_version": {JSON_SCHEMA_VERSION},\n  "runs": [')
    write = _utf8_writer(sys.stdout)
    count = 0
    for entry in entries:
        write(("," if count else "").encode() + b"\n    " + _nested(json_text(entry), 2).encode("utf-8", "surrogatepass"))
        count += 1
    sys.stdout.write("\n  ]" if count else "]")
    for key, value in document().items():
        sys.stdout.write(f",\n  {json_text(key)}: {_nested(json_text(value), 1)}")
    sys.stdout.write("\n}\n")


def _nested(text: str, levels: int) -> str:
    """JSON ``text`` laid out ``levels`` deeper (every newline of it is layout: strings escape theirs)."""
    return text.replace("\n", "\n" + "  " * levels)


def _utf8_writer(stream) -> Callable[[bytes], object]:
    """Write UTF-8 text to ``stream``: straight to its bytes when it would write them
    alike (UTF-8, no newline translation), so that text a run holds which no encoder
    writes (a lone surrogate, from a JSON escape) reaches the output as the report's
    text has it; else as text."""
    import codecs
    import os

    raw = getattr(stream, "buffer", None)
    if raw is None or os.linesep != "\n" or codecs.lookup(stream.encoding or "ascii").name != "utf-8":
        return lambda data: stream.write(data.decode("utf-8", "surrogatepass"))
    stream.flush()  # what was written as text goes first
    return raw.write


def _inert_brief(brief):
    return replace(brief, run=inert_data(brief.run), failed=inert_data(brief.failed))


def runs_text(count: int) -> str:
    return f"{count} run" + ("" if count == 1 else "s")


def their(count: int) -> str:
    return "its" if count == 1 else "their"
