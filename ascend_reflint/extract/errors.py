"""The error of extraction (a leaf module, so that the extractors and the dispatcher above them import it
without importing each other)."""


class ExtractError(Exception):
    """The file cannot be extracted as a whole (malformed YAML, a shell script that does not parse).

    The message names the cause and, where known, the line; the caller adds the file's path.
    """
