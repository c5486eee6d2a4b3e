"""benchmark.json's release decision made again from the grades, as ``referee report``
checks it before showing it.

A decision, its exit code and its reasons' statuses are text anyone can edit
together (FAIL made PASS, every reason made "ok"): agreeing with one another
proves nothing. So ``report`` makes the decision again as ``referee aggregate``
does (``engine.decision``): from the graded runs there now, with the roles, mode
and release settings (thresholds, on_breach) benchmark.json records, and the
reasons of ``referee compare`` and ``referee validate`` found in the workspace.
A decision or a reason that differs is refused.

What the grades cannot give again is taken as recorded: the runs found to read
the skill under test (``--skill-path`` is not recorded, only its folder's name),
and a regression against a blessed benchmark.json (``--against``), whose status
is still held to on_breach.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from referee.engine.usage import UsageError

BENCHMARK = "benchmark.json"
COMPARED = ("decision", "exit_code", "mode", "thresholds", "on_breach", "reasons")
FIGURES = ("run_summary", "comparisons")  # ``engine.decision.benchmark.figures``: report shows run_summary


def not_made_from_grades(benchmark: dict[str, Any], runs: Sequence, folder: Path) -> str | None:
    """Why benchmark.json's release decision, or the figures it shows beside it, are
    not the ones ``referee aggregate`` makes from the grades under ``folder`` (``runs``:
    the runs found there) with the settings it records; None when they are, or when
    it holds neither."""
    from referee.engine.decision.release import EXIT_CODES

    release = _object(benchmark.get("release"))
    decided = release.get("decision") in EXIT_CODES  # else none (refused by ``unknown_decision``)
    if not decided and not any(key in benchmark for key in FIGURES):
        return None
    try:
        remade = remade_document(benchmark, runs, folder, decided)
    except UsageError as exc:
        return (f"{folder / BENCHMARK}: its {'release decision' if decided else 'figures'} cannot be made again "
                f"from the grades ({exc}): written by an older referee, or changed after aggregate wrote it; "
                f"run `referee aggregate {folder}` again (or remove {BENCHMARK}). Nothing was reported")
    figures = [key for key in FIGURES if key in benchmark and benchmark[key] != remade[key]]
    differ = [key for key in COMPARED if release.get(key) != remade["release"][key]] if decided else []
    if differ:
        return (f"{folder / BENCHMARK}: its release decision {release['decision']} is not the one `referee "
                f"aggregate` makes from the grades there with the settings it records "
                f"({remade['release']['decision']}; {_differences(release, remade['release'], differ)}): it was "
                f"changed after aggregate wrote it; run `referee aggregate {folder}` again (or remove "
                f"{BENCHMARK}). Nothing was reported")
    if figures:
        return (f"{folder / BENCHMARK}: its {' and '.join(figures)} (the pass rates and deltas shown) "
                f"{'are' if len(figures) > 1 else 'is'} not what `referee aggregate` makes from the grades there: "
                f"it was changed after aggregate wrote it; run `referee aggregate {folder}` again (or remove "
                f"{BENCHMARK}). Nothing was reported")
    return _judges_differ(benchmark, remade["judges"], folder)


def _judges_differ(benchmark: dict[str, Any], judges: list[str], folder: Path) -> str | None:
    """Why ``metadata.judges`` is not the LLM graders that judged the grades there
    (``judges``); None when it is, or when it is not recorded (an older referee's file).
    ``referee diff`` and ``aggregate --against`` take a change of judge from this field:
    an edit of it would hide one."""
    meta = _object(benchmark.get("metadata"))
    if "judges" not in meta or meta["judges"] == judges:
        return None
    shown = json.dumps(meta["judges"], ensure_ascii=False)[:120]
    return (f"{folder / BENCHMARK}: its metadata.judges {shown} is not the LLM graders that judged the grades "
            f"there ({', '.join(judges) or 'none'}): it was changed after aggregate wrote it; run `referee "
            f"aggregate {folder}` again (or remove {BENCHMARK}). Nothing was reported")


def remade_document(benchmark: dict[str, Any], runs: Sequence, folder: Path, decided: bool) -> dict[str, Any]:
    """What ``referee aggregate`` writes in benchmark.json's ``run_summary`` and
    ``comparisons`` for the runs under ``folder``, with the roles (and contaminated
    runs) ``benchmark`` records; with ``decided``, its ``release`` block too, with
    the mode and settings recorded; and ``judges``, its ``metadata.judges``. As JSON
    reads it back; UsageError when what ``benchmark`` records cannot be used."""
    from referee.engine.commands.aggregate import find_contamination, recorded_judges
    from referee.engine.compare.reasons import found_reasons
    from referee.engine.decision import analysis
    from referee.engine.decision.benchmark import figures
    from referee.engine.decision.collect import collect
    from referee.engine.decision.configurations import choose
    from referee.engine.decision.release import decide, recorded_config
    from referee.engine.decision.stability import MODES

    release, meta = _object(benchmark.get("release")), _object(benchmark.get("metadata"))
    config = recorded_config(release) if decided else None
    mode = meta.get("mode")
    if not isinstance(mode, str) or mode not in MODES:
        if decided:
            raise UsageError("its metadata records no mode")
        mode = next(iter(MODES))  # the figures do not depend on it
    collected = collect(folder, _iteration(benchmark, runs))
    if not collected.runs:
        raise UsageError("no run there has a grading.json written by referee")
    found = sorted({r.configuration for r in collected.runs} | {u.configuration for u in collected.unusable})
    choice = choose(found, _name(meta.get("primary")), _name(meta.get("baseline")))
    recorded, include = _recorded_contamination(benchmark, {r.path for r in collected.runs})
    touched, unchecked = find_contamination(collected, choice, [])  # whether calls were all read needs no skill path
    contamination = {**touched, **recorded}
    result = analysis.analyse(collected.runs, collected.unusable, choice, mode, contamination, include,
                              config.thresholds["max_spread"] if config else 0.0, unchecked)
    remade = figures(result)
    remade["judges"] = recorded_judges(collected.runs)  # ``metadata.judges``, as aggregate writes it
    if config is not None:
        extra, _ = found_reasons(folder, collected.runs, choice.primary, choice.baseline)
        extra += _recorded_regression(release)
        remade["release"] = decide(result, config, extra).as_dict()
    # Compared as benchmark.json holds it: JSON's numbers and lists, not tuples.
    return json.loads(json.dumps(remade))


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _name(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise UsageError("its metadata's primary or baseline is not a configuration's name")
    return value


def _iteration(benchmark: dict[str, Any], runs: Sequence) -> int | None:
    """The iteration aggregate read (the one of the runs its ``inputs`` record), or
    None (aggregate's default, the last) when that is not one iteration."""
    from referee.engine.run.workspace import report_path

    inputs = _object(benchmark.get("inputs")).get("grading_json")
    if not isinstance(inputs, dict):
        return None
    read = {run.id.iteration for run in runs if report_path(run.id) in inputs}
    return read.pop() if len(read) == 1 else None


def _recorded_contamination(benchmark: dict[str, Any], paths: set[str]) -> tuple[dict[str, tuple], bool]:
    """The contaminated runs benchmark.json records (those still there), each with its
    findings; and whether they were kept in the delta (--include-contaminated)."""
    from referee.engine.decision.contamination import Finding

    found: dict[str, tuple] = {}
    include = False
    listed = benchmark.get("contaminated_runs")
    for entry in listed if isinstance(listed, list) else ():
        if not isinstance(entry, dict) or entry.get("path") not in paths:
            continue
        include = include or entry.get("included_in_delta") is True
        evidence = [e for e in entry.get("evidence") or () if isinstance(e, dict)]
        found[entry["path"]] = tuple(Finding(e.get("step"), str(e.get("tool")), str(e.get("location")),
                                             str(e.get("target")), str(e.get("quote"))) for e in evidence) \
            or (Finding(None, "", "", "", ""),)
    return found, include


def _recorded_regression(release: dict[str, Any]) -> list:
    """The ``regression`` reason as recorded: the blessed benchmark.json it was found
    against (--against) is not in the workspace; ``decide`` still holds a breach to
    on_breach."""
    from referee.engine.decision.release import Reason

    reasons = release.get("reasons")
    return [Reason("regression", str(r.get("status")), str(r.get("message")))
            for r in reasons if isinstance(r, dict) and r.get("rule") == "regression"] \
        if isinstance(reasons, list) else []


def _differences(release: dict[str, Any], remade: dict[str, Any], differ: list[str]) -> str:
    """What differs, shortly: the rules whose reasons differ, and the other fields."""
    said = [key for key in differ if key != "reasons"]
    if "reasons" in differ:
        recorded = release.get("reasons")
        # a reason whose rule is no text (a list, edited in) names no rule aggregate has
        mine = {r["rule"]: r for r in recorded if isinstance(r, dict) and isinstance(r.get("rule"), str)} \
            if isinstance(recorded, list) else {}
        rules = [r["rule"] for r in remade["reasons"] if mine.get(r["rule"]) != r]
        said.insert(0, f"the reasons of {', '.join(rules[:5])}" if rules else "its reasons")
    return f"{', '.join(said)} differ"
