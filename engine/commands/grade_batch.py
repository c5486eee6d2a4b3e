"""``referee grade --llm-batch-export`` / ``--llm-batch-import``: what the command does
around grading (``llm_adapter.batch`` does the rest, loaded only with these flags)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from referee.engine.commands.warnings import warn
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.llm_adapter.judge import LLMJudge


def check_flags(args: argparse.Namespace) -> None:
    """The batch flags need a grader; an export writes no report (as ``--check``)."""
    if (args.llm_batch_export or args.llm_batch_import) and not args.llm:
        raise UsageError("--llm-batch-export and --llm-batch-import need --llm: openai:MODEL or "
                         "anthropic:MODEL, or a cassette with --llm-backend (see docs/llm.md)")
    if args.llm_batch_export:
        args.check = True  # the semantic assertions wait for the batch: no report is final


def export_requests(args: argparse.Namespace, judge: LLMJudge) -> int:
    """Write the requests the grade collected to the file the user named."""
    from pathlib import Path

    from referee.engine.report.atomic import write_output
    from referee.llm_adapter.batch import exported

    exporter = exported(judge)
    assert exporter is not None  # --llm-batch-export always builds one
    target = Path(args.llm_batch_export)
    try:
        write_output(target, exporter.text())
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    count = len(exporter.lines)
    print(f"wrote {count} judge request{'s' if count != 1 else ''} to {target.as_posix()} as "
          f"{_KINDS[exporter.name]}; nothing else was written. Send it, then grade again with "
          "--llm-batch-import RESULTS", file=sys.stderr)
    return 0


_KINDS = {"openai": "an OpenAI batch input file", "anthropic": "Anthropic Message Batches requests"}


def unused_results(args: argparse.Namespace, judge) -> None:
    """After an import: the batch's replies that answered no request of this grade."""
    if not args.llm_batch_import:
        return
    backend = judge.backend
    unused = len(set(backend.entries) - backend.asked)
    if unused and args.shard is None:
        warn(f"{unused} replies in the cassette answered no request of this grade (another batch's, or "
             "runs not graded here); they are kept and never used")
