"""referee's engine: runs, compiled checks, verdicts and reports."""

# The one place the version is written: pyproject.toml reads it, and reports quote
# it, so a report is the same whether referee runs installed or from a checkout.
__version__ = "0.1.0"
