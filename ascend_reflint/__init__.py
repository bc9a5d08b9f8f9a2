"""reflint: a linter for the git refs that build recipes pin."""

__version__ = "0.1.0"
