"""The CPU time that the shell parses of one file may take (a leaf module: the dispatcher sets a file's
budget without importing the shell parser).

tree-sitter-bash's error recovery is quadratic in the length of what it recovers from: 64,000 ``)`` in one
command take it 18 s, a megabyte over an hour, and no other limit of the scan (file size, nesting) stops
that. So each file gets a budget, shared by all its shell texts (every ``RUN``, ``run:`` block, recipe line
and nested ``bash -c`` script), about ten times what real scripts take (some 0.3 µs a byte): a file written
to be slow is given up on, and the scan goes on with the next one. What such a file gives depends on the
machine's speed and load, so it is never kept in the extraction cache (:func:`ran_out`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: CPU seconds of every file's budget, and the seconds added per byte of the file.
FLOOR_SECONDS = 2.0
SECONDS_PER_BYTE = 4e-6

_LOCAL = threading.local()


class ParseBudget:
    """CPU seconds left to the shell parses of one file.

    Attributes:
        seconds: the whole budget (CPU seconds of the parsing thread).
        left: what is left of it (negative once it is used up).
    """

    __slots__ = ("left", "seconds")

    def __init__(self, size: int) -> None:
        """Args:
        size: the length of the file (or of the one text parsed) in characters.
        """
        self.seconds = FLOOR_SECONDS + SECONDS_PER_BYTE * size
        self.left = self.seconds


@contextmanager
def file_budget(size: int) -> Iterator[ParseBudget]:
    """Give the shell parses made inside (on this thread) one :class:`ParseBudget` for a file of ``size``
    characters; the budget that was in force before is restored after."""
    previous = getattr(_LOCAL, "budget", None)
    budget = _LOCAL.budget = ParseBudget(size)
    try:
        yield budget
    finally:
        _LOCAL.budget = previous
        _LOCAL.ran_out = budget.left <= 0


def ran_out() -> bool:
    """Whether the file last extracted on this thread (:func:`file_budget`) used its budget up: what was
    read of it then depends on the machine's speed and load, so it is not cached."""
    return bool(getattr(_LOCAL, "ran_out", False))


def current_budget(size: int) -> ParseBudget:
    """The budget of the file being extracted on this thread, or a budget of its own for a text of ``size``
    characters parsed outside any file's extraction."""
    budget: ParseBudget | None = getattr(_LOCAL, "budget", None)
    return budget if budget is not None else ParseBudget(size)
