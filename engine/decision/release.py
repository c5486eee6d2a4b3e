"""The release decision: PASS, CONDITIONAL PASS or FAIL, with every reason.

Thresholds come from a small TOML file: ``rules/release.toml`` holds the
documented defaults, and ``--release-config FILE`` overrides any of its keys.
Each rule is checked and reported with the numbers behind it; a rule broken
with ``on_breach = "fail"`` makes a FAIL, one with ``"conditional"`` at most a
CONDITIONAL PASS. Exit codes follow: 0 PASS, 1 FAIL, 3 CONDITIONAL PASS (its own
code, so CI can tell "ship with care" from "do not ship"; 2 is a usage error).
"""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction
from pathlib import Path
from typing import Sequence

from referee.dsl.frozen import frozen
from referee.dsl.named_file import read_named_text
from referee.engine.decision.analysis import Analysis, Delta
from referee.engine.decision.stability import MODES, Stability
from referee.engine.run.workspace import natural_key
from referee.engine.text import count
from referee.engine.tomlfile import NotToml, toml_table
from referee.engine.usage import UsageError

PASS, CONDITIONAL, FAIL = "PASS", "CONDITIONAL PASS", "FAIL"
EXIT_CODES = {PASS: 0, FAIL: 1, CONDITIONAL: 3}  # 2 is every command's usage or input error
RULES = ("pass_rate", "delta", "errors", "not_graded", "stability", "runs", "unusable_runs", "contaminated",
         "comparison", "eval_validity", "regression")  # the last three only when there is one to report
_THRESHOLDS = {"min_pass_rate": float, "min_delta": float, "max_errors": int, "max_not_graded": int,
               "max_spread": float}
# min_delta may be below 0: a drop the team accepts (-0.05 lets the primary's gated pass
# rate fall 5 points below the baseline's), as a skill that makes runs cheaper may.
_SIGNED = ("min_delta",)
DEFAULTS_FILE = Path(__file__).resolve().parents[2] / "rules" / "release.toml"


@frozen
class ReleaseConfig:
    mode: str
    thresholds: dict[str, float]
    on_breach: dict[str, str]
    source: str  # "release.toml@1a2b3c4d": the file's name and content hash


@frozen
class Reason:
    rule: str
    status: str  # "ok", "conditional" or "fail"
    message: str

    def as_dict(self) -> dict:
        return {"rule": self.rule, "status": self.status, "message": self.message}


@frozen
class Decision:
    verdict: str
    reasons: tuple[Reason, ...]
    config: ReleaseConfig

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    def as_dict(self) -> dict:
        return {"decision": self.verdict, "exit_code": self.exit_code, "config": self.config.source,
                "mode": self.config.mode, "thresholds": dict(self.config.thresholds),
                "reasons": [r.as_dict() for r in self.reasons],
                # With the thresholds, what ``referee report`` needs to make this decision
                # again from the grades (a file given with --release-config may be gone).
                "on_breach": dict(self.config.on_breach)}


def load_config(override: Path | None = None) -> ReleaseConfig:
    """The defaults, with ``override``'s keys on top; UsageError names the file and key."""
    base_text = _defaults_text()
    base = _parse(base_text, "rules/release.toml")
    source_text, shown = base_text, "release.toml"
    if override is not None:
        try:
            source_text = read_named_text(override, "utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the release config {override}: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
        shown = override.name
        _merge(base, _parse(source_text, str(override)), str(override))
    config = _validated(base, str(override) if override else "rules/release.toml")
    digest = hashlib.sha256(source_text.encode("utf-8")).hexdigest()[:8]
    return ReleaseConfig(config["mode"], config["thresholds"], config["on_breach"], f"{shown}@{digest}")


def recorded_config(release: dict) -> ReleaseConfig:
    """The release config a benchmark.json's ``release`` block records (mode,
    thresholds, on_breach, source); UsageError says what is missing or wrong."""
    missing = [key for key, kind in (("mode", str), ("thresholds", dict), ("on_breach", dict))
               if not isinstance(release.get(key), kind)]
    if missing:
        raise UsageError(f"its release block records no {' and no '.join(missing)}")
    config = _validated({key: release.get(key) for key in ("mode", "thresholds", "on_breach")}, "its release block")
    source = release.get("config")
    return ReleaseConfig(config["mode"], config["thresholds"], config["on_breach"],
                         source if isinstance(source, str) else "")


def _defaults_text() -> str:
    # rules/release.toml is package data of ``referee``: there in a checkout and in a wheel.
    return DEFAULTS_FILE.read_text(encoding="utf-8")


def _parse(text: str, shown: str) -> dict:
    try:
        return toml_table(text)
    except NotToml as exc:
        raise UsageError(f"{shown}: {exc}") from None


def _merge(base: dict, extra: dict, shown: str) -> None:
    for key, value in extra.items():
        if key not in base:
            raise UsageError(f"{shown}: unknown key {key!r}; known: {', '.join(sorted(base))}")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise UsageError(f"{shown}: [{key}] must be a table")
            for inner in value:
                if inner not in base[key]:
                    raise UsageError(f"{shown}: unknown key {key}.{inner}; known: {', '.join(sorted(base[key]))}")
            base[key].update(value)
        else:
            base[key] = value


def _validated(config: dict, shown: str) -> dict:
    mode = config.get("mode")
    if not isinstance(mode, str) or mode not in MODES:  # a TOML array or table is no name (nor hashable)
        raise UsageError(f"{shown}: mode must be one of {', '.join(MODES)}, not {mode!r}")
    thresholds = {}
    for key, kind in _THRESHOLDS.items():
        value = config["thresholds"].get(key)
        # TOML writes inf and nan: no threshold can be infinite, and every comparison
        # with nan is false, so max_spread = nan would find no eval unstable.
        least = -1 if key in _SIGNED else 0
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or (isinstance(value, float) and not math.isfinite(value)) or value < least \
                or (kind is int and value != int(value)):
            raise UsageError(f"{shown}: thresholds.{key} must be a finite number of {least} or more"
                             + (" (a whole number)" if kind is int else "") + f", not {value!r}")
        if kind is float and value > 1:
            # a share of assertions, not a percentage: min_pass_rate = 80 would fail every run
            raise UsageError(f"{shown}: thresholds.{key} is a share from {least} to 1 (0.8 is 80 %), not {value!r}")
        thresholds[key] = kind(value)
    on_breach = {}
    for rule in RULES:
        value = config["on_breach"].get(rule)
        if value not in ("fail", "conditional"):
            raise UsageError(f"{shown}: on_breach.{rule} must be \"fail\" or \"conditional\", not {value!r}")
        on_breach[rule] = value
    return {"mode": config["mode"], "thresholds": thresholds, "on_breach": on_breach}


def decide(analysis: Analysis, config: ReleaseConfig, extra: Sequence[Reason] = ()) -> Decision:
    """Check every rule on the analysis; the worst breach sets the verdict. ``extra``
    are reasons decided elsewhere (``engine.compare.reasons``: a comparison, the
    evals' validity, a regression against a blessed baseline), judged the same way."""
    reasons = tuple(check(analysis, config.thresholds) for check in _CHECKS) + tuple(extra)
    breached = [config.on_breach[r.rule] for r in reasons if r.status != "ok"]
    verdict = FAIL if "fail" in breached else CONDITIONAL if breached else PASS
    reasons = tuple(r if r.status == "ok" else Reason(r.rule, config.on_breach[r.rule], r.message)
                    for r in reasons)
    return Decision(verdict, reasons, config)


def _pass_rate(a: Analysis, t: dict) -> Reason:
    primary = a.choice.primary
    found = a.summaries[primary].metrics["pass_rate"]
    mean = _gated_mean(a, primary)
    if found is None or mean is None:
        return Reason("pass_rate", "breach", f"{primary}: nothing counted toward the gate in any run; "
                                              "there is no pass rate to judge")
    # Judged exactly, on the runs' counts: runs at 2/5, 1 and 1 average to 0.8, which a
    # float sum gives as 0.7999999999999999, and a mean of 0.79996 is below 0.8 although
    # benchmark.json's 4 digits write it 0.8.
    need = _exact(t["min_pass_rate"])
    ok = mean >= need
    return Reason("pass_rate", "ok" if ok else "breach",
                  f"{primary}: gated pass rate {_shown(mean, need, '{:.%df}%%')} (mean of "
                  f"{count(found.n, 'run')}), {'at least' if ok else 'below'} the {t['min_pass_rate']:.1%} required")


def _delta(a: Analysis, t: dict) -> Reason:
    delta = a.delta
    if delta is None:
        return Reason("delta", "ok", f"one configuration ({a.choice.primary}): no baseline, no delta")
    if not delta.evals:
        return Reason("delta", "breach", f"{delta.configuration} against {delta.baseline}: no eval has runs of "
                                         f"both, so there is no delta{_left_out(delta)}")
    mine = _gated_mean(a, delta.configuration, evals=delta.evals)
    theirs = _gated_mean(a, delta.baseline, evals=delta.evals)
    if delta.values["pass_rate"] is None or mine is None or theirs is None:
        return Reason("delta", "breach", f"{delta.configuration} against {delta.baseline}: a side has no "
                                         "gated pass rate, so there is no delta")
    need = _exact(t["min_delta"])
    ok = mine - theirs >= need
    said = (f"{delta.configuration} minus {delta.baseline}: {_shown(mine - theirs, need, '{:+.%df}')} points of "
            f"gated pass rate ({delta.runs[0]} against {count(delta.runs[1], 'run')}), "
            f"{'at least' if ok else 'below'} the {t['min_delta'] * 100:+.1f} required{_left_out(delta)}")
    errors = sum(r.gate_errors for r in _gated_runs(a, delta.baseline, delta.evals))
    if not ok or not errors:
        return Reason("delta", "ok" if ok else "breach", said)
    # An errored assertion of the baseline is counted as failed, which raises the delta
    # by what referee could not read: the rule holds only if it holds were they passes.
    best = _gated_mean(a, delta.baseline, errors_passed=True, evals=delta.evals)
    worst = mine - (theirs if best is None else best)  # never None: the baseline has gated runs
    holds = worst >= need
    return Reason("delta", "ok" if holds else "breach",
                  f"{said}; {delta.baseline} has {count(errors, 'errored assertion')} counted in its gate, and "
                  f"were they passes the delta would be {_shown(worst, need, '{:+.%df}')} points"
                  + ("" if holds else ": the delta is not shown"))


def _left_out(delta: Delta) -> str:
    """The evals the delta leaves out, as ``; left out: eval 2 (without_skill only)``."""
    if not delta.left_out:
        return ""
    return "; left out: " + ", ".join(f"eval {eval_id} ({config} only)" for eval_id, config in delta.left_out)


def _gated_runs(a: Analysis, config: str, evals: Sequence[str] | None = None) -> list:
    """The runs of ``config`` its summary counts that have a gated pass rate (of
    ``evals`` alone when given: a delta's)."""
    return [r for r in a.runs if r.configuration == config and a.counts(r) and r.gate_total
            and (evals is None or r.eval_id in evals)]


def _gated_mean(a: Analysis, config: str, errors_passed: bool = False,
                evals: Sequence[str] | None = None) -> Fraction | None:
    """The mean gated pass rate of ``config``'s runs (of ``evals`` alone when given),
    exactly; with ``errors_passed``, its errored gated assertions taken as passes. None
    when no run has a gate."""
    mine = _gated_runs(a, config, evals)
    if not mine:
        return None
    extra = (lambda r: r.gate_errors) if errors_passed else (lambda r: 0)
    return sum((Fraction(r.gate_passed + extra(r), r.gate_total) for r in mine), Fraction(0)) / len(mine)


def _exact(threshold: float) -> Fraction:
    """A threshold as the decimal written in the release config (0.8 is 4/5)."""
    return Fraction(repr(threshold))


def _shown(value: Fraction, threshold: Fraction, form: str) -> str:
    """``value`` in points (percent) with one decimal, or as many more (up to 6) as it
    takes not to read as ``threshold`` when it is not the threshold."""
    def number(x: Fraction, digits: int) -> float:  # "-0.0" reads as 0.0, as the threshold "+0.0" does
        return float((form % digits).rstrip("%").format(float(x) * 100))

    digits = 1
    while digits < 6 and value != threshold and number(value, digits) == number(threshold, digits):
        digits += 1
    return (form % digits).format(float(value) * 100)


def _count_rule(rule: str, field: str, limit_key: str, what: str):
    def check(a: Analysis, t: dict) -> Reason:
        primary = a.choice.primary
        mine = [r for r in a.runs if r.configuration == primary and a.counts(r)]
        total = sum(getattr(r, field) for r in mine)
        runs = sum(1 for r in mine if getattr(r, field))
        limit = int(t[limit_key])
        status = "ok" if total <= limit else "breach"
        return Reason(rule, status, f"{primary}: {total} {what} in {runs} of {count(len(mine), 'run')} "
                                    f"(at most {limit} allowed)")
    return check


def _stability(a: Analysis, t: dict) -> Reason:
    primary = a.choice.primary
    unstable = [(row.eval_id, s.runs, spread) for row in a.evals
                if (s := row.stability.get(primary)) is not None and s.unstable
                and (spread := s.spread) is not None]  # an unstable eval has a spread
    if not unstable:
        return Reason("stability", "ok", f"{primary}: no eval's runs differ by more than "
                                         f"{t['max_spread'] * 100:.0f} points")
    listed = "; ".join(f"eval {e} spread {spread * 100:.0f} points over {count(runs, 'run')}"
                       for e, runs, spread in unstable)
    return Reason("stability", "breach", f"{primary}: unstable ({listed}; above {t['max_spread'] * 100:.0f})")


def _runs(a: Analysis, t: dict) -> Reason:
    need = MODES[a.mode]
    # An eval with no counted run of a side has no stability row for it: 0 runs, not enough.
    # Only runs whose gate counted something are runs of the eval: one that counted
    # nothing (existence checks alone, semantic ones not graded) says nothing of it, so
    # an eval whose runs all counted nothing has none, never enough.
    roles = [c for c in (a.choice.primary, a.choice.baseline) if c is not None]
    short = [_short_of(row.eval_id, c, row.stability.get(c)) for row in a.evals for c in roles
             if _gated_runs_of(row.stability.get(c)) < need]
    if not short:
        return Reason("runs", "ok", f"every eval has at least {need} runs per configuration ({a.mode} mode)")
    return Reason("runs", "breach", f"{a.mode} mode needs {need} runs per eval and configuration: "
                                    + "; ".join(short))


def _gated_runs_of(found: Stability | None) -> int:
    """The runs of one eval and configuration whose gate counted something."""
    return 0 if found is None or found.rates is None else found.rates.n


def _short_of(eval_id: str, config: str, found: Stability | None) -> str:
    gated = _gated_runs_of(found)
    said = f"eval {eval_id} {config} {gated}"
    if found is not None and found.runs > gated:
        said += f" ({found.runs - gated} of its {count(found.runs, 'run')} counted nothing in the gate)"
    return said


def _unusable(a: Analysis, t: dict) -> Reason:
    unread = _read_in_part(a)
    if not a.unusable and not unread:
        return Reason("unusable_runs", "ok", "every run found has a grading.json written by referee")
    said = [] if not a.unusable else [
        f"{len(a.unusable)} run(s) not counted: " + "; ".join(f"{u.path} ({_short(u.reason)})" for u in a.unusable[:5])
        + ("; ..." if len(a.unusable) > 5 else "")]
    return Reason("unusable_runs", "breach", "; ".join(said + ([unread] if unread else [])))


def _read_in_part(a: Analysis) -> str:
    """What says that runs of the primary or the baseline counted in the decision were
    read only in part (``engine.decision.unread``): a check no rule wrote may fail in
    what was not read, so they make no clean PASS; "" when every one was read whole."""
    roles = {c for c in (a.choice.primary, a.choice.baseline) if c is not None}
    runs = [r for r in a.runs if r.configuration in roles and a.counts(r) and r.unread]
    if not runs:
        return ""
    return (f"{count(len(runs), 'counted run')} read only in part, so not a clean pass: "
            + "; ".join(f"{r.path} ({r.unread})" for r in runs[:5]) + ("; ..." if len(runs) > 5 else ""))


def _short(reason: str) -> str:
    """A reason up to its first colon; and up to its first aside when the colon stands
    inside one ("not readable JSON (not JSON (JSONDecodeError: ..."), whose brackets
    would be left open."""
    head = reason.split(":")[0]
    return head.split(" (")[0] if head.count("(") != head.count(")") else head


def _contaminated(a: Analysis, t: dict) -> Reason:
    unchecked = _unchecked(a)
    if not a.contamination and not unchecked:
        return Reason("contaminated", "ok", "no run read the skill under test or another configuration's folder")
    if not a.contamination:
        return Reason("contaminated", "breach", unchecked[0].upper() + unchecked[1:])
    fate = "kept (--include-contaminated)" if a.include_contaminated else "left out of the delta"
    return Reason("contaminated", "breach", f"{len(a.contamination)} run(s) contaminated, {fate}: "
                  + ", ".join(sorted(a.contamination)[:5]) + (f"; {unchecked}" if unchecked else ""))


def _unchecked(a: Analysis) -> str:
    """What says that runs were not shown clean (their calls may be incomplete: a call
    not read may be the read of the skill), or "" when every clean run was."""
    if not a.unchecked:
        return ""
    paths = sorted(a.unchecked, key=natural_key)
    return (f"{len(paths)} run(s) not shown clean, their calls may be incomplete: "
            + ", ".join(f"{path} ({a.unchecked[path]})" for path in paths[:5]) + ("; ..." if len(paths) > 5 else ""))


_CHECKS = (
    _pass_rate, _delta,
    _count_rule("errors", "gate_errors", "max_errors", "errored assertions counted in the gate"),
    _count_rule("not_graded", "not_graded", "max_not_graded", "semantic assertions not graded"),
    _stability, _runs, _unusable, _contaminated,
)
