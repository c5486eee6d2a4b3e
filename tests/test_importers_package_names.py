"""No name the importers package exports is also one of its submodules' names.

Importing a submodule sets the package's attribute of that name to the module, so a
function exported under a submodule's name (``detect`` beside ``detect.py``) would
turn into a module, not callable, as soon as anything loaded that submodule.
"""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, pkgutil, types
import referee.engine.run.importers as package
names = [m.name for m in pkgutil.iter_modules(package.__path__)]
print(json.dumps(sorted(n for n in names if not isinstance(getattr(package, n, package), types.ModuleType))))
"""


def test_no_name_of_the_importers_package_is_also_a_submodule():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []
