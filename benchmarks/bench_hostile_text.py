"""How the time of a grade grows with text that repeats one piece: runs whose response,
agent notes and tool return hold a piece (a digit, "<", a line break, "<div>" and a
line break ...) repeated N times and 4N times, graded in process with rules that read
every part of a text (words, numbers, sections, lines, quotes, notes, claims). A
reading whose time grows with the square of its text takes about 16 times as long
for 4 times the text; one that reads it once, about 4 times. The baseline, measured
in the same run, is the growth of plain words ("a "). Run by hand:

    python benchmarks/bench_hostile_text.py                 # N = 4,000
    python benchmarks/bench_hostile_text.py --size 10000 --pieces '<' '9'
"""

from __future__ import annotations

import argparse
import time

import referee
from referee.engine.run.memory import memory_run

RULES = """eval 1
expect 1: response contains "zz-not-there"
expect 2: no calls to "Bash"
expect 3: length(words(response)) <= 100000000
expect 4: count(numbers(response)) >= 0
expect 5: not (section(response, "Summary") contains "x")
expect 6: count(lines(response) where . starts with "- ") >= 0
expect 7: not notes contains "zz-not-there"
expect 8: response matches /zz[0-9]+/
expect 9: count(quotes(response)) >= 0
expect 10: all calls have .status == "success"
expect 11: no calls have .return contains "zz-not-there"
expect 12: not (trim(section(response, "Status")) == "Done")
"""
BASELINE = "a "
PIECES = ["9", "a.b", "ab/", " ", "@a", ":a", "#", "GH-", "\\", "`", "*", "<", "&", "www.", "http:", "[",
          "1,", "1 ", "12,50 ", "- ", "# ", "> ", "<!--", "**", "0x", "\u200b", "１", ",5", "<h2>", "<p>",
          "\n", "\n\n", "\r\n", "a\n", "```\n", "- a\n", "    a\n", "1. a\n", "<div>\n", "| a |\n", "\\\n"]
# Known to grow faster than the text, and why: none now (``<div>`` lines were, until the
# text == compares was built once per run of blanks, not once per hidden place).
KNOWN: dict[str, str] = {}


def files(piece: str, count: int) -> dict[str, str]:
    """A run whose texts hold ``piece`` ``count`` times."""
    text = piece * count
    return {
        "outputs/transcript.md": (
            "## Eval Prompt\n\nDo it.\n\n## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"p\": 1}\n"
            f"Return: {text.replace(chr(10), ' ')}\nStatus: success\n\n## [agent_notes] Step 1: notes\n{text}\n\n"
            f"## Final Result\n\n{text}\n"),
        "outputs/response.md": f"# Summary\n\n{text}\n## Status\n{text}\n",
        "outputs/user_notes.md": f"## Uncertainties\n- {text}\n",
    }


def seconds(program: referee.Program, piece: str, count: int, repeat: int) -> float:
    """The least CPU time of ``repeat`` grades of such a run."""
    best = float("inf")
    for _ in range(repeat):
        run = memory_run(files(piece, count))
        began = time.process_time()
        referee.grade(program, [run])
        best = min(best, time.process_time() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=4000, help="N, the smaller count of the piece")
    parser.add_argument("--repeat", type=int, default=2, help="grades of each size; the least CPU is kept")
    parser.add_argument("--pieces", nargs="*", help="the pieces to repeat (default: a list of hostile ones)")
    args = parser.parse_args()
    program = referee.compile(RULES)
    base = seconds(program, BASELINE, 4 * args.size, args.repeat) / max(seconds(program, BASELINE, args.size,
                                                                                 args.repeat), 1e-6)
    print(f"baseline {BASELINE!r}: 4x the text takes {base:.1f}x the CPU")
    print(f"{'piece':>12}  {'N':>8}  {'4N':>8}  growth  ÷ baseline")
    for piece in args.pieces or PIECES:
        small = seconds(program, piece, args.size, args.repeat)
        large = seconds(program, piece, 4 * args.size, args.repeat)
        growth = large / max(small, 1e-6)
        mark = f"  faster than the text: {KNOWN.get(piece, 'unknown')}" if growth > 1.5 * base else ""
        print(f"{piece!r:>12}  {small:7.3f}s  {large:7.3f}s  {growth:5.1f}x  {growth / base:5.2f}{mark}")


if __name__ == "__main__":
    main()
