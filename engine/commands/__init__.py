"""One module per ``referee`` subcommand; each exposes ``add_parser`` and ``run``."""
