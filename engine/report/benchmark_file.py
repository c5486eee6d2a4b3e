"""benchmark.json as ``referee report`` reads it: bounded, read through the one
reader, and shown only while it is the one ``referee aggregate`` made from the
grades there now, with a decision its own reasons give.

Each check returns what is wrong (the message ``report`` refuses with) or None;
``engine.report.collect`` raises it as ``NotTrusted``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Sequence

from referee.dsl.named_file import read_named_text
from referee.engine.decision.release import CONDITIONAL, EXIT_CODES, FAIL, PASS
from referee.engine.report.freshness import changed_since, file_digest
from referee.engine.report.marker import GRADING
from referee.engine.run.workspace import report_path

BENCHMARK = "benchmark.json"
DECISIONS = (PASS, CONDITIONAL, FAIL)  # the release decisions aggregate makes
BENCHMARK_LIMIT = 64 * 1024 * 1024  # as compare.output.read_object reads one for diff and --against


def read_benchmark(folder: Path, shown: str) -> dict[str, Any] | str | None:
    """``folder``'s benchmark.json (``shown`` names it); None when there is none; the
    refusal when one is there that cannot be read. Its release decision is then
    unknown, and the grades alone could decide a PASS where it decided otherwise (a
    primary whose gates all pass, worse than its baseline), so nothing is reported."""
    path = folder / BENCHMARK
    if not os.path.lexists(path):
        return None
    # Whatever stands there is read, so that one that is not a file (a FIFO, a folder)
    # is named as unread, as an unreadable one is: never passed over in silence.
    try:
        # Through the one reader (a FIFO is refused, never waited on), bounded as diff reads it.
        value = json.loads(read_named_text(path, "utf-8-sig", BENCHMARK_LIMIT))  # as diff and compare read it
    except OSError as exc:  # its reason alone: the path is named already
        return _unread(shown, folder, str(exc.strerror or exc))
    except ValueError as exc:
        return _unread(shown, folder, str(exc))
    except RecursionError:  # nested deeper than the decoder's stack
        return _unread(shown, folder, "nested too deeply")
    if not isinstance(value, dict):
        return _unread(shown, folder, "not a JSON object")
    return value


def _unread(shown: str, folder: Path, why: str) -> str:
    return (f"{shown}: cannot read ({why}): its release decision is unknown, and the grades alone "
            f"would decide without it; run `referee aggregate {folder}` again, remove {BENCHMARK}, or "
            "give --no-benchmark to report the grades alone. Nothing was reported")


def stale(benchmark: dict[str, Any], runs: Sequence, folder: Path, problems: list[str]) -> str | None:
    """Why benchmark.json is older than the grading.json files there now; None when
    it read them as they are (or records no inputs, said in ``problems``)."""
    inputs = benchmark.get("inputs")
    recorded = inputs.get("grading_json") if isinstance(inputs, dict) else None
    if not isinstance(recorded, dict):
        problems.append(f"{BENCHMARK} records no inputs (written by an older referee): whether its "
                        "decision is older than the grades cannot be told; run `referee aggregate` again")
        return None
    now = {report_path(run.id): (run.id.iteration, file_digest(run.path / GRADING)) for run in runs}
    changed = changed_since(recorded, now)
    if not changed:
        return None
    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
    return (f"{folder / BENCHMARK} is older than the grades it decided on: {', '.join(changed[:3])}{more} "
            f"graded again, removed or added since; run `referee aggregate {folder}` again (or remove "
            f"{BENCHMARK}). Nothing was reported")


def other_iterations(benchmark: dict[str, Any], runs: Sequence, problems: list[str]) -> dict[str, Any]:
    """``benchmark`` without its release block when graded runs are shown that it did not read:
    those of another iteration (``aggregate`` decides on one; ``stale`` refuses a run
    added to it). Its decision says nothing of them, and could pass over their failures,
    so the decision is then the gate's over every run shown, and it is said."""
    inputs = benchmark.get("inputs")
    recorded = inputs.get("grading_json") if isinstance(inputs, dict) else None
    if not isinstance(benchmark.get("release"), dict) or not isinstance(recorded, dict):
        return benchmark
    # a run with no grading.json is shown as a problem alone, counted nowhere
    outside = {run.id.iteration for run in runs
               if report_path(run.id) not in recorded and os.path.lexists(run.path / GRADING)}
    if not outside:
        return benchmark
    covered = {run.id.iteration for run in runs if report_path(run.id) in recorded}
    problems.append(f"{BENCHMARK}'s release decision left out: it decided on iteration {_listed(covered)} alone; "
                    f"runs of iteration {_listed(outside)} are shown, and the decision is the gate's over "
                    "every run shown")
    return {key: value for key, value in benchmark.items() if key != "release"}


def _listed(iterations: set) -> str:
    return ", ".join(str(i) for i in sorted(iterations, key=lambda i: (i is None, i or 0)))


def release_gone(benchmark: dict[str, Any], folder: Path) -> str | None:
    """Why a benchmark.json that records its inputs, as every one ``aggregate`` writes now
    does, has no release decision: it was taken out, and the grades alone would decide,
    a PASS where it decided otherwise (a primary whose gates all pass, worse than its
    baseline). None when it has one, or records no inputs (an older referee's)."""
    release = benchmark.get("release")
    if not isinstance(benchmark.get("inputs"), dict) or isinstance(release, dict) and "decision" in release:
        return None
    block = json.dumps(release, ensure_ascii=False)[:40] if "release" in benchmark else "gone"
    return (f"{folder / BENCHMARK} has no release decision (its release block is {block}), though "
            f"`referee aggregate` writes one with the inputs it records: it was changed after aggregate wrote "
            f"it; run `referee aggregate {folder}` again (or remove {BENCHMARK}). Nothing was reported")


def unknown_decision(benchmark: dict[str, Any], folder: Path) -> str | None:
    """Why benchmark.json's release decision is none that ``referee aggregate`` makes
    (``"pass"``, ``1``, text with markup): it was changed after aggregate wrote it, and
    what it decided is unknown; None when the decision is one aggregate makes, or absent
    (``release_gone``)."""
    release = benchmark.get("release")
    if not isinstance(release, dict) or "decision" not in release or release["decision"] in DECISIONS:
        return None
    shown = json.dumps(release["decision"], ensure_ascii=False)[:80]
    return (f"{folder / BENCHMARK}: its release decision {shown} is none that `referee aggregate` makes "
            f"({', '.join(DECISIONS)}): it was changed after aggregate wrote it; run `referee aggregate "
            f"{folder}` again (or remove {BENCHMARK}). Nothing was reported")


def not_decided_by_reasons(benchmark: dict[str, Any], folder: Path) -> str | None:
    """Why benchmark.json's release decision (or exit code) is not the one its reasons
    give, as ``release.decide`` makes it: FAIL when a reason's status is "fail", else
    CONDITIONAL PASS when one is "conditional", else PASS. A decision edited by hand
    (FAIL made PASS) disagrees with the reasons left beside it: it is shown nowhere."""
    release = benchmark.get("release")
    if not isinstance(release, dict) or release.get("decision") not in DECISIONS:
        return None  # no decision (``release_gone``), or none aggregate makes (``unknown_decision``)
    reasons = release.get("reasons")
    statuses = [r.get("status") for r in reasons if isinstance(r, dict)] if isinstance(reasons, list) else None
    due = None if statuses is None else FAIL if "fail" in statuses else CONDITIONAL if "conditional" in statuses else PASS
    code = release.get("exit_code", EXIT_CODES.get(release["decision"]))
    if due is not None and due == release["decision"] and code == EXIT_CODES[due]:
        return None
    said = "no reasons" if due is None else f"reasons that make it {due}"
    return (f"{folder / BENCHMARK}: its release decision {release['decision']} (exit code {code!r}) is not the "
            f"one `referee aggregate` makes from what it holds ({said}): it was changed after aggregate wrote "
            f"it; run `referee aggregate {folder}` again (or remove {BENCHMARK}). Nothing was reported")
