"""The library front door behind ``referee.compile`` and ``referee.grade``.

Two calls, in the manner of jmespath's ``compile``/``search``: compile rules
once, grade as many runs as you like. Nothing here writes a file or prints;
the ``referee grade`` command adds discovery warnings, writing and the console.
"""

from __future__ import annotations

import errno
import json
import os
from dataclasses import replace
from pathlib import Path
from collections.abc import Iterable, Mapping, Set as AbstractSet
from typing import TYPE_CHECKING, Any, NoReturn

from referee.dsl.frozen import frozen
from referee.engine.compile import Program
from referee.engine.run.workspace import Run

if TYPE_CHECKING:
    from referee.engine.grade import RulesSource


@frozen
class RunResult:
    """One graded run: where it is, which eval graded it, its verdicts and grading.json."""

    path: str  # relative to the folder given to ``grade`` ("." for a lone run)
    grading_json: str  # the exact text ``referee grade`` writes
    ground_truth_json: str = ""  # ground_truth.json, as ``referee grade`` writes it

    @property
    def grading(self) -> dict[str, Any]:
        """grading.json as a dict."""
        return json.loads(self.grading_json)

    @property
    def expectations(self) -> list[dict[str, Any]]:
        """One entry per assertion: text, outcome, passed, evidence, precision, method."""
        return list(self.grading["expectations"])

    @property
    def status(self) -> str:
        """The run's status as ``referee grade`` prints it: PASS when every assertion the
        gate counts passed, FAIL when one did not, EMPTY when none counted."""
        from referee.engine.report.build import gate_status

        gate = self.grading["gate"]
        return gate_status(gate["passed"], gate["total"])

    @property
    def passed(self) -> bool:
        """True exactly when the CLI says PASS for this run: every assertion the gate
        counts passed, and at least one counted (a run where nothing counted is no pass)."""
        return self.status == "PASS"


def compile(text: str, path: str | os.PathLike[str] = "<rules>", evals: str | os.PathLike[str] | None = None,
            regex_timeout: float | None = None, evals_name: str | os.PathLike[str] | None = None) -> Program:
    """Parse and compile rules text; raises ``referee.RulesError`` listing every mistake,
    TypeError when ``text`` is not a str (a Path is not read: give its text).

    ``path`` names the rules in reports (``rules_location``; a str or a Path, TypeError
    otherwise, as for ``evals_name``); ``evals`` names a
    skill-creator evals.json whose expectations give the assertions their order
    and texts (as ``referee grade --evals`` does), ``evals_name`` its name in
    reports (default: the path as given). With ``rules_name(file, text)`` for
    both, reports name them as ``referee grade`` does.
    ``regex_timeout`` is deprecated and ignored: no regex match has a timeout
    (docs/limits.md).
    """
    if regex_timeout is not None:
        import warnings

        warnings.warn("regex_timeout is ignored: no regex match has a timeout (docs/limits.md)",
                      DeprecationWarning, stacklevel=2)
    _rules_text(text)
    named = _text_option("path", path, path=True)
    if named is None:  # it would name the rules "None" in every rules_location
        raise TypeError("path must be a str, the rules' name in reports, not None")
    evals_named = _text_option("evals_name", evals_name, path=True)
    return _anchored(replace(_source(text, named, evals), evals_shown=evals_named).compile())


def _anchored(program: Program) -> Program:
    """``program`` with its evals.json named by a path that holds from any working
    directory, and shown in reports as before. ``grade`` reads the file again (the
    response files it names, its text for the critique): from another working
    directory a relative name would fail, or name another evals.json."""
    source = program.source
    if source is None or source.evals_path is None:
        return program
    shown = source.evals_shown or source.evals_path
    return replace(program, source=replace(source, evals_path=os.path.abspath(source.evals_path), evals_shown=shown))


def rules_name(path: str | os.PathLike[str], text: str) -> str:
    """How ``referee grade`` names a rules or evals file in reports: its file name and
    the first 8 hex digits of the SHA-256 of its text (``booking.rules@1a2b3c4d``),
    whatever folder it is in, so reports do not depend on where they were made.
    ``text`` is the file's text as it holds it, line ends and all
    (``Path.read_bytes().decode("utf-8")``; ``read_text`` turns CRLF into LF, and
    gives another name than ``referee grade`` gives)."""
    from referee.engine.decision.provenance import rules_name as named  # grade's own naming

    return named(os.fspath(path), _rules_text(text))


def grade(rules: str | Program,
          where: str | os.PathLike[str] | Run | Iterable[Run] | Iterable[str | os.PathLike[str]], *,
          evals: str | os.PathLike[str] | None = None, response: str | None = None,
          as_eval: str | None = None, error_when: str | None = None) -> list[RunResult]:
    """Grade every run under ``where``: a workspace, any folder of one, one run
    folder, runs already built (``referee.engine.run.memory.memory_run``), or a
    source file (a Claude Code session, an OpenAI message list, a skill-creator
    log) or a list of them (str or Path, as ``referee grade SOURCE...``; a set is
    read in the order of its paths), whose
    conversations are graded in memory as ``referee import`` would write them
    (``as_eval`` and ``error_when`` as its ``--eval`` and ``--error-when``, refused
    for anything else; ValueError for a file that holds no conversation or is no
    regular file, a folder where no run is found or nothing given, FileNotFoundError for a path
    that does not exist, TypeError for
    what is neither a path, runs nor source paths).

    ``rules`` is rules text or a ``Program`` from :func:`compile` (TypeError for
    anything else: a Path is not read, give its text); with ``evals`` a program
    compiled without that evals.json is compiled again with it, as ``referee grade
    --evals`` compiles the rules; without ``evals``
    a program compiled with an evals.json reads the responses it names, and one
    compiled without the sentences of each eval's ``eval_metadata.json`` as its own. ``response``
    names the file the harness delivered as the answer, relative to each run
    folder found (as ``referee grade --response`` does), or to a source's folder
    (a str or a Path; ``as_eval`` and ``error_when`` are str: TypeError otherwise);
    runs given already built must have been built to read the response it or the
    evals.json names, and be one run each in the reports: no two with one path or
    one run number of a configuration (ValueError otherwise).
    Runs that no eval of the rules matches are left out; when a path or source files
    give none that one matches, ValueError, as ``referee grade`` refuses them. Deterministic: the same
    files give the same results, byte for byte.
    """
    from referee.engine.grade import grade_all, grader_info

    from referee.engine.run.metadata_evals import gathered

    given = _given(where)
    response, evals = _text_option("response", response, path=True), _text_option("evals", evals, path=True)
    as_eval, error_when = _text_option("as_eval", as_eval), _text_option("error_when", error_when)
    if isinstance(given, (str, os.PathLike)) and not Path(given).exists():
        # as `referee grade` refuses it: no result at all would read as "every run passed"
        raise FileNotFoundError(errno.ENOENT, "workspace not found", os.fspath(given))
    if not isinstance(rules, Program):
        source, program = _source(_rules_text(rules, "rules text (str) or a Program"), "<rules>", evals), None
    else:
        source, program = rules.source or _source("", "<rules>", evals), rules
        if evals is not None and rules.source is not None and not _same_file(evals, source.evals_path):
            # As referee grade --evals compiles them: the texts and order of the evals.json given.
            source, program = replace(source, evals_path=os.path.abspath(evals), evals_shown=os.fspath(evals)), None
    if evals is None:  # the evals.json the program was compiled with names the responses
        evals = source.evals_path
    if isinstance(given, (str, os.PathLike)) and not Path(given).is_dir():  # a source (a FIFO is refused there)
        runs = _source_runs([Path(given)], response, evals, as_eval, error_when)
    elif isinstance(given, tuple):
        runs = _source_runs(_source_files(given), response, evals, as_eval, error_when)
    elif as_eval is not None or error_when is not None:  # as referee grade: never silently unused
        raise ValueError("as_eval and error_when apply to source files, not to a workspace folder or runs")
    else:
        runs = _runs(given, response, evals)
    if evals is None:
        # As referee grade: the evals' sentences are those of their eval_metadata.json;
        # a program compiled from texts without them is compiled again with them.
        sentences = gathered(runs)
        if sentences != source.sentences and (program is None or program.source is not None):
            source, program = replace(source, sentences=sentences), None
    if program is None:
        program = source.compile()
    critique = _critique_feedback(Path(given), source, program, response) if isinstance(given, (str, os.PathLike)) \
        else None
    graded = grade_all(program, runs, source, grader_info(), jobs=1, extra_feedback=critique)
    results = [RunResult(g.run.id.rel, g.grading, g.truth) for g in graded if g is not None]
    if runs and not results and isinstance(given, (str, os.PathLike, tuple)):
        # As referee grade refuses it: files whose runs the rules do not grade give no
        # result at all, which would read as "every run passed". Runs given in memory
        # may be one eval's (docs/scale.md), where none matching is an answer.
        raise ValueError("no run matches an eval of the rules; check the eval ids and names")
    return results


def _same_file(path: str | os.PathLike[str], other: str | None) -> bool:
    return other is not None and os.path.abspath(path) == os.path.abspath(other)


def _text_option(name: str, value: object, path: bool = False) -> str | None:
    """An option given as text (or None), as the command's arguments always are; for a
    ``path``, a Path is its text. TypeError naming the option for anything else, which
    the readers would otherwise meet as a TypeError of their own."""
    if path and isinstance(value, os.PathLike):
        value = os.fspath(value)
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}: {value!r}")
    return value


def _rules_text(rules: object, expected: str = "rules text (str)") -> str:
    """Rules given as text; a TypeError for anything else, which the parser would
    otherwise meet as an AttributeError (a Path is not read: give its text)."""
    if not isinstance(rules, str):
        hint = " (give the file's text: Path.read_text())" if isinstance(rules, os.PathLike) else ""
        raise TypeError(f"rules must be {expected}, not {type(rules).__name__}: {rules!r}{hint}")
    return rules


def _given(where: object) -> str | os.PathLike[str] | Run | list[Run] | tuple[Path, ...]:
    """``where`` as ``grade`` reads it: one path, one run, a list of runs, or a tuple of
    source files (``referee grade SOURCE...``); an iterable is read once, so a generator
    serves. TypeError naming anything else: bytes, None, a number, paths mixed with runs."""
    if isinstance(where, (str, os.PathLike, Run)):
        return where
    if isinstance(where, (bytes, bytearray)) or not isinstance(where, Iterable):
        raise TypeError(f"where must be a path, runs or source paths, not {type(where).__name__}: {where!r}")
    if isinstance(where, Mapping):  # its keys would be read as source paths
        raise TypeError("where must be a path, runs or source paths, not a mapping: files held in memory are "
                        "graded as runs: memory_run(files) or memory_workspace(files)")
    items = list(where)
    if not items:  # as referee grade refuses a workspace of none: no result would read as every run passing
        raise ValueError("no runs and no sources given; an empty benchmark is not a success")
    if all(isinstance(item, Run) for item in items):
        if isinstance(where, AbstractSet):  # iterated in the order of the runs' hashes, which change by process
            from referee.engine.run.memory_workspace import run_order

            items.sort(key=run_order)
        return items
    if all(isinstance(item, (str, os.PathLike)) for item in items):
        if isinstance(where, AbstractSet):  # no order of its own (hashes change by process): the paths'
            items.sort(key=os.fspath)
        return tuple(Path(item) for item in items)
    kind = Run if isinstance(items[0], Run) else (str, os.PathLike)
    other = next(item for item in items if not isinstance(item, kind))
    raise TypeError(f"where must hold runs alone or source paths alone, not {type(other).__name__}: {other!r}")


def _source_files(paths: tuple[Path, ...]) -> list[Path]:
    """The source files given, refused as ``referee grade SOURCE...`` refuses them: a
    path that is not there, or a folder among them (give one workspace folder, or files)."""
    for path in paths:
        if not path.exists():
            raise FileNotFoundError(errno.ENOENT, "no such file", os.fspath(path))
        if path.is_dir():
            raise ValueError(f"{path} is a folder: give one workspace folder, or source files")
    return list(paths)


def _runs(where: str | os.PathLike[str] | Run | Iterable[Run], response: str | None = None,
          evals: str | os.PathLike[str] | None = None) -> list[Run]:
    if isinstance(where, (str, os.PathLike)):
        from referee.engine.run.discovery import REFUSED
        from referee.engine.run.reading import response_files
        from referee.engine.run.workspace import discover

        # A list, as this function has always given: a library caller may keep and
        # re-read these Runs, which a discovery's RunList builds anew on each access.
        found = discover(Path(where), response_files(response, evals))
        taken = [p for p in found.problems if p.code in REFUSED]
        if taken:  # as referee grade refuses it: a run would stand for another, or go unread
            raise ValueError(f"{taken[0].path}: {taken[0].message}")
        if not found.runs:
            _no_runs(where)
        return list(found.runs)
    return _reading_named_responses(_apart([where] if isinstance(where, Run) else list(where)), response, evals)


def _apart(runs: list[Run]) -> list[Run]:
    """Runs given already built, each one run in the reports: two with one path, or one
    run number of one configuration of an eval in one iteration, are refused, as
    referee grade refuses a workspace where a run would stand for another
    (run-number-taken): one's verdicts would be reported in the other's place."""
    from referee.engine.run.identity import report_path

    paths: set[str] = set()
    numbers: dict[tuple, str] = {}
    for run in runs:
        rid, path = run.id, report_path(run.id)  # the run's path in grading.json
        if path in paths:
            raise ValueError(f"{path}: two runs given have this path; build each with its own "
                             "(memory_run(..., run_number=N))")
        paths.add(path)
        taken = numbers.setdefault((rid.iteration, rid.eval_id, rid.configuration, rid.run_number), path)
        if taken != path:
            raise ValueError(f"{taken} and {path} are both run {rid.run_number} of eval "
                             f"{rid.eval_id!r}, configuration {rid.configuration!r}: number the runs apart")
    return runs


def _reading_named_responses(runs: list[Run], response: str | None,
                             evals: str | os.PathLike[str] | None) -> list[Run]:
    """Runs given already built read the response they were built to read; one that
    ``response`` or the evals.json's ``response_file`` names otherwise is refused:
    graded as built, its checks of the response would read another file than
    ``referee grade`` reads (a ``not response contains`` passing on a clean
    response.md while the named answer says it)."""
    from referee.engine.run.reading import response_files
    from referee.engine.run.safeio import safe_relative

    responses = response_files(response, evals)
    for run in runs:
        named = responses.named(run.id)
        built = run.response_named
        if named is not None and (built is None or safe_relative(built[0]) != safe_relative(named[0])):
            reads = f"reads {built[0]}" if built is not None else "reads the default response"
            raise ValueError(f"{run.id.rel}: {named[1]} names {named[0]} as the response, but the run given "
                             f"{reads}; build it to read that file (memory_run(..., response=...), "
                             "memory_workspace(files, response_files(response, evals)))")
    return runs


def _no_runs(folder: str | os.PathLike[str]) -> NoReturn:
    """As referee grade refuses it: a folder where no run is found gives no result at
    all, which a caller would read as "every run passed"."""
    from referee.engine.run.importers.detect import import_hint

    hint = import_hint(folder)
    raise ValueError(f"no runs found under {os.fspath(folder)} (a run is a directory holding outputs/); "
                     "an empty benchmark is not a success" + (f"; {hint}" if hint else ""))


def _source_runs(paths: list[Path], response: str | None, evals: str | os.PathLike[str] | None, as_eval: str | None,
                 error_when: str | None) -> list[Run]:
    from referee.engine.run.importers.in_memory import source_runs
    from referee.engine.run.reading import response_files

    found = source_runs(paths, as_eval, response=response, error_when=error_when,
                        responses=response_files(None, evals))
    if found.errors:
        raise ValueError(found.errors[0])
    return list(found.runs)


def _critique_feedback(where: Path, source: RulesSource, program: Program,
                       response: str | None = None) -> dict[str, list[dict[str, str]]] | None:
    """As referee grade adds them: the findings of ``referee critique`` in the folder
    graded (its critique.json), when they were made with these very rules and the
    same response file; a source file has none."""
    from referee.dsl.named_file import read_named_text
    from referee.engine.critique.findings import feedback_for

    if not where.is_dir():
        return None
    evals_text = read_named_text(source.evals_path) if source.evals_path else None
    return feedback_for(where, source.files, evals_text, [ev.key for ev in program.evals], response)


def _source(text: str, path: str, evals: str | os.PathLike[str] | None):
    from referee.engine.grade import RulesSource

    return RulesSource(((path, text),), _text_option("evals", evals, path=True))
