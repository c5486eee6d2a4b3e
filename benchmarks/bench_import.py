"""How fast ``referee import`` turns Claude Code sessions into run folders, against
``json.loads`` of the same lines.

Generates N sessions (default 1,000) of about 200 messages each (a prompt, then
rounds of assistant text, a tool call split over two lines and its result) in a
temporary folder, then measures in one process:
  (a) import every session (read, parse, render, write the run folder);
  (b) ``json.loads`` of every line of the same files (read included);
  (c) the import without writing (read, parse, render in memory).
Prints runs/s for (a) and (c) and their ratios to (b).
Run by hand: ``python benchmarks/bench_import.py [--sessions N] [--messages M]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine.run.importers import conversations, import_sources  # noqa: E402
from referee.engine.run.importers.writer import render_run  # noqa: E402


def session(n: int, messages: int) -> str:
    """One session JSONL of about ``messages`` records."""
    base = {"sessionId": f"s{n}", "cwd": "/home/bench/project", "version": "2.0.61", "isSidechain": False}
    lines = [dict(base, type="user", uuid="u0", message={"role": "user", "content": f"Task {n}: book a flight."})]
    step = 0
    while len(lines) < messages:
        mid, cid = f"msg_{step}", f"toolu_{step}"
        usage = {"input_tokens": 100 + step, "output_tokens": 20}
        lines.append(dict(base, type="assistant", uuid=f"a{step}", message={
            "id": mid, "role": "assistant", "usage": usage,
            "content": [{"type": "text", "text": f"Step {step}: searching fares for leg {step}."}]}))
        lines.append(dict(base, type="assistant", uuid=f"b{step}", message={
            "id": mid, "role": "assistant", "usage": usage,
            "content": [{"type": "tool_use", "id": cid, "name": "mcp__travel__searchFlights",
                         "input": {"origin": "ZRH", "destination": "LIS", "date": "2026-05-14", "leg": step}}]}))
        result = json.dumps({"flights": [{"flightId": f"LX{2080 + i}", "price_eur": 180 + i * 7} for i in range(4)]})
        lines.append(dict(base, type="user", uuid=f"r{step}", message={
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": cid, "content": result}]}))
        step += 1
    lines.append(dict(base, type="assistant", uuid="end", message={
        "id": "msg_end", "role": "assistant", "content": [{"type": "text", "text": "Booked LX2081."}]}))
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        sources = []
        for n in range(args.sessions):
            path = root / "src" / f"session-{n:05d}.jsonl"
            path.parent.mkdir(exist_ok=True)
            path.write_text(session(n, args.messages), encoding="utf-8")
            sources.append(path)
        lines = sum(p.read_text(encoding="utf-8").count("\n") for p in sources)

        start = time.perf_counter()
        for path in sources:
            for line in path.read_text(encoding="utf-8").split("\n"):
                if line:
                    json.loads(line)
        plain = time.perf_counter() - start

        start = time.perf_counter()
        rendered = [render_run(c) for c in conversations("claude-code", sources)]
        in_memory = time.perf_counter() - start

        start = time.perf_counter()
        written = import_sources("claude-code", sources, root / "ws").written
        imported = time.perf_counter() - start

    print(f"{len(written)} sessions, {lines} lines ({lines / len(sources):.0f} per session)")
    print(f"import:     {imported:.2f} s, {len(written) / imported:.0f} runs/s")
    print(f"json.loads: {plain:.2f} s, {len(sources) / plain:.0f} files/s")
    print(f"read, parse and render without writing: {in_memory:.2f} s, {len(rendered) / in_memory:.0f} runs/s, "
          f"{in_memory / plain:.1f}x json.loads")
    print(f"ratio import / json.loads: {imported / plain:.1f}x (each file is synced to disk, each run folder moved into place whole)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
