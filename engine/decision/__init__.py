"""From graded runs to a decision: benchmark, stability, contamination, release gate.

``collect`` reads what ``referee grade`` wrote; ``contamination`` looks at the
baseline runs' tool calls; ``stability`` and ``benchmark`` compute the numbers;
``notes`` and ``release`` say what they mean; ``markdown`` renders benchmark.md.
Nothing here calls a model, and every result depends on the runs alone, never on
the order in which they were found.
"""
