"""Allow ``python -m ascend_reflint``."""

import sys

from ascend_reflint.cli import run

sys.exit(run())
