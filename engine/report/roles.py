"""Which configuration a report gates on (the primary), which it shows as the baseline,
and whether benchmark.json's release decision holds for those: ``collect`` asks here.
A configuration that is neither is context: shown, never counted by the gate."""

from __future__ import annotations

from typing import Any

from referee.engine.report.benchmark_file import BENCHMARK


class UnknownRole(ValueError):
    """A ``--primary`` or ``--baseline`` that names no configuration among the runs shown."""


def chosen(configs: list[str], primary: str | None, baseline: str | None,
           benchmark: dict[str, Any] | None) -> tuple[str | None, str | None]:
    """The primary and baseline among ``configs`` (the configurations shown, sorted): as
    given (a baseline left out is found as aggregate finds it: by the names, or the one
    other configuration), else as benchmark.json records them."""
    for given, flag in ((primary, "--primary"), (baseline, "--baseline")):
        if given is not None and given not in configs:
            raise UnknownRole(f"{flag} {given}: no such configuration among the runs shown "
                              f"({', '.join(configs)})")
    if primary is None and baseline is None and benchmark is not None:
        meta = benchmark.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        primary = meta.get("primary") if meta.get("primary") in configs else None
        baseline = meta.get("baseline") if primary and meta.get("baseline") in configs else None
    if primary is not None or baseline is not None:
        from referee.engine.decision.configurations import choose
        from referee.engine.usage import UsageError

        try:
            picked = choose(configs, primary, baseline)
        except UsageError:  # the names do not say which: only what was given
            return primary, baseline
        return picked.primary, picked.baseline
    return primary, baseline


def decided_with(benchmark: dict[str, Any] | None, primary: str | None, baseline: str | None,
                  problems: list[str]) -> dict[str, Any] | None:
    """``benchmark`` as it decides for the roles given (``--primary``, ``--baseline``): its
    release decision was made with the primary and baseline it records (``metadata``).
    A role given otherwise (``--primary without_skill``) gates on other runs, on which
    that decision says nothing: it could pass where they failed. Its release block is
    then left out (the decision is the gate's over the runs counted, as without
    benchmark.json), and a problem says so. A role not given is the one it records."""
    if benchmark is None or not isinstance(benchmark.get("release"), dict):
        return benchmark
    meta = benchmark.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    recorded_primary, recorded_baseline = meta.get("primary"), meta.get("baseline")
    if primary is not None and primary != recorded_primary:
        other = f"primary {recorded_primary}, not {primary}"
    elif baseline is not None and baseline != recorded_baseline:
        other = f"baseline {recorded_baseline}, not {baseline}"
    else:
        return benchmark
    problems.append(f"{BENCHMARK}'s release decision left out: it was decided with {other}; the decision is the "
                    "gate's over the runs counted")
    return {key: value for key, value in benchmark.items() if key != "release"}


def role(config: str, primary: str | None, baseline: str | None) -> str:
    if primary is None:
        return ""
    return "primary" if config == primary else "baseline" if config == baseline else "context"
