"""The error of extraction (a leaf module, so that the extractors and the dispatcher above them import it
without importing each other)."""

from __future__ import annotations

import re

#: The position that a message built before the error was raised starts with (a shell script's first
#: syntax error, collected while the rest of the file was walked): ``line 3: …``, ``line 3, column 7: …``.
_POSITION_PREFIX = re.compile(r"line (\d+)(?:, column (\d+))?: ")


class ExtractError(Exception):
    """The file cannot be extracted as a whole (malformed YAML, a shell script that does not parse).

    Attributes:
        message: the cause, without the position.
        line: the 1-based line of the file where it is, or None when unknown.
        column: the 1-based column (in characters) on that line, or None when unknown.

    ``str()`` of the error is the message after its position (``line 3, column 7: malformed YAML: …``), as
    a message that embeds it wants. A message that starts with such a position and is given none has the
    position taken from it. The caller adds the file's path.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        if line is None and (match := _POSITION_PREFIX.match(message)) is not None:
            line = int(match.group(1))
            column = int(match.group(2)) if match.group(2) else None
            message = message[match.end() :]
        position = "" if line is None else f"line {line}" + ("" if column is None else f", column {column}")
        super().__init__(f"{position}: {message}" if position else message)
        self.message = message
        self.line = line
        self.column = column
