"""Checks of the single values that rule packs and config files hold: remotes, variant tokens, environment
variable names and severities (rule codes: :func:`ascend_reflint.check.rules.check_code`; globs:
:func:`ascend_reflint.check.globs.check_glob`). The shipped packs' plain reader
(:mod:`ascend_reflint.check.packs`) and the pydantic models (:mod:`ascend_reflint.check.pack_schema`) both
use them, so that both accept the same values.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ascend_reflint.model import Severity
from ascend_reflint.remote import normalise_remote

# The patterns are compiled on first use (re keeps them): only a rule pack or config that sets a field needs
# them.
_ENV_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
#: The values of ``newer-release`` (RL024): how far a newer release may be from the one pinned.
NEWER_RELEASE_LEVELS = ("patch", "minor", "major", "off")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"  # one RFC 1123 label
#: A host name (RFC 1123 labels) with an optional port.
_HOST = rf"{_LABEL}(?:\.{_LABEL})*(?::\d{{1,5}})?"
_NAME_PART = r"[A-Za-z0-9]+"


def normalise_entry(entry: str) -> str:
    """``github.com/NVIDIA/Megatron-LM``, or any URL of it, → ``github.com/nvidia/megatron-lm``.

    Raises:
        ValueError: for text that is not a remote (``host/owner/name``).
    """
    remote = normalise_remote(entry) or normalise_remote(f"https://{entry}")
    if remote is None or remote.count("/") < 2:
        raise ValueError(
            f"{entry!r} is not a remote (expected host/owner/name, e.g. github.com/nvidia/megatron-lm)"
        )
    return remote


#: The mark of a list entry that removes what an earlier pack lists (``!github.com/x/y``), as ``!`` negates
#: a pattern in gitignore and .dockerignore.
REMOVAL = "!"


def removable(check: Callable[[str], str]) -> Callable[[str], str]:
    """``check`` for a list entry that may also be a removal (``!ENTRY``): the entry checked, the mark
    kept.

    Raises:
        ValueError: as ``check`` does for the entry.
    """

    def checked(entry: str) -> str:
        if entry.startswith(REMOVAL):
            return REMOVAL + check(entry[len(REMOVAL) :])
        return check(entry)

    return checked


def unique(entries: tuple[str, ...]) -> tuple[str, ...]:
    """``entries`` with each one once, first occurrence kept."""
    return tuple(dict.fromkeys(entries))


def parse_severity(value: object) -> Severity:
    """A :class:`Severity`, or its name.

    Raises:
        ValueError: for anything else, or an unknown name.
    """
    if isinstance(value, Severity):
        return value
    if not isinstance(value, str):
        raise ValueError("expected error, warning or info")
    return Severity.parse(value)


def check_env_name(name: str) -> str:
    """Return ``name`` when it is an environment variable name.

    Raises:
        ValueError: otherwise.
    """
    if not re.fullmatch(_ENV_NAME, name):
        raise ValueError(f"{name!r} is not an environment variable name")
    return name


def check_host(host: str) -> str:
    """``host`` in lower case, when it is a host name with an optional port (``gitlab.example.com:8443``).

    Raises:
        ValueError: otherwise (a URL, a path, a name with spaces).
    """
    if not re.fullmatch(_HOST, host):
        raise ValueError(
            f"{host!r} is not a host name (expected e.g. gitlab.example.com, without https:// or a path)"
        )
    return host.lower()


def check_token(token: str) -> str:
    """A variant token in lower case.

    Raises:
        ValueError: for text that is not letters and digits.
    """
    if not re.fullmatch(_NAME_PART, token):
        raise ValueError(f"{token!r} is not a name part (letters and digits, without '.', '_' or '-')")
    return token.lower()
