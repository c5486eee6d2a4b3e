"""``--llm-price IN,OUT`` takes finite prices only: a price of nan or inf (or one so
large that a cost overflows) made every run's grading.json unwritable after the
requests had been paid for. It is a usage error naming the flag, before anything is sent."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from llm_server import ScriptedServer, reading_judge

from referee.engine.cli import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "booking-skill"


@pytest.mark.parametrize("price", ["nan,1", "1,inf", "-inf,1", "1e308,1", "1,1e400"])
def test_a_price_that_is_not_a_finite_amount_is_a_usage_error(tmp_path, capsys, price):
    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", workspace)
    before = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file()}
    with ScriptedServer(default=reading_judge) as server:
        with pytest.raises(SystemExit) as stopped:
            main(["grade", str(workspace), "--rules", str(EXAMPLE / "booking.rules"),
                  "--evals", str(EXAMPLE / "evals" / "evals.json"), "--llm", "openai:m",
                  "--llm-base-url", server.url, "--llm-price", price])
        assert not server.requests
    assert stopped.value.code == 2
    assert "--llm-price" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file()} == before


def test_real_prices_are_taken():
    from referee.engine.commands.llm_flags import price

    assert price("0.15,0.60") == (0.15, 0.6) and price("0,0") == (0.0, 0.0) and price("75,150") == (75.0, 150.0)
