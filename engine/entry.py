"""The ``referee`` command's first code: a Ctrl-C while the command loads is no traceback.

Loading the command line (argparse and the rest) takes a moment, longest on a
loaded machine; a Ctrl-C then used to end in Python's traceback of the import.
The console script and ``python -m referee`` start here, where nothing is
imported yet that could be interrupted, and load the command inside the handler.
"""

import sys


def main() -> int:
    """Load and run the command line; a Ctrl-C while loading exits 130, saying so."""
    try:
        from referee.engine.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("referee: interrupted; nothing was done\n")
        return 130
    return command()
