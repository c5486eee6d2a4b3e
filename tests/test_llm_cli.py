"""The --llm flags: declared by the engine (engine.commands.llm_flags), turned into a
judge by llm_adapter.cli."""

from __future__ import annotations

import argparse

import pytest
from llm_server import ScriptedServer, reading_judge

from referee.engine.commands.llm_flags import add_llm_arguments
from referee.llm_adapter.cli import judge_from_args
from referee.llm_adapter.judge import LLMJudge


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_llm_arguments(parser)
    return parser.parse_args(list(argv))


def test_without_llm_there_is_no_judge():
    assert judge_from_args(parse()) is None


def test_flags_reach_the_judge(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        args = parse("--llm", f"record:{cassette}", "--llm-backend", "openai:m",
                     "--llm-base-url", server.url, "--llm-timeout", "3", "--llm-concurrency", "2",
                     "--llm-seed", "5", "--llm-per-assertion", "--llm-price", "0.5,1.5",
                     "--llm-note", "scripted")
        judge = judge_from_args(args)
    assert isinstance(judge, LLMJudge)
    assert not judge.batch and judge.price_per_million == (0.5, 1.5)
    inner = judge.backend.inner
    assert inner.seed == 5 and inner.transport.timeout == 3 and inner.transport.concurrency == 2
    assert judge.backend.meta["judge"] == "scripted"


@pytest.mark.parametrize("price", ["1", "a,b", "-1,2"])
def test_bad_price_is_a_usage_error(price):
    with pytest.raises(SystemExit):
        parse("--llm-price", price)


def test_bad_spec_is_a_value_error():
    with pytest.raises(ValueError, match="bad grader spec"):
        judge_from_args(parse("--llm", "gpt-4o"))


def test_model_names_may_contain_colons(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = judge_from_args(parse("--llm", "openai:llama3.1:8b",
                                  "--llm-base-url", "http://127.0.0.1:9/v1"))
    assert judge.backend.model == "llama3.1:8b"
