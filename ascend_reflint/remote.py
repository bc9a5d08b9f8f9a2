"""Git remote URLs as recipes write them: normalisation, transport safety and credential redaction.

Facts used here come from git's documentation: git-clone(1) "GIT URLS" (the ``ssh://``, ``git://``,
``http[s]://``, ``file://`` forms, the scp-like ``[user@]host:path`` form, and ``<transport>::<address>``
for remote helpers such as ``ext::``), and git-config(1) ``protocol.allow``.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import urlsplit

#: Transports that reflint hands to git. Everything else (``ext::``, ``fd::``, unknown helpers) is refused.
SAFE_SCHEMES = frozenset({"https", "http", "ssh", "git", "file"})

#: Hosts whose owner and repository names are case-insensitive, so that ``NVIDIA/Megatron-LM`` and
#: ``nvidia/megatron-lm`` are one remote.
CASE_INSENSITIVE_HOSTS = frozenset({"github.com", "gitlab.com", "gitcode.com", "gitee.com"})

_SCP_LIKE = re.compile(r"^(?:(?P<user>[^@/:\s]+)@)?(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*):(?P<path>(?!//).+)$")
_HELPER_TRANSPORT = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")
#: A URL's user information: everything between ``scheme://`` and the authority's *last* ``@`` (a password
#: may hold an unencoded ``@``: ``https://a@b.com:PASS@host/`` has the user ``a@b.com``). The scheme group
#: is the whole run of scheme characters before ``://`` (the scheme is that run from its first letter on,
#: see :func:`redact`): a match starts only where such a run starts, so that a long run of letters costs
#: one pass, not one per letter.
_USERINFO = re.compile(r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z0-9+.-]+://)(?P<userinfo>[^/?#\s\"'<>]*)@")
#: A query parameter whose name says it holds a secret (``access_token``, GitLab's ``private_token``,
#: S3's ``X-Amz-Signature`` and ``X-Amz-Credential``, an Azure SAS ``sig``, ``api_key`` …). A name holds
#: no ``?``, so that each ``?`` of a run of them is not the start of a scan to the run's end.
_SECRET_QUERY = re.compile(
    r"(?P<key>[?&;][^=&#;?\s\"'<>]*?(?:token|secret|password|passwd|pwd|key|sig|signature|auth|credentials?))"
    r"=(?P<value>[^&#;\s\"'<>]*)",
    re.IGNORECASE,
)
#: The user of an scp-like address (``TOKEN@host:owner/repo.git``), or of ssh's ``user@host: message``.
_SCP_USER = re.compile(
    r"(?<![^\s\"'(<\[=,;])(?P<user>[^\s@/:\"'<>()\[\]{},;=]+)@(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*)(?=:)"
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def redact(text: str) -> str:
    """Mask the credentials that ``text`` may hold, wherever it holds them, with ``***``.

    - ``scheme://user:secret@host``: the secret (the user part ends at the authority's last ``@``, so a
      password with an unencoded ``@`` is masked whole); a user part without ``:`` is a token used as the
      user name (``https://TOKEN@github.com``) and is masked whole, except the plain ``git`` user of ssh;
    - ``?access_token=…``, ``&private_token=…`` and other query parameters named for a secret: the value;
    - ``TOKEN@host:owner/repo.git`` (git's scp-like syntax, git-clone(1) "GIT URLS") and OpenSSH's
      ``TOKEN@host: Permission denied``: the user, except ``git``.

    Args:
        text: any text: a URL, a message, git's stderr, a log line.

    Returns:
        The text with secrets replaced. Masking twice changes nothing more.
    """

    if "@" not in text and "=" not in text:
        return text  # every form above has one of them: most texts (ref names, paths) need no regex

    def _userinfo(match: re.Match[str]) -> str:
        if not any(char.isascii() and char.isalpha() for char in match.group("scheme")):
            return match.group(0)  # a scheme starts with a letter (RFC 3986, 3.1)
        userinfo = match.group("userinfo")
        if ":" in userinfo:
            return f"{match.group('scheme')}{userinfo.split(':', 1)[0]}:***@"
        if userinfo in ("git", "", "***"):
            return match.group(0)
        return f"{match.group('scheme')}***@"

    def _scp_user(match: re.Match[str]) -> str:
        if match.group("user") in ("git", "***"):
            return match.group(0)
        return f"***@{match.group('host')}"

    text = _USERINFO.sub(_userinfo, text)
    text = _SECRET_QUERY.sub(lambda match: f"{match.group('key')}=***", text)
    return _SCP_USER.sub(_scp_user, text)


# The functions of one URL below are pure and remembered: the stages ask them of every pin's URL several
# times, and pins repeat URLs.
@functools.lru_cache(maxsize=4096)
def unsafe_reason(url: str) -> str | None:
    """Say why git must not be given ``url``, or None when it is safe to give git (a local path is safe,
    though never looked up: see :func:`is_local_path`).

    Checked on the URL as written in the file, before git's ``url.<base>.insteadOf`` rewriting, so that a
    user's own rewrites to local mirrors keep working.

    Args:
        url: the repository URL after variable resolution.

    Returns:
        A short reason ("looks like a command-line option", "transport 'ext' is not allowed", …) or None.
    """
    if not url:
        return "the URL is empty"
    if url.startswith("-"):
        return "it looks like a command-line option"
    if _CONTROL.search(url):
        return "it holds control characters"
    if _HELPER_TRANSPORT.match(url):
        return f"transport '{url.split('::', 1)[0]}::' is not allowed"
    if is_local_path(url):
        return None  # never looked up: RL017 reports it
    if any(ch.isspace() for ch in url):
        # git hands the URL to curl or ssh as it is; no host or repository path holds white space.
        return "it holds white space, which no git URL does (a stray space or a line break inside quotes?)"
    if "://" in url:
        scheme, rest = url.split("://", 1)
        if scheme.lower() not in SAFE_SCHEMES:
            return f"transport '{scheme.lower()}' is not allowed (allowed: {', '.join(sorted(SAFE_SCHEMES))})"
        authority = rest.split("/", 1)[0]
        if authority.startswith("-") or authority.rpartition("@")[2].startswith("-"):
            # ssh reads such a user or host as an option (CVE-2017-1000117: -oProxyCommand=…).
            return "its user or host starts with '-', which ssh reads as an option"
        return None
    if _SCP_LIKE.match(url):
        return None
    return "it is not a git URL"


@functools.lru_cache(maxsize=4096)
def is_local_path(url: str) -> bool:
    """True when git reads ``url``, as the recipe wrote it, as a repository on the build machine's own disk.

    git-clone(1) "GIT URLS": ``file:///path`` and a plain path (``/srv/r.git``, ``./r``, ``../x/.git``,
    ``//host/share``, which is still a path to git) use the local transport; a shell expands ``~`` to a
    home directory. Judged before any ``url.<base>.insteadOf`` rewrite, so that a user's rewrites of real
    URLs to local mirrors keep those URLs remote.

    Args:
        url: the repository URL after variable resolution.
    """
    return url in (".", "..") or url.startswith(("/", "./", "../", "~")) or url[:7].lower() == "file://"


@functools.lru_cache(maxsize=4096)
def lookup_key(url: str) -> str | None:
    """The key that pins share one lookup by: the URL that ``git clone URL`` would fetch, normalised.

    Scheme, user part (with its password or token, if any), host, port and path all count, so that a
    pin over ``git://`` and one over ``https://`` are looked up apart, and the failure of one never
    stands for the other. Normalised away: the case of the scheme and host, a ``.git`` suffix and trailing
    slashes of the path, and the case of the path on :data:`CASE_INSENSITIVE_HOSTS`. The scp-like form
    (``git@host:o/r``) keeps its own shape: git reads its path relative to the login's home, which
    ``ssh://git@host/o/r`` does not.

    Args:
        url: a resolved repository URL.

    Returns:
        ``scheme://user@host:port/path`` or ``user@host:path``; None for a URL that is never looked up
        (a local path, see :func:`is_local_path`) or that :func:`normalise_remote` cannot name.
    """
    if is_local_path(url) or normalise_remote(url) is None:
        return None
    if "://" in url:
        scheme, rest = url.split("://", 1)
        authority, _, path = rest.partition("/")
        user, at, host = authority.rpartition("@")
        return f"{scheme.lower()}://{user}{at}{host.lower()}/{_key_path(host, path)}"
    match = _SCP_LIKE.match(url)
    assert match is not None  # normalise_remote named it, and it is neither "://" nor a path
    user = f"{match.group('user')}@" if match.group("user") else ""
    host = match.group("host").lower()
    return f"{user}{host}:{_key_path(host, match.group('path'))}"


def url_host(url: str) -> str | None:
    """The host that git contacts for ``url`` (lower-case, without user or port), or None for a local
    path or text that names no host. ``git@github.com:o/r`` → ``github.com``."""
    if is_local_path(url):
        return None
    if "://" in url:
        try:
            return urlsplit(url).hostname or None
        except ValueError:
            return None
    match = _SCP_LIKE.match(url)
    return match.group("host").lower() if match else None


def url_scheme(url: str) -> str | None:
    """The transport git uses for ``url``: ``https``, ``http``, ``ssh``, ``git``, ``file`` (lower-case);
    ``ssh`` for the scp-like form; None for a local path or text that is not a URL."""
    if is_local_path(url):
        return "file"
    if "://" in url:
        return url.split("://", 1)[0].lower()
    return "ssh" if _SCP_LIKE.match(url) else None


def _key_path(host: str, path: str) -> str:
    """``path`` without trailing slashes and ``.git``; lower-cased on a host that ignores case."""
    path = path.rstrip("/")
    path = path.removesuffix(".git").rstrip("/")
    hostname = host.rpartition(":")[0] if host.count(":") == 1 else host
    return path.lower() if hostname.lower() in CASE_INSENSITIVE_HOSTS else path


@functools.lru_cache(maxsize=4096)
def normalise_remote(url: str) -> str | None:
    """Turn a repository URL into reflint's remote key, ``host/owner/name``.

    Lower-case host, no scheme, no user or password, no port for the default ports, no ``.git``, no trailing
    slash; ``git@host:o/n.git``, ``ssh://git@host/o/n`` and ``https://host/o/n`` give the same remote.
    On hosts in :data:`CASE_INSENSITIVE_HOSTS` the path is lower-cased too.

    Args:
        url: a repository URL (``https://…``, ``ssh://…``, ``git://…``, scp-like, ``file://…`` or a path).

    Returns:
        The remote key, or None when ``url`` is not a URL reflint can name (empty, holds ``$`` or
        whitespace, a transport outside :data:`SAFE_SCHEMES`, a remote helper's ``<transport>::…``).
    """
    url = url.strip()
    if not url or "$" in url or any(ch.isspace() for ch in url) or _HELPER_TRANSPORT.match(url):
        return None
    host: str
    path: str
    if "://" in url:
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        scheme = parts.scheme.lower()
        if scheme not in SAFE_SCHEMES:
            return None
        if scheme == "file":
            host, path = "file", parts.path
        else:
            try:
                hostname = parts.hostname or ""
            except ValueError:
                return None
            port = _port(parts)
            host = hostname.lower() + (f":{port}" if port and port not in ("22", "80", "443", "9418") else "")
            path = parts.path
    else:
        match = _SCP_LIKE.match(url)
        if match and "/" not in match.group("host"):
            host, path = match.group("host").lower(), match.group("path")
        elif url.startswith(("/", "./", "../")):
            host, path = "file", url
        else:
            return None
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")]
    path = path.rstrip("/")
    if not host or not path:
        return None
    if host in CASE_INSENSITIVE_HOSTS:
        path = path.lower()
    return f"{host}/{path}"


def _port(parts: object) -> str | None:
    try:
        port = parts.port  # type: ignore[attr-defined]
    except ValueError:
        return None
    return str(port) if port is not None else None


def repo_dir_name(url: str) -> str:
    """The directory ``git clone URL`` creates when no directory is given (git-clone(1): "the humanish
    part of the source repository": the last path part without ``.git``).

    Args:
        url: the repository URL.

    Returns:
        The directory name, or ``""`` when the URL has no path part.
    """
    tail = url.rstrip("/").rsplit("/", 1)[-1]
    if ":" in tail and "/" not in url:
        tail = tail.rsplit(":", 1)[-1]
    if tail.endswith(".git"):
        tail = tail[: -len(".git")]
    return tail


def github_action_url(owner_repo: str) -> str:
    """The repository URL that ``uses: owner/repo[/path]@ref`` stands for: ``https://github.com/owner/repo``."""
    owner, repo = owner_repo.split("/")[:2]
    return f"https://github.com/{owner}/{repo}"
