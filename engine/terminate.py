"""SIGTERM answered as Ctrl-C is: ``kill PID``, a CI job cancelled, a container
stopped.

Python's default for SIGTERM ends the process at once, with no ``finally`` run: a
grade stopped so while writing left its runs' temporary files behind, and a
merge stopped halfway left some reports rewritten and no record of it. Every
command already stops cleanly on Ctrl-C (nothing begun is cut short, see
``engine.report.write.ctrl_c_sets``), so SIGTERM does what Ctrl-C does at that
moment, whatever handler the command has set for it.

A worker process (``--jobs``) forked from this one inherits the handler; there it
ends the worker as the default would, since the pool ends its workers with
SIGTERM (``engine.pool._stop``) and the main process alone decides how to stop.
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Inside the ``with``, SIGTERM acts as Ctrl-C (only the main thread can set a
    handler; elsewhere nothing is changed)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    main = os.getpid()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: _as_ctrl_c(main, frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _as_ctrl_c(main: int, frame: Any) -> None:
    ctrl_c = signal.getsignal(signal.SIGINT)
    if os.getpid() == main and callable(ctrl_c):
        ctrl_c(signal.SIGINT, frame)
    elif os.getpid() != main or ctrl_c != signal.SIG_IGN:
        # A worker, or Ctrl-C left to the default (which ends the process): end as
        # SIGTERM's default does. Ctrl-C ignored (while workers start) ignores this too.
        end_on_sigterm()
        os.kill(os.getpid(), signal.SIGTERM)


def end_on_sigterm() -> None:
    """SIGTERM back to its default: a worker process's, whatever its parent set."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
