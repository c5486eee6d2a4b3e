"""A release config (``--release-config FILE``, TOML) whose mode is not a name or
whose threshold is not a finite number is a usage error naming the file and the
key: TOML writes ``inf`` and ``nan``, arrays and tables, and none is a setting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import graded
from referee.engine.cli import main


@pytest.mark.parametrize("text, key", [
    ("[thresholds]\nmax_errors = inf\n", "thresholds.max_errors"),  # was OverflowError
    ("[thresholds]\nmax_not_graded = nan\n", "thresholds.max_not_graded"),  # was ValueError
    ("[thresholds]\nmin_pass_rate = inf\n", "thresholds.min_pass_rate"),  # was ValueError (Fraction)
    ("[thresholds]\nmin_delta = -inf\n", "thresholds.min_delta"),
    # accepted: no spread is above nan, so no eval was ever unstable
    ("[thresholds]\nmax_spread = nan\n", "thresholds.max_spread"),
    # a percentage where a share is meant: every run failed "below the 8000.0% required"
    ("[thresholds]\nmin_pass_rate = 80\n", "thresholds.min_pass_rate is a share from 0 to 1 (0.8 is 80 %), not 80"),
    ("[thresholds]\nmax_spread = 15.0\n", "thresholds.max_spread is a share from 0 to 1"),
    ("[thresholds]\nmin_delta = -1.5\n", "thresholds.min_delta must be a finite number of -1 or more"),
    ("[thresholds]\nmin_pass_rate = -0.1\n", "thresholds.min_pass_rate must be a finite number of 0 or more"),
    ("mode = [\"quick\"]\n", "mode must be one of"),  # was TypeError: unhashable type
    ("mode = {quick = 1}\n", "mode must be one of"),
])
def test_a_threshold_or_mode_that_is_no_setting_is_refused(tmp_path: Path, capsys, text: str, key: str):
    workspace = graded(tmp_path, {"with_skill": [["good", "good", "bad"]] * 2, "without_skill": [["bad"] * 3] * 2})
    config = tmp_path / "mine.toml"
    config.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["aggregate", str(workspace), "--primary", "with_skill", "--release-config", str(config)]) == 2
    err = capsys.readouterr().err
    assert key in err and "mine.toml" in err and "internal error" not in err
    assert not (workspace / "benchmark.json").exists()


@pytest.mark.parametrize("min_delta, holds", [("0.0", False), ("-0.05", False), ("-0.5", True)])
def test_a_negative_min_delta_accepts_a_drop_that_large(tmp_path: Path, capsys, min_delta: str, holds: bool):
    # the primary passes 2 of 3 in every run, the baseline 3 of 3: a drop of 33.3 points
    workspace = graded(tmp_path, {"with_skill": [["good", "good", "bad"]] * 3, "without_skill": [["good"] * 3] * 3})
    config = tmp_path / "mine.toml"
    config.write_text(f"[thresholds]\nmin_pass_rate = 0.5\nmin_delta = {min_delta}\n", encoding="utf-8")
    main(["aggregate", str(workspace), "--primary", "with_skill", "--release-config", str(config)])
    capsys.readouterr()
    release = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))["release"]
    delta = next(r for r in release["reasons"] if r["rule"] == "delta")
    assert delta["status"] == ("ok" if holds else "fail"), delta
    assert f"{float(min_delta) * 100:+.1f} required" in delta["message"]
