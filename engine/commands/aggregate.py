"""``referee aggregate WORKSPACE``: from graded runs to benchmark.json, benchmark.md
and a release decision (PASS, CONDITIONAL PASS or FAIL)."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import add_roles, add_workspace, given_name, given_path
from referee.dsl.named_file import read_named_text
from referee.engine.commands.warnings import warn, warn_all
from referee.engine.report.color import add_color_argument
from referee.engine.text import count
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands
    from referee.engine.decision.analysis import Analysis
    from referee.engine.decision.collect import Collected, GradedRun
    from referee.engine.decision.configurations import Choice
    from referee.engine.decision.release import Decision, ReleaseConfig

# The keys of ``engine.decision.stability.MODES``, written here so that building the
# parser (every ``referee --help``) does not load the decision code; a test keeps
# the two equal.
MODE_NAMES = ("quick", "standard")
BENCHMARK_JSON, BENCHMARK_MD = "benchmark.json", "benchmark.md"
EPILOG = """\
exit codes:
  0  PASS: every rule of the release gate holds
  1  FAIL: a rule whose breach fails the release is broken (each reason is
     printed with its numbers)
  3  CONDITIONAL PASS: only rules whose breach is conditional are broken (too
     few runs, not-graded assertions, an unstable eval ...); a CI gate that
     ships with care treats 3 as a pass, a strict one as a failure
  2  usage or input error: no workspace, no graded run, unknown or unnamed
     configurations, a bad release config, runs graded by different rules or
     referee versions or judged by different LLM graders (without
     --allow-mixed-rules), another referee writing into the workspace

Pass rates: "gated" counts each run's gate (existence checks and ungraded
semantic assertions left out); "all graded" counts every graded assertion.
Both are means over runs, never the best run. A run without a grading.json
written by referee, or whose counts disagree with its expectations (the file was
changed since), is listed by path and not counted (never as 0 %).

Contamination: a run of another configuration than the primary whose tool
calls read, list or search the skill (--skill-path; by default the folder
holding evals/ of --evals), or any run that reads another configuration's
folder, is marked with the call as evidence and left out of the summaries
and the delta unless --include-contaminated is given.

The release gate's thresholds and their defaults are in rules/release.toml.
The result of `referee compare` (WORKSPACE/comparison/summary.json) and of
`referee validate` (WORKSPACE/validity.json) join it as reasons while they are
about the runs aggregated. --against FILE diffs the benchmark with a blessed
benchmark.json (one graded by other rules or referee versions, or judged by other
LLM graders, is refused); --fail-on-regression makes a regression a reason too.
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``aggregate`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "aggregate", help="benchmark graded runs and decide PASS / CONDITIONAL PASS / FAIL",
        description="Read the grading.json of every run under WORKSPACE (any folder level), and "
                    "write benchmark.json (skill-creator's schema) and benchmark.md beside it.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_workspace(parser)
    add_roles(parser)
    parser.add_argument("--mode", choices=sorted(MODE_NAMES), default=None,
                        help="runs required per eval and configuration: quick 2, standard 3 "
                             "(default: the release config's mode, standard)")
    parser.add_argument("--release-config", type=given_path, metavar="FILE",
                        help="TOML overriding rules/release.toml's thresholds")
    parser.add_argument("--skill-path", type=given_name, action="append", default=[], metavar="DIR",
                        help="the skill under test, for contamination checks (repeatable)")
    parser.add_argument("--evals", type=given_path, metavar="EVALS_JSON",
                        help="skill-creator evals.json: gives skill_name (and the skill path)")
    parser.add_argument("--include-contaminated", action="store_true",
                        help="keep contaminated runs in the summaries and the delta")
    parser.add_argument("--iteration", type=int, metavar="N",
                        help="with several iteration-N (or iter-N) folders, the one to aggregate (default: the last)")
    parser.add_argument("--output", type=given_path, metavar="DIR",
                        help="the folder to write the two files into, which must be there "
                             "already (default: WORKSPACE)")
    parser.add_argument("--allow-mixed-rules", action="store_true",
                        help="compare runs graded by different rules or referee versions, or judged by "
                             "different LLM graders (refused by default)")
    parser.add_argument("--against", type=given_path, metavar="FILE",
                        help="a blessed benchmark.json to diff with (see referee diff)")
    parser.add_argument("--fail-on-regression", action="store_true",
                        help="with --against: a regression is a reason of the release decision")
    parser.add_argument("--check", action="store_true", help="decide and print; write nothing")
    add_color_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Aggregate, decide, write; returns the exit code documented in ``--help``."""
    # Loaded here, not at the top: ``referee --help`` builds every subcommand's parser.
    from referee.engine.decision import release
    from referee.engine.report.folders import named_folder, not_an_input
    from referee.engine.report.lock import WorkspaceBusy, workspace_lock
    from referee.engine.shards.verify import require_one_grade

    if not args.workspace.is_dir():
        raise UsageError(f"workspace not found: {args.workspace}")
    if args.output is not None and not args.check:
        named_folder(args.output, "--output", (BENCHMARK_JSON, BENCHMARK_MD))
    if args.against is not None and not args.check:
        # The blessed benchmark replaced by this one: the next diff would be against it.
        not_an_input((args.output or args.workspace) / BENCHMARK_JSON, [args.against], "--output", "--against")
    config = release.load_config(args.release_config)
    if args.mode is not None:
        # --mode wins over the release config's: the decision then says the mode it was made in.
        config = dataclasses.replace(config, mode=args.mode)
    try:
        # The grade's writer lock: no grade writes into the workspace while it is read.
        with workspace_lock(args.workspace):
            require_one_grade(args.workspace)  # a sharded grade: its shards checked and merged
            doc, decision = _benchmark(args, config)
            if not args.check:
                _write(doc, args.output or args.workspace)
    except WorkspaceBusy:
        raise UsageError(f"another referee is writing reports into {args.workspace} (it holds the "
                         "workspace's lock); nothing was aggregated. Run this again when it has "
                         "finished") from None
    _print(doc, args)
    return decision.exit_code


def _benchmark(args: argparse.Namespace, config: ReleaseConfig):
    """benchmark.json as a dict, and the release decision, from the runs as they are now."""
    from referee.engine.critique.findings import finding_notes, load_findings
    from referee.engine.decision import analysis as analysis_mod
    from referee.engine.decision import notes
    from referee.engine.decision.collect import collect
    from referee.engine.decision.configurations import choose

    collected = collect(args.workspace, args.iteration)
    _require_iteration(collected, args.iteration)
    warn_all(collected.warnings)
    _require_runs(collected, args.workspace)
    mixed = _rules_mix(collected, args)
    # Roles from every run found: a configuration whose runs could not be read is still
    # there, with no rate, rather than leaving the other one to be taken for the skill.
    found_configs = {r.configuration for r in collected.runs} | {u.configuration for u in collected.unusable}
    choice = choose(sorted(found_configs), args.primary, args.baseline)
    skill_paths, meta = _skill(args)
    found, unchecked = find_contamination(collected, choice, skill_paths)
    result = analysis_mod.analyse(collected.runs, collected.unusable, choice, config.mode, found,
                                  args.include_contaminated, config.thresholds["max_spread"], unchecked)
    graded_by = tuple(sorted({name for r in collected.runs for name in r.rules}))
    critiqued = finding_notes(load_findings(args.workspace), graded_by)  # from `referee critique`, if run
    return _decided(args, collected, result, config, notes.notes(result) + mixed + critiqued, meta)


def _decided(args: argparse.Namespace, collected: Collected, result: Analysis, config: ReleaseConfig,
             found_notes: list[str], meta: dict) -> tuple[dict, Decision]:
    """benchmark.json and the release decision, with the reasons of `referee compare` and
    `referee validate` (engine.compare.reasons) and, with --against, the diff with a
    blessed benchmark.json (a reason too with --fail-on-regression)."""
    from referee.engine.compare import reasons
    from referee.engine.decision import benchmark, release

    extra, said = reasons.found_reasons(args.workspace, collected.runs, result.choice.primary, result.choice.baseline)
    warn_all(said)
    rules = sorted({name for r in collected.runs for name in r.rules})
    inputs = recorded_inputs(collected.runs)
    judges = recorded_judges(collected.runs)

    def document(decision: Decision) -> dict:
        doc = benchmark.document(result, decision, found_notes + said, meta, collected.gradings)
        doc["metadata"]["rules"] = rules  # what graded the runs: `referee diff` compares like with like
        doc["metadata"]["inputs"] = inputs  # and the input files those rules read (None: not recorded)
        doc["metadata"]["judges"] = judges  # and the LLM graders that judged them ([]: none did)
        return doc

    decision = release.decide(result, config, extra)
    doc = document(decision)
    diffed = _against(args, doc)
    if diffed is not None and args.fail_on_regression:
        decision = release.decide(result, config, [*extra, reasons.regression(diffed, args.against)])
        doc = document(decision)
    return doc, decision


def _against(args: argparse.Namespace, doc: dict):
    """The diff with --against's blessed benchmark.json, printed; None without the flag."""
    if args.against is None:
        if args.fail_on_regression:
            raise UsageError("--fail-on-regression needs --against FILE (a blessed benchmark.json)")
        return None
    from referee.engine.commands.diff import lines
    from referee.engine.compare.reasons import against
    from referee.engine.compare.output import say

    diffed = against(args.against, doc)
    for line in lines(diffed):
        say(line)
    return diffed


def _rules_mix(collected: Collected, args: argparse.Namespace) -> list[str]:
    """Refuses runs graded by different rules or referee versions, or judged by different
    LLM graders, unless --allow-mixed-rules; then the benchmark's notes say how they differ."""
    from referee.engine.decision.provenance import graded_by, judges_mix, rules_mix, versions_mix

    mixes = (("graded by different rules", "one set of rules",
              rules_mix([(r.path, r.eval_id, graded_by(r.rules, r.inputs)) for r in collected.runs])),
             ("judged by different LLM graders", "one LLM grader",
              judges_mix([(r.path, r.eval_id, r.judges) for r in collected.runs])),
             ("graded by different referee versions", "one version of referee",
              versions_mix([(r.path, r.version) for r in collected.runs])))
    notes = []
    for said, remedy, mixed in mixes:
        if mixed and not args.allow_mixed_rules:
            raise UsageError(f"the runs under {args.workspace} were {said}: {'; '.join(mixed)}. Grade them "
                             f"again with {remedy} (or give --allow-mixed-rules to compare them anyway); "
                             "nothing was written")
        for line in mixed:
            warn(f"{said} (--allow-mixed-rules): {line}")
        notes += [f"{said}, compared anyway (--allow-mixed-rules): {line}" for line in mixed]
    return notes


def benchmark_text(doc: dict) -> str:
    """benchmark.json's bytes: ``json.dumps(doc, ensure_ascii=False, indent=2)`` (the
    fast encoder where it writes the same text), with every ``</script`` and ``<!--``
    escaped, in keys too: skill-creator's viewer pastes the file into a <script>."""
    from referee.engine.report.render import json_text, neutralise_text

    return neutralise_text(json_text(doc)) + "\n"


def _write(doc: dict, out: Path) -> None:
    """benchmark.json and benchmark.md into ``out``, both or neither; a name taken by
    anything but a regular file (a link, a FIFO, a device) is refused, never replaced."""
    from referee.engine.decision import markdown
    from referee.engine.report.atomic import replace_together

    try:
        replace_together({out / BENCHMARK_JSON: benchmark_text(doc), out / BENCHMARK_MD: markdown.render(doc)})
    except OSError as exc:
        raise UsageError(f"cannot write {BENCHMARK_JSON} and {BENCHMARK_MD} into {out}: "
                         f"{exc.strerror or exc}; neither was changed (--output DIR writes elsewhere)") from None


def recorded_inputs(runs: list[GradedRun]) -> list[str] | None:
    """The input files the runs' rules read (``provenance.inputs_of``), sorted; None
    when a run does not record them: then which files graded the runs is unknown."""
    found: set[str] = set()
    for run in runs:
        if run.inputs is None:
            return None
        found.update(run.inputs)
    return sorted(found)


def recorded_judges(runs: list[GradedRun]) -> list[str]:
    """The LLM graders that gave the runs' verdicts (``provenance.judges_of``:
    ``backend:model``), sorted; empty when no model judged any run."""
    return sorted({judge for run in runs for judge in run.judges})


def find_contamination(collected: Collected, choice: Choice, skill_paths: list[str]) -> tuple[dict, dict[str, str]]:
    """Path -> findings for every run that touched what it must not, and path -> why
    for every run found clean whose calls may be incomplete (a call not read may be
    the read that contaminates it: it is not shown clean). Each run's transcript is
    parsed for findings only when its raw text names a forbidden path."""
    from referee.engine.decision import contamination

    every = {r.configuration for r in collected.runs} | {u.configuration for u in collected.unusable}
    result, unchecked = {}, {}
    for graded in collected.runs:
        skill = skill_paths if graded.configuration != choice.primary else []
        needles = contamination.needles(skill, every - {graded.configuration})
        source = collected.sources[graded.path]
        # Untrusted records and subagents' calls count too: a read is a read, whoever hid it.
        found = contamination.run_findings(source, needles) if needles else ()
        if found:
            result[graded.path] = found
        elif needles:
            why = contamination.unchecked(source)
            if why is not None:
                unchecked[graded.path] = why
        source.release()
    return result, unchecked


def _require_iteration(collected: Collected, wanted: int | None) -> None:
    """An ``--iteration`` the workspace has no folder of is the flag's mistake: said
    so, with the iterations there are, rather than as a workspace without runs."""
    if wanted is not None and wanted not in collected.iterations:
        raise UsageError(f"--iteration {wanted}: no such iteration (found: "
                         f"{', '.join(map(str, collected.iterations)) or 'none'})")


def _require_runs(collected: Collected, workspace: Path) -> None:
    if collected.runs:
        return
    if not collected.unusable:
        raise UsageError(f"no runs found under {workspace} (a run is a folder holding outputs/); "
                         "an empty benchmark is not a success")
    listed = "; ".join(f"{u.path}: {u.reason}" for u in collected.unusable[:5])
    raise UsageError(f"none of the {count(len(collected.unusable), 'run')} under {workspace} has a grading.json "
                     f"written by referee ({listed}); run referee grade first")


def _skill(args: argparse.Namespace) -> tuple[list[str], dict]:
    """The skill's paths for contamination, and metadata's skill_name and skill_path.

    Without --skill-path, an evals.json at ``<skill>/evals/evals.json`` (where
    skill-creator keeps it) names its skill folder. Only folder names are written."""
    paths = [str(p) for p in args.skill_path]
    skill_name = None
    if args.evals is not None:
        try:
            data = json.loads(read_named_text(args.evals, "utf-8-sig"))  # a byte order mark is not text, as in grade
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read the evals file {args.evals}: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
        except RecursionError:  # nested deeper than the decoder's stack
            raise UsageError(f"cannot read the evals file {args.evals}: nested too deeply") from None
        if isinstance(data, dict) and isinstance(data.get("skill_name"), str):
            skill_name = data["skill_name"]
        folder = args.evals.resolve().parent
        if not paths and folder.name == "evals":
            paths = [str(folder.parent)]
    if not paths:
        warn("no --skill-path (nor --evals inside <skill>/evals/): contamination is checked "
              "against the other configurations' folders only")
    name = Path(paths[0]).resolve().name if paths else None
    return paths, {"skill_name": skill_name or name, "skill_path": name}


def _print(doc: dict, args: argparse.Namespace) -> None:
    import sys

    from referee.engine.report.color import paint, use_color

    color = use_color(sys.stdout, args.color)
    meta, decided = doc["metadata"], doc["release"]
    against = f" against {meta['baseline']}" if meta["baseline"] else ""
    print(f"{paint(decided['decision'], decided['decision'], color)}  "
          + _shown(f"{meta['primary']}{against}  ({decided['mode']} mode, rules {decided['config']})"))
    marks = {"ok": ("ok  ", "PASS"), "conditional": ("COND", "CONDITIONAL PASS"), "fail": ("FAIL", "FAIL")}
    for reason in decided["reasons"]:
        mark, style = marks[reason["status"]]
        print(f"  {paint(mark, style, color)} " + _shown(f"{reason['rule']}: {reason['message']}"))
    summary = doc["run_summary"]
    for config in meta["configurations"]:
        rates = summary[config]
        gated, graded = rates["pass_rate"], rates["pass_rate_all_graded"]
        print(_shown(f"  {config}: gated {_pct(gated)}, all graded {_pct(graded)} over {count(rates['runs'], 'run')}"))
    if doc["comparisons"]:
        first = doc["comparisons"][0]
        print(_shown(f"  delta ({meta['primary']} - {meta['baseline']}): " + ", ".join(
            f"{k} {_points(first['delta'][k]) if k.startswith('pass_rate') else text}"
            for k, text in first["delta_text"].items())))
    for found in doc["contaminated_runs"]:
        first = found["evidence"][0]
        step = f"step {first['step']} " if first["step"] is not None else ""
        fate = "kept" if found["included_in_delta"] else "left out of the delta"
        print(_shown(f"  contaminated ({fate}): {found['path']}: {step}{first['tool']} ({first['location']}) "
                     f"reads {first['target']}"))
    for unusable in doc["unusable_runs"]:
        warn(f"{unusable['path']}: not counted: {unusable['reason']}")
    if args.check:
        print("nothing was written (--check)")
    else:
        out = args.output or args.workspace
        print(f"wrote {out / BENCHMARK_JSON} and {out / BENCHMARK_MD}")


def _shown(text: str) -> str:
    """A line's text from the workspace (configuration names are its folders' names,
    contamination quotes a run's tool and path) made inert and kept on its line, as
    compare's lines are (engine.compare.output.say), and starting no workflow command
    (``inert.line_start``: a configuration's line starts with its name); colour is
    added around it."""
    from referee.engine.report.inert import inert, line_start

    return line_start(inert(text).replace("\n", "\\n"))


def _pct(stat: dict[str, float] | None) -> str:
    return "—" if not stat else f"{stat['mean']:.1%}"


def _points(value: float | None) -> str:
    """A difference of two pass rates, in the unit they are printed in."""
    return "—" if value is None else f"{value * 100:+.1f} pts"


