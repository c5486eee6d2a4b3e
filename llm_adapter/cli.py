"""Turn the ``--llm`` flags of ``referee grade`` into a judge.

The flags themselves are defined in ``engine.commands.llm_flags``, so that a
deterministic ``referee grade`` never imports this package; this module does not
import them back (the engine depends on nothing here). ``judge_from_args`` is what
the command imports, lazily, once ``--llm`` is given; it imports the rest of the
adapter only then.
"""

from __future__ import annotations

import argparse

__all__ = ["judge_from_args"]


def judge_from_args(args: argparse.Namespace):
    """The judge the flags ask for, or None without ``--llm``.

    Raises ``ValueError`` with a one-line message for a bad configuration (unknown
    spec, missing key, missing cassette); the caller reports it as a usage error.
    """
    spec = getattr(args, "llm", None)
    if not spec:
        return None
    if getattr(args, "llm_batch_export", None) or getattr(args, "llm_batch_import", None):
        from referee.llm_adapter.batch import batch_judge

        return batch_judge(spec, inner=args.llm_backend, seed=args.llm_seed,
                           export=bool(args.llm_batch_export), imported=list(args.llm_batch_import or ()),
                           batch=not args.llm_per_assertion, price=args.llm_price, note=args.llm_note)
    from referee.llm_adapter.factory import make_judge

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
