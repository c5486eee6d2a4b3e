"""``python -m referee``: the ``referee`` command, for an environment without its script."""

import sys

from referee.engine.entry import main

sys.exit(main())
