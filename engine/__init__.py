"""referee's engine: runs, compiled checks, verdicts and reports."""
