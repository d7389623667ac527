"""`python -m symphony` is the `symphony` command."""
import sys

from symphony.cli import main

sys.exit(main())
