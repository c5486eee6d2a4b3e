"""The ``--llm`` flags of ``referee grade``.

This module imports argparse and nothing of the adapter at load time: building
the parser must not pull the HTTP and parsing code into a deterministic run.
``judge_from_args`` imports the rest only when ``--llm`` is given.
"""

from __future__ import annotations

import argparse


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
                       help="environment variable holding the key (default OPENAI_API_KEY / "
                            "ANTHROPIC_API_KEY); not needed for local servers")
    group.add_argument("--llm-timeout", metavar="SECONDS", type=float, default=60.0,
                       help="per request (default 60)")
    group.add_argument("--llm-concurrency", metavar="N", type=int, default=4,
                       help="requests in flight at once (default 4)")
    group.add_argument("--llm-seed", metavar="N", type=int, default=0,
                       help="sent where the API supports it (OpenAI-compatible); default 0")
    group.add_argument("--llm-per-assertion", action="store_true",
                       help="one request per assertion instead of one per run")
    group.add_argument("--llm-price", metavar="IN,OUT", default=None, type=_price,
                       help="USD per million input,output tokens, to report cost")
    group.add_argument("--llm-note", metavar="TEXT", default="",
                       help="what produced a new cassette, written in its first line")


def judge_from_args(args: argparse.Namespace):
    """The judge the flags ask for, or None without ``--llm``.

    Raises ``ValueError`` with a one-line message for a bad configuration (unknown
    spec, missing key, missing cassette); the caller reports it as a usage error.
    """
    spec = getattr(args, "llm", None)
    if not spec:
        return None
    from llm_adapter.factory import make_judge

    return make_judge(
        spec,
        base_url=args.llm_base_url,
        api_key_env=args.llm_api_key_env,
        timeout=args.llm_timeout,
        concurrency=args.llm_concurrency,
        seed=args.llm_seed,
        inner=args.llm_backend,
        batch=not args.llm_per_assertion,
        price=args.llm_price,
        note=args.llm_note,
    )


def _price(text: str) -> tuple[float, float]:
    try:
        given, taken = (float(p) for p in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected IN,OUT such as 0.15,0.60") from None
    if given < 0 or taken < 0:
        raise argparse.ArgumentTypeError("prices cannot be negative")
    return given, taken
