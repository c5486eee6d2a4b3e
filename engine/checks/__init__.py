"""Compiled checks: one protocol, one evaluate(ctx) -> Verdict per check."""
