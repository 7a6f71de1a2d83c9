"""``python -m spansplit``: the command line."""

from .cli import main

raise SystemExit(main())
