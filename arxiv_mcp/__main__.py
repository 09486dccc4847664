"""`python -m arxiv_mcp` runs the same command as `arxiv-mcp`."""

import sys

from .cli import main

sys.exit(main())
