"""Turn a failed ``git ls-remote`` (exit status, stderr) into a :class:`~ascend_reflint.model.LookupFailure`.

A failed lookup is a fact about the remote ("no such repository", "unreachable", …), never "ref not found".
The patterns below are the messages that git, curl (through git-remote-http) and OpenSSH print with
``LC_ALL=C`` (set for every git that lookups run); they were checked against git 2.39:

- git, local or ssh transport: ``fatal: '<path>' does not appear to be a git repository``;
  git-remote-http: ``fatal: repository '<url>' not found`` (HTTP 404), ``fatal: Authentication failed for
  '<url>'`` (HTTP 401 after the credential helpers and askpass gave nothing that worked), ``fatal: could
  not read Username for '<url>': terminal prompts disabled``, ``fatal: unable to access '<url>': The
  requested URL returned error: 403``, ``… Failed to connect to <host> port <n> …: Couldn't connect to
  server``, ``… Could not resolve host: <host>``, TLS failures (``SSL certificate problem``,
  ``gnutls_handshake() failed``, ``OpenSSL SSL_connect: …``).
- GitHub: ``remote: Repository not found.`` (https with credentials) and ``ERROR: Repository not found.``
  (ssh). Over https without credentials GitHub answers a missing repository and a private one alike, with a
  request for credentials, hence :attr:`~ascend_reflint.model.FailureKind.NOT_FOUND_OR_PRIVATE`.
- OpenSSH: ``<user>@<host>: Permission denied (publickey).``, ``ssh: Could not resolve hostname <host>: …``,
  ``ssh: connect to host <host> port 22: Connection refused``.
- A server that closes the connection mid-answer: curl's ``transfer closed with N bytes remaining to
  read`` (http), git's ``fatal: Could not read from remote repository.`` alone (git://), ``the remote end
  hung up unexpectedly``, ``early EOF``.
"""

from __future__ import annotations

import re

from ascend_reflint.model import FailureKind, LookupFailure
from ascend_reflint.remote import redact

# Checked in this order; the first pattern that matches any stderr line decides. Unreachable comes first
# because a connection failure says nothing about the repository; then the answers a server gave about the
# repository. The patterns hold spaces or underscores so that they cannot match inside a quoted URL.
_RULES: tuple[tuple[FailureKind, re.Pattern[str]], ...] = (
    (
        FailureKind.UNREACHABLE,
        re.compile(
            r"Could not resolve host|Could not resolve hostname|Temporary failure in name resolution"
            r"|Name or service not known|Connection refused|Failed to connect|Couldn't connect to server"
            r"|Network is unreachable|No route to host|Connection timed out|Operation timed out"
            r"|Connection reset by peer|Connection closed by remote host|Empty reply from server"
            r"|Could not connect to proxy|SSL certificate problem|SSL routines|SSL_connect|SSL_ERROR"
            r"|SSL connect error|TLS connect error|gnutls_handshake|certificate verify failed"
            r"|server certificate verification failed|unable to get local issuer certificate"
        ),
    ),
    (
        FailureKind.NOT_FOUND,
        re.compile(
            r"Repository not found|does not appear to be a git repository|fatal: repository '.*' not found"
            r"|The requested URL returned error: 404|\b404 Not Found",
            re.IGNORECASE,
        ),
    ),
    (FailureKind.AUTH_REQUIRED, re.compile(r"Permission denied \(")),
    (
        FailureKind.NOT_FOUND_OR_PRIVATE,
        re.compile(
            r"could not read Username|could not read Password|terminal prompts disabled"
            r"|Authentication failed|The requested URL returned error: 40[13]|HTTP Basic: Access denied"
        ),
    ),
    # Last: a connection that broke off mid-answer, when nothing above explains it (ssh prints "Could not
    # read from remote repository" after the line that says why, which an earlier rule matches).
    (
        FailureKind.UNREACHABLE,
        re.compile(
            r"transfer closed with|remote end hung up unexpectedly|early EOF"
            r"|unexpected disconnect while reading|Could not read from remote repository"
        ),
    ),
)

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")


def classify_failure(remote: str, returncode: int, stderr: str) -> LookupFailure:
    """Classify a ``git ls-remote`` that exited with a non-zero status.

    Args:
        remote: the normalised remote (``host/owner/name``).
        returncode: git's exit status.
        stderr: git's standard error, decoded.

    Returns:
        A failure whose ``detail`` is the stderr line that decided the class (the first non-empty line
        for :attr:`~ascend_reflint.model.FailureKind.OTHER`), with credentials redacted and control
        characters removed; ``"git exited with status N"`` when stderr is empty.
    """
    lines = [clean_detail(line) for line in stderr.splitlines()]
    lines = [line for line in lines if line]
    for kind, pattern in _RULES:
        for line in lines:
            if pattern.search(line):
                return LookupFailure(remote=remote, kind=kind, detail=line)
    detail = lines[0] if lines else f"git exited with status {returncode}"
    return LookupFailure(remote=remote, kind=FailureKind.OTHER, detail=detail)


def timeout_failure(remote: str, timeout: float) -> LookupFailure:
    """The failure for a remote that gave no answer within ``timeout`` seconds."""
    return LookupFailure(remote=remote, kind=FailureKind.TIMEOUT, detail=f"no answer within {timeout:g} s")


def clean_detail(text: str) -> str:
    """``text`` with credentials redacted, control characters removed and whitespace stripped.

    A server's ``remote:`` lines reach the user's terminal through this text, so escape sequences must
    not survive.
    """
    return _CONTROL.sub("", redact(text)).strip()
