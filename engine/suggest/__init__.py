"""Draft rules from the plain sentences of evals.json, with patterns kept as data."""
