"""Grading a workspace in shards, and merging them back into one grade.

``referee grade WORKSPACE --shard i/n`` grades the runs whose identity falls in
shard i (``part``), writes their reports as any grade does, and a manifest
``shard-i-of-n.json`` that says what it graded, with what, and what it wrote
(``manifest``). ``referee merge WORKSPACE`` checks the manifests against each
other and against the workspace (``verify``), then gives every run the eval
critique made from all the shards' runs (``merge``): the result is byte for
byte the grade one process would have made. ``aggregate`` and ``report`` check
the same before they read a sharded workspace.
"""
