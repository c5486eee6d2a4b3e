"""Execution metrics, timing and the skill type of a run.

``execution_metrics`` copies ``outputs/metrics.json`` when it holds a JSON object;
otherwise it computes the same fields from what the run left on disk, and says
which of the two it did. ``copied_timing`` copies ``timing.json`` without the
figures that are not numbers, or below 0, or above 2^53. ``run_skill_type``
classifies a run by the tools it called: the one decision of a run's skill type,
which ``known_skill_type`` reports only where no call left unread could change it.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, Iterable, TypeGuard

from referee.engine.caps import DETAIL_LIMIT, cut
from referee.engine.facts.metrics_fields import misshapen, not_a_figure, record_clash
from referee.engine.facts.metrics_unread import NOT_COUNTED, calls_unread, import_not_counted, not_counted
from referee.engine.run import status_words
from referee.engine.run.model import JsonFile, Problem
from referee.engine.run.safeio import join_report
from referee.engine.text import plain

if TYPE_CHECKING:
    from referee.engine.run.model import Note, ToolCall, Transcript
    from referee.engine.run.workspace import Run

# The files skill-creator's executor writes about a run, not as its product; its
# viewer leaves the same three out of the output listing.
RUN_RECORD_FILES = frozenset({"transcript.md", "user_notes.md", "metrics.json"})

# An MCP tool is named "mcp__server__tool" (Claude Code) or "<server>-mcp_<tool>" /
# "<server>_mcp_<tool>" (exported logs): "mcp" as a whole segment of the name.
_MCP_NAME = re.compile(r"(?:^|[_\-.:/])mcp(?:$|[_\-.:/])", re.IGNORECASE)
# Tools that run code or commands. File edits (Write, Edit) produce text, not execution.
_CODE_TOOLS = frozenset({
    "bash", "shell", "sh", "terminal", "run_command", "run_shell_command", "execute_command",
    "python", "run_python", "execute_code", "code_interpreter", "jupyter", "notebookedit",
    "powershell", "exec",
})

SKILL_TYPES = ("mcp_based", "code_execution", "text_generation")


def skill_type(tool_names: Iterable[str | None]) -> str:
    """``mcp_based`` if any MCP tool was called, else ``code_execution`` if a tool ran
    code or commands, else ``text_generation`` (no calls, or only reads and edits)."""
    names = [name for name in tool_names if name]
    if any(_MCP_NAME.search(name) for name in names):
        return "mcp_based"
    if any(name.lower() in _CODE_TOOLS for name in names):
        return "code_execution"
    return "text_generation"


def run_skill_type(run: Run) -> str:
    """The skill type the LLM grader's prompt states, which needs one: the
    ``skill_type`` that eval_metadata.json declares, when it is one of ``SKILL_TYPES``,
    else ``skill_type`` of the tools of the run's trusted calls, its subagents' too
    (they are the run's calls). grading.json states ``known_skill_type`` instead."""
    declared = _declared_type(run)
    if declared is not None:
        return declared
    return skill_type(call.tool for call in _trusted_calls(run))


def known_skill_type(run: Run) -> str | None:
    """grading.json's ``skill_type``: ``run_skill_type`` where the evidence decides it,
    None where it cannot be told. A call seen to be an MCP call decides it whatever
    else the run did; short of one, a call that may be missing (a record cut, not
    trusted or not there, ``calls_unread``) or whose tool name was not read whole may
    be the MCP or code call that would change it, so the run's type is not known."""
    declared = _declared_type(run)
    if declared is not None:
        return declared
    calls = _trusted_calls(run)
    if skill_type(call.tool for call in calls if "tool" not in call.unsure) == "mcp_based":
        return "mcp_based"
    if calls_unread(run) is not None or any("tool" in call.unsure for call in calls):
        return None
    return skill_type(call.tool for call in calls)


def _declared_type(run: Run) -> str | None:
    declared = (getattr(run, "metadata", None) or {}).get("skill_type")
    return declared if declared in SKILL_TYPES else None


def _trusted_calls(run: Run) -> tuple[ToolCall, ...]:
    """The run's calls, its subagents' too, but for the records not trusted. A caller
    may hand in less than a Run (the digest of a folder, ``engine.report.carry``): its
    transcript's calls then, or none."""
    found = getattr(run, "every_call", None) or getattr(run, "transcript", None)
    return tuple(call for call in getattr(found, "calls", ()) or () if call.suspect is None)


# The fields of execution_metrics skill-creator's aggregator sums and averages (it
# reads them with .get, so one may be absent): anything but a number there stops it.
AGGREGATED_COUNTS = ("total_tool_calls", "errors_encountered", "output_chars")
CONTRADICTED = "metrics-contradicted"  # the warning: the record holds other counts of calls


def execution_metrics(run: Run) -> tuple[dict[str, Any], str]:
    """``(metrics, source)``: source is ``"metrics.json"`` or ``"transcript"``.

    A metrics.json that is missing, unreadable, not a JSON object, or whose counts
    (``AGGREGATED_COUNTS``) are not numbers, or below 0, or above 2^53 is replaced by
    metrics computed from the transcript and the output files; so is one whose counts
    of calls the run's tool-call record, read in full, contradicts (``record_clash``:
    the record is the evidence, the file the agent's word). The counts of calls an
    import wrote from calls it could not read in full are left out of the copy, and
    so are the fields not of their shape (``misshapen``: ``total_steps: -3``,
    ``files_created: "x"``); ``not_counted`` says why.
    """
    copied = _copied_whole(run)
    if copied is not None:
        copied.pop(NOT_COUNTED, None)  # referee's own account of what it left out, never the file's
        groups = [*import_not_counted(run, copied), *misshapen(copied)]
        return _bounded(_without(copied, groups)), "metrics.json"
    return _bounded(computed_metrics(run)), "transcript"


def read_for_metrics(run: Run) -> None:
    """Read the files ``execution_metrics`` reads, and count nothing: for a grade that
    shows no metrics (one that writes no report), whose warnings are still those of
    the files read (a product that is no text is a warning once read)."""
    if _copied_whole(run) is None:
        _product_chars(run)


def _copied_whole(run: Run) -> dict[str, Any] | None:
    """metrics.json's object as a report copies it, when it is copied; None when the
    metrics are computed from the run instead (see ``execution_metrics``)."""
    copied = _copied(run.metrics)
    if copied is None or _not_figures(copied, AGGREGATED_COUNTS) or record_clash(run, copied) is not None:
        return None
    return copied


def metrics_problems(run: Run) -> tuple[Problem, ...]:
    """Why the run's metrics.json, a JSON object, was not copied: counts that are no
    figures (``AGGREGATED_COUNTS``), or counts of calls its tool-call record contradicts."""
    instead = "execution_metrics are computed from the run instead"
    wrong = _not_copied(run, run.metrics, AGGREGATED_COUNTS, "bad-metrics", instead)
    copied = _copied(run.metrics)
    if wrong or copied is None or run.metrics is None:
        return wrong
    clash = record_clash(run, copied)
    if clash is None:
        return ()
    message = f"{clash}: its counts are the agent's own, and the record is the evidence; {instead}"
    return (Problem(CONTRADICTED, join_report(run.id.rel, run.metrics.path), message),)


# The figures of timing.json (formats.md) that consumers add up: skill-creator's
# aggregator sums and averages total_duration_seconds and total_tokens, referee's own
# benchmark and viewer read the durations. Timestamps (executor_start, ...) are text.
TIMING_FIGURES = ("total_tokens", "input_tokens", "output_tokens", "duration_ms", "total_duration_seconds",
                  "executor_duration_seconds", "grader_duration_seconds")


def copied_timing(run: Run) -> dict[str, Any]:
    """timing.json as a report copies it (JSON types only), without the
    ``TIMING_FIGURES`` that are no figures (not numbers, below 0, above 2^53); empty
    when it is no JSON object. A file that gives no ``total_tokens`` but input and
    output tokens gets their sum: skill-creator's aggregator reads the total alone.
    One whose total is no figure gets none: it may count tokens the two do not
    (Claude Code's counts the cache's), and the run's warning says it was left out."""
    found = _copied(run.timing)
    if found is None:
        return {}
    wrong = set(_not_figures(found, TIMING_FIGURES))
    copied = {key: value for key, value in found.items() if key not in wrong}
    given, taken = copied.get("input_tokens"), copied.get("output_tokens")
    if "total_tokens" not in found and _whole(given) and _whole(taken):
        copied["total_tokens"] = given + taken
    return copied


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def timing_problems(run: Run) -> tuple[Problem, ...]:
    """Which figures of the run's timing.json, a JSON object, were not copied."""
    return _not_copied(run, run.timing, TIMING_FIGURES, "bad-timing", "not copied into grading.json's timing")


def _copied(found: JsonFile | None) -> dict[str, Any] | None:
    """A side file's object as a report would copy it (JSON types only, as ``plain``
    gives them: NaN and Infinity become text); None when it is no object."""
    if found is None or not isinstance(found.value, dict):
        return None
    return plain(found.value)


def _not_figures(copied: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    """The ``names`` that ``copied`` holds as something other than a figure (a string,
    null, a list, true, NaN, a negative or too large number): copied, they break the
    aggregator or skew its means."""
    return [name for name in names if name in copied and not_a_figure(copied[name])]


def _not_copied(run: Run, found: JsonFile | None, names: tuple[str, ...], code: str,
                instead: str) -> tuple[Problem, ...]:
    """The warning ``code`` naming the ``names`` of a side file's object that are not
    numbers, and what was done ``instead``; none when all are numbers."""
    copied = _copied(found)
    wrong = _not_figures(copied, names) if copied is not None else []
    if found is None or copied is None or not wrong:
        return ()
    shown = "; ".join(f"{name} is {cut(json.dumps(copied[name], ensure_ascii=False), 40)}, "
                      f"{not_a_figure(copied[name])}" for name in wrong)
    message = f"{shown}: {instead} (skill-creator's aggregator sums these fields)"
    return (Problem(code, join_report(run.id.rel, found.path), message),)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bounded(metrics: dict[str, Any]) -> dict[str, Any]:
    """``metrics`` with every tool name in ``tool_calls`` cut to a bounded length: the
    agent names its tools (and may write metrics.json), and a report copies them."""
    counts = metrics.get("tool_calls")
    if not isinstance(counts, dict) or all(len(name) <= DETAIL_LIMIT for name in counts):
        return metrics
    bounded: dict[str, Any] = {}
    for name, count in counts.items():
        key = cut(name, DETAIL_LIMIT)
        bounded[key] = count if key not in bounded else _sum(bounded[key], count)
    return {**metrics, "tool_calls": bounded}


def _sum(a: Any, b: Any) -> Any:
    return a + b if isinstance(a, int) and isinstance(b, int) else a


def computed_metrics(run: Run) -> dict[str, Any]:
    """Metrics in metrics.json's own field order, from the run's files.

    ``total_steps`` counts distinct step numbers over tool calls and notes (a
    transcript without step numbers counts one step per tool call);
    ``output_chars`` is the characters of the readable files the task produced;
    ``files_created`` lists them (the run's record files are not products);
    ``errors_encountered`` counts the calls whose status word says they failed.
    A count the run's files cannot give whole (a record cut or not read, a status
    that says neither, a folder of outputs not listed) is left out, and
    ``not_counted`` says which and why (``engine.facts.metrics_unread``).
    """
    transcript = run.transcript
    calls = transcript.calls
    per_tool: dict[str, int] = {}
    for call in calls:
        name = call.tool or "(unnamed)"
        per_tool[name] = per_tool.get(name, 0) + 1
    created = _product_chars(run)
    metrics = {
        "tool_calls": dict(sorted(per_tool.items())),
        "total_tool_calls": len(calls),
        "total_steps": _step_count(transcript),
        "files_created": list(created),
        "errors_encountered": sum(1 for call in calls if _failed(call)),
        "output_chars": sum(created.values()),
        "transcript_chars": len(run.transcript_file.text or "") if run.transcript_file else 0,
    }
    return _without(metrics, not_counted(run))


def _product_chars(run: Run) -> dict[str, int]:
    """The files the task produced (those under ``outputs/`` but the run's record files),
    each with its characters: the one reader of the products, for the metrics and for
    the warnings a grade that shows no metrics still gives."""
    return {name: _chars(run, name) for name in run.output_files() if name not in RUN_RECORD_FILES}


def _without(metrics: dict[str, Any], groups: list[dict[str, Any]]) -> dict[str, Any]:
    """``metrics`` without the fields ``groups`` name, and ``not_counted`` saying why."""
    if not groups:
        return metrics
    left_out = {name for group in groups for name in group["fields"]}
    return {**{k: v for k, v in metrics.items() if k not in left_out}, NOT_COUNTED: groups}


def _failed(call: ToolCall) -> bool:
    """Whether the call failed as the transcript reader reads its status word (``failed``
    and ``failure`` as much as ``error``): the count says what ``status error`` finds."""
    return status_words.meaning(call.status or "") == "error"


def _step_count(transcript: Transcript) -> int:
    items: tuple[ToolCall | Note, ...] = (*transcript.calls, *transcript.notes)
    steps = {item.step for item in items if item.step is not None}
    return len(steps) if steps else len(transcript.calls)


def _chars(run: Run, rel: str) -> int:
    if not run.exists_output(rel):
        return 0
    text = run.read_output(rel).text
    return len(text) if text is not None else 0
