"""``referee show RUN_DIR [--json]``: how referee reads a run.

Prints the run's identity, its tool-call steps (step, tool, status, args and
return with their lines), the agent's notes, the output files, summaries of
metrics, timing and user notes, and every warning met while reading. Given a
workspace instead of a run (no ``outputs/`` inside), it shows every run found
below it, in discovery order, then the workspace's layout warnings. Given source
files (``referee show SOURCE...``: sessions, message lists), it shows the runs
``referee import`` would write, read in memory as ``referee grade SOURCE...`` reads
them (``commands.grade_sources``): nothing is written.

Exit status: 0 when something was shown (warnings included), 2 when the path is
missing, holds no run at all, or is a source that could not be read.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from referee.engine.commands import grade_sources
from referee.engine.commands.arguments import given_name, response_name
from referee.engine.usage import UsageError
from referee.engine.report.inert import inert

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands
    from referee.engine.run.model import Note, Payload, Problem, ToolCall
    from referee.engine.run.reading import ResponseFiles
    from referee.engine.run.workspace import Run

EXIT_CODES = """\
exit codes:
  0  something was shown (warnings included)
  2  the path is missing, holds no run at all, or is a source that could not be read
"""
SUMMARY_CHARS = 100  # payloads are cut to this in the text view


def add_parser(sub: Subcommands) -> None:
    """Register the ``show`` subcommand on an argparse subparsers object."""
    parser = sub.add_parser(
        "show",
        help="show how referee reads a run (or every run of a workspace)",
        description="Show the identity, tool calls, notes, files and warnings of a run.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", type=given_name,
                        help="a run folder (holding outputs/), a workspace, or a source file (a Claude Code "
                             "session, an OpenAI message list, a skill-creator log) read as referee import reads it")
    grade_sources.add_arguments(parser, done="read in memory and shown")
    parser.add_argument("--json", action="store_true", help="print JSON (sorted keys, relative paths)")
    parser.add_argument("--response", metavar="PATH", type=response_name,
                        help="the file the harness delivered as the answer, relative to each run folder "
                             "(outputs/result.md): it is the response")
    parser.add_argument("--evals", type=given_name, metavar="EVALS_JSON", default=None,
                        help="skill-creator evals.json: the response_file it names for an eval is "
                             "the response of that eval's runs, as in referee grade")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Show the run or workspace ``args.run_dir``; returns the exit status."""
    path = Path(args.run_dir)
    sources = grade_sources.given_sources(path, args)
    warnings: list[Problem] = []  # a workspace's layout warnings; sources have none of their own
    if sources is not None:  # read in memory, as referee grade SOURCE... reads them
        runs = grade_sources.discover_sources(sources, args, done="shown").runs
    else:
        runs, warnings, reason = _collect(path, _responses(args))
        if reason is not None:
            raise UsageError(f"{args.run_dir}: {reason}")
    views = [run_view(r.load()) for r in runs]
    if args.json:
        from referee.engine.report.stdout import print_json

        document = {"runs": views, "warnings": [_problem_view(p) for p in warnings]}
        print_json(json.dumps(document, sort_keys=True, ensure_ascii=False, indent=2) + "\n")
    else:
        for view in views:  # a single run is "." to itself: name it as the user did
            if view["run"]["rel"] == ".":
                view["run"] = {**view["run"], "rel": args.run_dir}
        print(inert(render_text(views, warnings)))  # the run's names may hold escape codes
    return 0


def _responses(args: argparse.Namespace) -> ResponseFiles:
    """The response files ``--response`` and evals.json's ``response_file`` name."""
    # Loaded here, not at the top: ``referee --help`` builds every subcommand's parser.
    from referee.dsl.errors import RulesError
    from referee.engine.rules_files import require_evals_file
    from referee.engine.run.reading import response_files

    evals = getattr(args, "evals", None)
    if evals is not None:
        require_evals_file(evals)
    try:
        return response_files(getattr(args, "response", None), evals)
    except RulesError as exc:
        first = exc.diagnostics[0]  # show reads only response_file: the first problem says enough
        raise UsageError(f"{first.path}:{first.line}: {first.message} ({first.code})") from None


def _collect(path: Path, responses: ResponseFiles | None = None) -> tuple[Sequence[Run], list[Problem], str | None]:
    from referee.engine.run.reading import NO_FILES
    from referee.engine.run.workspace import discover, load_run

    responses = responses or NO_FILES
    if not path.exists():
        return [], [], "no such file or directory"
    if (path / "outputs").is_dir():  # a folder: a file given is a source (grade_sources)
        return [load_run(path, responses=responses)], [], None
    found = discover(path, responses)
    if not found.runs:
        from referee.engine.run.importers.detect import import_hint

        hint = import_hint(path)
        return [], [], "no outputs/ folder here and no run below it" + (f"; {hint}" if hint else "")
    return found.runs, found.problems, None


# --- the view: plain data, shared by the JSON and the text output -----------------------


def run_view(run: Run) -> dict:
    """Everything ``show`` says about one loaded run, as JSON-ready data."""
    rid = run.id
    transcript = run.transcript
    return {
        "run": {
            "rel": rid.rel,
            "eval_id": rid.eval_id,
            "eval_name": rid.eval_name,
            "configuration": rid.configuration,
            "run_number": rid.run_number,
            "iteration": rid.iteration,
            "layout": rid.extra.get("layout"),
        },
        "prompt": transcript.prompt,
        # the calls the rules' ``calls`` reads: a subagent's too, after the call that started it
        "steps": [_call_view(call) for call in run.every_call.calls],
        "notes": [_note_view(note) for note in transcript.notes],
        "files": run.output_files(),
        "response": _response_view(run),
        "metrics": _plain(run.metrics.value) if run.metrics else None,
        "timing": _plain(run.timing.value) if run.timing else None,
        "user_notes": _notes_view(run),
        "warnings": [_problem_view(p) for p in run.problems],
    }


def _call_view(call: ToolCall) -> dict:
    return {
        "index": call.index,
        "agent": call.agent,
        "step": call.step,
        "title": call.title,
        "tool": call.tool,
        "status": call.status,
        "file": call.location.file,
        "line": call.location.line,
        "tool_line": call.tool_line,
        "status_line": call.status_line,
        "args": _payload_view(call.args),
        "return": _payload_view(call.result),
        "trusted": call.suspect is None,
        "untrusted_because": call.suspect,
        # what the import could not read for certain: a check on it is an ERROR, so the
        # value shown is no value to write an assertion against
        "unsure": sorted(call.unsure),
    }


def _payload_view(payload: Payload | None) -> dict | None:
    if payload is None:
        return None
    return {"line": payload.line, "is_json": payload.is_json, "text": payload.text}


def _note_view(note: Note) -> dict:
    return {
        "index": note.index,
        "step": note.step,
        "title": note.title,
        "kind": note.kind,
        "file": note.location.file,
        "line": note.location.line,
        "text": note.text,
    }


def _response_view(run: Run) -> dict | None:
    """Where the response was taken from: a file (``named_by`` says who named it, when
    someone did) or a section of one (``section``, starting on ``line``). ``unusable``:
    why the text where it would lie cannot be used (every check on it is an ERROR for
    that reason), or None."""
    response = run.response
    if response is None:
        return None
    lines = None if response.text is None else len(response.text.splitlines())
    named = run.response_named[1] if run.response_named is not None else None
    unusable = None if response.unreadable is None else response.unreadable.message
    return {"path": response.path, "size": response.size, "lines": lines, "line": response.line,
            "section": response.section, "named_by": named, "unusable": unusable}


def _notes_view(run: Run) -> dict:
    notes = run.user_notes
    return {
        "uncertainties": list(notes.uncertainties),
        "needs_review": list(notes.needs_review),
        "workarounds": list(notes.workarounds),
        "suggestions": list(notes.suggestions),
    }


def _problem_view(problem: Problem) -> dict:
    return {"code": problem.code, "path": problem.path, "line": problem.line, "message": problem.message}


def _plain(value: Any) -> Any:
    """JSON-ready copy: Decimals become ints or floats (non-finite ones text)."""
    from decimal import Decimal  # here, not at the top: `referee --help` needs no numbers

    if isinstance(value, Decimal):
        from referee.engine.values import canonical_number, plain_size

        if not value.is_finite() or not plain_size(value):
            return canonical_number(value)  # NaN, Infinity, 1E+9999: text, never a huge int
        # "22.0" stays a float so the view keeps the author's form; "22" is an int
        exponent = value.as_tuple().exponent  # an int: the value is finite here
        return int(value) if isinstance(exponent, int) and exponent >= 0 else float(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# --- text rendering ---------------------------------------------------------------------


def render_text(views: list[dict], warnings: list[Problem]) -> str:
    """The human view of runs (as built by ``run_view``) and workspace warnings."""
    blocks = ["\n".join(_one_line(line) for line in _run_lines(view)) for view in views]
    if warnings:
        blocks.append("\n".join(_one_line(line) for line in ["workspace warnings:"] + [f"  {p}" for p in warnings]))
    return "\n\n".join(blocks)


def _one_line(line: str) -> str:
    """``line`` with a line break in it written as ``\\n``: a name from the run (a file
    the agent wrote as ``"notes\\n::add-mask::FAIL"``) cannot start a line of its own,
    which could pass for referee's, or for a workflow command in a CI log."""
    return line.replace("\n", "\\n")


def _run_lines(view: dict) -> list[str]:
    rid = view["run"]
    name = f" ({rid['eval_name']})" if rid["eval_name"] else ""
    iteration = f"  iteration {rid['iteration']}" if rid["iteration"] is not None else ""
    lines = [
        f"run {rid['rel']}",
        f"  eval {rid['eval_id']}{name}  configuration {rid['configuration']}  run {rid['run_number']}{iteration}",
    ]
    if rid.get("layout"):
        lines.append(f"  read as: {rid['layout']}")
    if view["prompt"] is not None:
        lines.append(f"  prompt: {_short(view['prompt'])}")
    lines += _steps_lines(view["steps"]) + _note_lines(view["notes"])
    lines.append(f"files: {', '.join(view['files']) or '(none)'}")
    lines += _summary_lines(view) + _warning_lines(view["warnings"])
    return lines


def _steps_lines(steps: list[dict]) -> list[str]:
    untrusted = [step for step in steps if not step["trusted"]]
    counted = f" ({len(untrusted)} untrusted: read as agent_notes)" if untrusted else ""
    lines = [f"steps: {len(steps)} tool call(s){counted}"]
    for step in steps:
        number = "-" if step["step"] is None else step["step"]
        mark = "" if step["trusted"] else "  UNTRUSTED"
        if step["agent"] != "main":
            mark += f"  (subagent {step['agent']})"
        status = (step["status"] or "(no status)") + (" (unsure)" if "status" in step["unsure"] else "")
        lines.append(f"  step {number}  {step['tool'] or '(no tool)'}  {status}"
                     f"  {step['file']}:{step['line']}{mark}")
        for key in ("args", "return"):
            payload = step[key]
            if payload is not None:
                kind = ("" if payload["is_json"] else " (text)") + (" (unsure)" if key in step["unsure"] else "")
                lines.append(f"    {key:<6} line {payload['line']}{kind}: {_short(payload['text'])}")
    return lines


def _note_lines(notes: list[dict]) -> list[str]:
    lines = [f"notes: {len(notes)}"]
    for note in notes:
        step = "" if note["step"] is None else f"step {note['step']} "
        lines.append(f"  {note['kind']:<11} {step}{note['title'] or '(untitled)'}  {note['file']}:{note['line']}")
    return lines


def _summary_lines(view: dict) -> list[str]:
    lines = [f"response: {_response_line(view['response'])}"]
    for key in ("metrics", "timing"):
        lines.append(f"{key}: {_mapping_summary(view[key])}")
    notes = view["user_notes"]
    counts = ", ".join(f"{len(notes[k])} {k.replace('_', ' ')}" for k in sorted(notes))
    lines.append(f"user notes: {counts}")
    return lines


def _response_line(response: dict | None) -> str:
    """``812 bytes, outputs/result.md (named by --response)`` or ``..., the "## Final
    Result" section of transcript.md (lines 45-80)``, or ``cannot be used: <why> (...)``."""
    if response is None:
        return "(none)"
    where = response["path"]
    if response["section"] is not None:
        last = response["line"] + max((response["lines"] or 1) - 1, 0)
        where = f"the \"{response['section']}\" section of {where} (lines {response['line']}-{last})"
    if response["named_by"] is not None:
        where += f" (named by {response['named_by']})"
    if response.get("unusable") is not None:
        # The file is where the answer may lie, not the answer: said as grade says it.
        return f"cannot be used: {response['unusable']} ({response['size']} bytes, {where})"
    return f"{response['size']} bytes, {where}"


def _mapping_summary(value: Any) -> str:
    if value is None:
        return "(none)"
    if not isinstance(value, dict):
        return _short(json.dumps(value, ensure_ascii=False))
    parts = []
    for key in sorted(value):
        item = value[key]
        if isinstance(item, (dict, list)):
            parts.append(f"{key}=({len(item)} item(s))")
        else:
            parts.append(f"{key}={json.dumps(item, ensure_ascii=False)}")
    return _short(" ".join(parts), 200) or "(empty)"


def _warning_lines(warnings: list[dict]) -> list[str]:
    if not warnings:
        return ["warnings: none"]
    lines = [f"warnings: {len(warnings)}"]
    for w in warnings:
        where = w["path"] if w["line"] is None else f"{w['path']}:{w['line']}"
        lines.append(f"  {where}: warning[{w['code']}]: {w['message']}")
    return lines


def _short(text: str, limit: int = SUMMARY_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
