"""What the numbers mean, said without a model: plain sentences for ``notes``.

- assertions with the same verdict in every configuration (they cannot tell the
  skill from the baseline), and assertions whose pass rate differs between them;
- assertions graded in one configuration and in no run of another (a baseline graded
  without the LLM grader, a primary judged by one);
- evals whose runs disagree by more than the unstable spread;
- a delta that rests on fewer runs than the mode requires, or leaves out an eval one
  side has no runs of;
- runs left out: without a usable grading, or contaminated.
"""

from __future__ import annotations

from referee.engine.decision.analysis import Analysis, AssertionRow

GRADED = ("pass", "fail", "error")


def notes(analysis: Analysis) -> list[str]:
    """The notes in a fixed order: discrimination, stability, runs, exclusions."""
    found: list[str] = []
    found += _discrimination(analysis)
    found += _graded_on_one_side(analysis)
    found += _variance(analysis)
    found += _thin_delta(analysis)
    found += _delta_left_out(analysis)
    found += _left_out(analysis)
    return found


def assertion_rates(row: AssertionRow, config: str) -> tuple[int, int] | None:
    """(passed, graded) runs of one assertion in one configuration; None if never graded."""
    tally = row.outcomes.get(config, {})
    graded = sum(tally.get(o, 0) for o in GRADED)
    return (tally.get("pass", 0), graded) if graded else None


def discriminates(row: AssertionRow, configs: tuple[str, ...]) -> bool | None:
    """True when the assertion's pass rate differs between configurations; False when
    it is the same verdict in every run of every configuration; None when fewer than
    two configurations graded it, or when it is mixed within them but alike across."""
    rates = [assertion_rates(row, c) for c in configs]
    known = [r for r in rates if r is not None]
    if len(known) < 2:
        return None
    if all(p == 0 for p, _ in known) or all(p == n for p, n in known):
        return False
    fractions = {round(p / n, 4) for p, n in known}
    return True if len(fractions) > 1 else None


def _discrimination(analysis: Analysis) -> list[str]:
    """One note per eval for the assertions that separate the configurations, one
    for those that do not."""
    configs = analysis.choice.ordered
    if len(configs) < 2:
        return []
    out = []
    for eval_id in dict.fromkeys(row.eval_id for row in analysis.assertions):
        rows = [row for row in analysis.assertions if row.eval_id == eval_id]
        same = [row for row in rows if discriminates(row, configs) is False]
        apart = [row for row in rows if discriminates(row, configs) is True]
        if same:
            listed = "; ".join(f"{row.key} ({_short(row.text, 60)}) {_same_verdict(row, configs)}"
                               for row in same)
            out.append(f"eval {eval_id}: same verdict in every run of every configuration, so it does "
                       f"not discriminate: {listed}")
        if apart:
            listed = "; ".join(f"{row.key} " + " vs ".join(
                f"{p}/{n}" if n else "—" for c in configs for p, n in [assertion_rates(row, c) or (0, 0)])
                for row in apart)
            out.append(f"eval {eval_id}: assertions that separate the configurations (runs passed, "
                       f"{' vs '.join(configs)}): {listed}")
    return out


def _graded_on_one_side(analysis: Analysis) -> list[str]:
    """One note per eval for the assertions graded in some configuration's runs and in no
    run of another (a baseline graded without ``--llm`` against a primary judged by a
    model): the configurations' gates, and so the delta, cover different assertions."""
    configs = analysis.choice.ordered
    out = []
    for eval_id in dict.fromkeys(row.eval_id for row in analysis.assertions):
        listed = []
        for row in (r for r in analysis.assertions if r.eval_id == eval_id):
            graded = [c for c in configs if assertion_rates(row, c) is not None]
            ungraded = [c for c in configs if row.outcomes.get(c) and assertion_rates(row, c) is None]
            if graded and ungraded:
                listed.append(f"{row.key} ({_short(row.text, 60)}) graded in {', '.join(graded)}, not graded "
                              f"in any run of {', '.join(ungraded)}")
        if listed:
            out.append(f"eval {eval_id}: the configurations' gates cover different assertions, so their pass "
                       f"rates and the delta compare different checks: {'; '.join(listed)}")
    return out


def _same_verdict(row: AssertionRow, configs: tuple[str, ...]) -> str:
    """'passes' or 'fails', for an assertion with one verdict in every graded run."""
    rates = [r for r in (assertion_rates(row, c) for c in configs) if r is not None]
    return "passes" if rates[0][0] else "fails"


def _variance(analysis: Analysis) -> list[str]:
    out = []
    for row in analysis.evals:
        for config, found in row.stability.items():
            rates, spread = found.rates, found.spread
            if found.unstable and rates is not None and spread is not None:  # unstable has both
                out.append(f"eval {row.eval_id} is unstable in {config}: its runs' gated pass rates "
                           f"range from {rates.min:.0%} to {rates.max:.0%} "
                           f"(a {spread * 100:.0f}-point gap, above {found.threshold * 100:.0f})")
    return out


def _thin_delta(analysis: Analysis) -> list[str]:
    required = {row.eval_id: row for row in analysis.evals}
    # An eval the delta leaves out has no share of it (its own note says so).
    outside = {eval_id for eval_id, _ in analysis.delta.left_out} if analysis.delta is not None else set()
    out = []
    for eval_id, row in required.items():
        short = [f"{c} {s.runs}" for c, s in row.stability.items() if not s.enough_runs]
        if short:
            need = next(iter(row.stability.values())).required
            share = ("it is left out of the delta" if eval_id in outside
                     else "its share of the delta rests on too few runs")
            out.append(f"eval {eval_id} has fewer runs than {analysis.mode} mode requires ({need} per "
                       f"configuration): {', '.join(short)}; {share}")
    return out


def _delta_left_out(analysis: Analysis) -> list[str]:
    """Evals one side of a delta has no runs of: the delta is over the others alone."""
    return [f"eval {eval_id} has runs of {config} only, not of "
            f"{delta.baseline if config == delta.configuration else delta.configuration}: left out of the delta "
            f"of {delta.configuration} against {delta.baseline}"
            for delta in analysis.deltas for eval_id, config in delta.left_out]


def _left_out(analysis: Analysis) -> list[str]:
    out = [f"{u.path}: not counted: {u.reason}" for u in analysis.unusable]
    for path, found in sorted(analysis.contamination.items()):
        fate = "kept in the delta (--include-contaminated)" if analysis.include_contaminated \
            else "left out of the delta"
        out.append(f"{path}: contaminated, {fate}: {found[0].describe()}"
                   + (f" (and {len(found) - 1} more calls)" if len(found) > 1 else ""))
    return out


def _short(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
