"""The ``--llm`` flags of ``referee grade``, as plain argparse.

They live in the engine, not in ``llm_adapter``, so that building the parser of a
deterministic ``referee grade`` imports nothing of the adapter: the adapter is
imported only when ``--llm`` is given (``engine.commands.grade._judge``).
"""

from __future__ import annotations

import argparse

from referee.engine.commands.arguments import given_name
from referee.engine.usage import UsageError


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the grader flags to ``parser`` (an argument group, all optional)."""
    group = parser.add_argument_group(
        "LLM grader (semantic assertions only; see docs/llm.md)")
    group.add_argument("--llm", metavar="SPEC", default=None,
                       help="openai:MODEL, anthropic:MODEL, replay:CASSETTE, record:CASSETTE "
                            "or auto:CASSETTE; without it semantic assertions are not graded")
    group.add_argument("--llm-backend", metavar="SPEC", default=None,
                       help="the model a record:/auto: cassette asks "
                            "(openai:MODEL or anthropic:MODEL)")
    group.add_argument("--llm-base-url", metavar="URL", default=None,
                       help="OpenAI-compatible or Anthropic endpoint (default: OPENAI_BASE_URL / "
                            "ANTHROPIC_BASE_URL, else the provider's)")
    group.add_argument("--llm-api-key-env", metavar="NAME", default=None,
                       help="the NAME of the environment variable holding the key (default "
                            "OPENAI_API_KEY / ANTHROPIC_API_KEY, sent only to the provider's "
                            "endpoint); another --llm-base-url gets a key only when this names "
                            "its variable")
    group.add_argument("--llm-timeout", metavar="SECONDS", type=float, default=60.0,
                       help="deadline for each whole HTTP request, from connecting to the last "
                            "byte of the reply (default 60)")
    group.add_argument("--llm-concurrency", metavar="N", type=int, default=4,
                       help="requests in flight at once (default 4)")
    group.add_argument("--llm-seed", metavar="N", type=int, default=0,
                       help="sent where the API supports it (OpenAI-compatible); default 0")
    group.add_argument("--llm-per-assertion", action="store_true",
                       help="one request per assertion instead of one per run")
    group.add_argument("--llm-price", metavar="IN,OUT", default=None, type=price,
                       help="USD per million input,output tokens, to report cost")
    group.add_argument("--llm-note", metavar="TEXT", default="",
                       help="what produced a new cassette, written in its first line")
    group.add_argument("--llm-batch-export", type=given_name, metavar="FILE", default=None,
                       help="send nothing: write the judge requests (those the cassette lacks) to FILE "
                            "as a provider batch (OpenAI or Anthropic, as the model's), and no report")
    group.add_argument("--llm-batch-import", type=given_name, metavar="FILE", nargs="+", action="extend",
                       default=[],
                       help="the batch's result files: each is checked and its replies go into the "
                            "cassette of --llm replay:PATH, which grading then replays")


def refuse_writes_under_check(args: argparse.Namespace) -> None:
    """A usage error, naming both flags, when ``--check`` is given with a grader flag
    that writes a file: ``--check`` promises that nothing is written, and a CI job that
    checks must not ask a model and change the cassette it was given. Called before the
    grader is built, so nothing (not a folder) is made. ``replay:`` writes nothing."""
    if not getattr(args, "check", False):
        return
    kind, _, _ = (args.llm or "").partition(":")
    kind = kind.strip().lower()
    if kind in ("record", "auto"):
        raise UsageError(f"--check writes nothing, and --llm {kind}:PATH writes the cassette: grade with "
                         "--llm replay:PATH to check against it, or leave out --check to record")
    for flag, value in (("--llm-batch-export", args.llm_batch_export), ("--llm-batch-import", args.llm_batch_import)):
        if value:
            raise UsageError(f"--check writes nothing, and {flag} writes "
                             f"{'its FILE' if flag.endswith('export') else 'the cassette of --llm replay:PATH'}: "
                             "leave out --check")


MAX_PRICE = 1_000_000.0  # USD per million tokens: far above any model's, far below overflowing a cost


def price(text: str) -> tuple[float, float]:
    """``IN,OUT`` USD per million tokens; a usage error when malformed, negative, not a
    finite amount (nan, inf) or so large that a cost would overflow: grading.json holds
    the cost as a JSON number, which nan and inf are not, so such a price would let the
    grade ask (and pay for) every request, then write no report."""
    try:
        given, taken = (float(p) for p in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected IN,OUT such as 0.15,0.60") from None
    if given < 0 or taken < 0:
        raise argparse.ArgumentTypeError("prices cannot be negative")
    if not (given <= MAX_PRICE and taken <= MAX_PRICE):  # nan compares false
        raise argparse.ArgumentTypeError(f"prices must be numbers from 0 to {MAX_PRICE:,.0f}, got {text!r}")
    return given, taken
