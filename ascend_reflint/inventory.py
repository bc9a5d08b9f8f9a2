"""Read and extract every discovered file: the ``refs`` inventory that ``scan`` checks.

Bad input never stops the scan: a file that cannot be read or extracted gets one entry in ``errors``
naming it and the cause, and every other file is still read.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from ascend_reflint.discover import discover
from ascend_reflint.model import FileMessage, Pin, SourceFile
from ascend_reflint.textfile import DEFAULT_MAX_BYTES, FileReadError, read_text

log = logging.getLogger("reflint")


@dataclass
class Inventory:
    """Every file read and what it pins.

    Attributes:
        files: the files discovered, in path order (including those that could not be read).
        errors: files that could not be read or extracted, with the cause.
        notices: caveats (lenient decoding, skipped steps, skipped explicit paths).
        timings: seconds spent per stage (``discover``, ``extract``).
    """

    files: list[SourceFile] = field(default_factory=list)
    errors: list[FileMessage] = field(default_factory=list)
    notices: list[FileMessage] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def pins(self) -> list[Pin]:
        """Every pin of every file, in path then file order."""
        return [pin for source in self.files for pin in source.pins]


def build_inventory(
    paths: Sequence[str],
    excludes: Sequence[str] = (),
    build_args: Mapping[str, str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    read_already: Collection[str] = (),
) -> Inventory:
    """Discover, read and extract the files under ``paths``.

    Args:
        paths: files and folders as given on the command line.
        excludes: gitignore-style globs that leave paths out.
        build_args: ``--build-arg NAME=VALUE`` overrides for Dockerfile ``ARG``.
        max_bytes: the largest file read, in bytes.
        read_already: absolute paths of files that the caller has read and extracted: they are left out
            (not read twice) when discovery finds them.

    Returns:
        The :class:`Inventory`. Never raises for a file's content.
    """
    started = time.perf_counter()
    found = discover(paths, excludes)
    files = [source for source in found.files if source.abspath not in read_already]
    inventory = Inventory(files=files, errors=list(found.errors), notices=list(found.notices))
    inventory.timings["discover"] = time.perf_counter() - started
    started = time.perf_counter()
    for source in inventory.files:
        _read_and_extract(source, build_args or {}, max_bytes)
        if source.error is not None:
            inventory.errors.append(FileMessage(source.path, source.error))
        inventory.notices.extend(FileMessage(source.path, notice) for notice in source.notices)
    inventory.timings["extract"] = time.perf_counter() - started
    return inventory


def _read_and_extract(source: SourceFile, build_args: Mapping[str, str], max_bytes: int) -> None:
    from ascend_reflint.extract import ExtractError, extract_file

    try:
        source.text, notice = read_text(source.abspath, max_bytes)
    except FileReadError as exc:
        source.error = str(exc)
        return
    if notice:
        source.notices.append(notice)
    try:
        extract_file(source, build_args)
    except ExtractError as exc:
        source.error = str(exc)
    except (RecursionError, MemoryError) as exc:
        source.error = f"too deeply nested or too large to extract ({type(exc).__name__})"
    except Exception as exc:  # a bug of ours must not lose the other files' findings
        log.debug("extracting %s failed", source.path, exc_info=True)
        source.error = f"internal error while extracting ({type(exc).__name__}: {exc}); run with --debug"
