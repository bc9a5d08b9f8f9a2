"""Credentials go only to hosts the person running reflint allowed, and only over https (issue 10, item 5).

The attack: with a credential helper and ``http.extraHeader`` in the user's git config (common on CI
runners), a pin ``http://ATTACKER/x.git`` received ``Authorization: Basic …`` and the header, over plain
http; ``-c credential.helper=`` alone still let ``http.<url>.extraHeader`` and ``~/.netrc`` through.

Here a throwaway home holds all three (a helper, ``http.extraHeader`` and ``http.<url>.extraHeader`` in its
global config, a ``~/.netrc``) and two loopback git servers record every header they receive: one over
https (a certificate for ``localhost`` and ``127.0.0.1``, trusted through the user's ``http.sslCAInfo``,
which lookups must carry over), one over plain http. Both answer 401 until credentials come, then 404. The
user's ``insteadOf`` rewrites, from the global config and from ``GIT_CONFIG_COUNT`` variables, must still
apply to every lookup.
"""

from __future__ import annotations

import base64
import http.server
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from loopback import POLL_INTERVAL, ServerThread

from .support import json_output, run_reflint, write_tree

HELPER_SECRET = "helper-s3cret"
NETRC_SECRET = "netrc-s3cret"
EXTRA = ("X-Extra", "extra-s3cret")
URL_EXTRA = ("X-Url-Extra", "url-extra-s3cret")
#: The request headers that carry something of the user's.
SENSITIVE = ("Authorization", EXTRA[0], URL_EXTRA[0])


@dataclass
class RecordingServer:
    """A loopback git server (see the module docstring); ``seen`` maps each request's first path part to
    the sensitive headers it carried, with their values."""

    port: int = 0
    seen: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, path: str, headers: set[tuple[str, str]]) -> None:
        with self.lock:
            self.seen.setdefault(path.strip("/").split("/")[0], set()).update(headers)


def _serve(context: ssl.SSLContext | None) -> Iterator[RecordingServer]:
    record = RecordingServer()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            record.record(self.path, {(n, self.headers[n]) for n in SENSITIVE if self.headers[n] is not None})
            status = 404 if self.headers["Authorization"] else 401
            self.send_response(status)
            if status == 401:
                self.send_header("WWW-Authenticate", 'Basic realm="reflint test"')
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.timeout = POLL_INTERVAL
    if context is not None:
        server.socket = context.wrap_socket(server.socket, server_side=True)
    record.port = server.server_address[1]
    thread = ServerThread(server.handle_request, name="recording-git-server")
    try:
        yield record
    finally:
        thread.stop()
        server.server_close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for ``localhost`` and ``127.0.0.1``, and its key (made with openssl)."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def https_server(certificate: tuple[Path, Path]) -> Iterator[RecordingServer]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*map(str, certificate))
    yield from _serve(context)


@pytest.fixture
def http_server() -> Iterator[RecordingServer]:
    yield from _serve(None)


def _home(folder: Path, certificate: Path, https: RecordingServer) -> Path:
    """A home with a credential helper, extra headers, a CA file and a rewrite in its git config, and a
    ~/.netrc with passwords for both loopback names."""
    folder.mkdir()
    helper = folder / "credential-helper"
    helper.write_text(
        f"#!{sys.executable}\nprint('username=helper-user')\nprint('password={HELPER_SECRET}')\n"
    )
    helper.chmod(0o755)
    (folder / ".netrc").write_text(
        f"machine localhost login netrc-user password {NETRC_SECRET}\n"
        f"machine 127.0.0.1 login netrc-user password {NETRC_SECRET}\n"
    )
    (folder / ".netrc").chmod(0o600)
    (folder / ".gitconfig").write_text(
        f"[credential]\n\thelper = {helper}\n"
        f"[http]\n\textraHeader = {EXTRA[0]}: {EXTRA[1]}\n\tsslCAInfo = {certificate}\n"
        f'[http "https://localhost:{https.port}/"]\n\textraHeader = {URL_EXTRA[0]}: {URL_EXTRA[1]}\n'
        f'[url "https://127.0.0.1:{https.port}/rewritten-global/"]\n\tinsteadOf = https://global.example/\n'
    )
    return folder


def _env(home: Path, https: RecordingServer, **extra: str) -> dict[str, str]:
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.https://127.0.0.1:{https.port}/rewritten-env/.insteadOf",
        "GIT_CONFIG_VALUE_0": "https://env.example/",
        "NO_PROXY": "*",
        **extra,
    }


def _project(folder: Path, https: RecordingServer, plain: RecordingServer) -> None:
    lines = [
        f"RUN git clone --branch v1 https://localhost:{https.port}/allowed/r.git /a\n",
        f"RUN git clone --branch v1 https://127.0.0.1:{https.port}/other/r.git /b\n",
        f"RUN git clone --branch v1 http://localhost:{plain.port}/plain/r.git /c\n",
        "RUN git clone --branch v1 https://global.example/o/r.git /d\n",
        "RUN git clone --branch v1 https://env.example/o/r.git /e\n",
    ]
    write_tree(folder, {"Dockerfile": "FROM x\n" + "".join(lines)})


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


#: What the allowed host receives: the ~/.netrc credentials (curl uses them before git asks its helper)
#: and both headers.
ALLOWED = {("Authorization", _basic("netrc-user", NETRC_SECRET)), EXTRA, URL_EXTRA}


@pytest.mark.parametrize("how", ["option", "environment", "nobody"])
def test_credentials_reach_only_an_allowed_host_over_https(
    tmp_path: Path,
    certificate: tuple[Path, Path],
    https_server: RecordingServer,
    http_server: RecordingServer,
    how: str,
) -> None:
    home = _home(tmp_path / "home", certificate[0], https_server)
    _project(tmp_path / "project", https_server, http_server)
    allow = {"option": ["--credentials-for", "localhost"], "environment": [], "nobody": []}[how]
    extra = {"REFLINT_CREDENTIALS_FOR": "localhost"} if how == "environment" else {}

    completed = run_reflint(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache"), *allow],
        tmp_path / "project",
        _env(home, https_server, **extra),
    )

    allowed = ALLOWED if how != "nobody" else set()
    # Every pin's lookup reached a server (the rewrites from the global config and from GIT_CONFIG_COUNT
    # still applied), and only the allowed host over https received anything of the user's.
    assert https_server.seen == {
        "allowed": allowed,
        "other": set(),
        "rewritten-global": set(),
        "rewritten-env": set(),
    }
    assert http_server.seen == {"plain": set()}
    # The allowed lookup got past the 401 to "no such repository"; every other one stopped at the 401.
    private = (
        " was not found or is private: if it is mistyped, `git clone` fails here; a private one needs "
        "credentials in git's config and its host allowed them (--credentials-for HOST), or its remote "
        "listed under private-remotes"
    )
    allowed_url = f"https://localhost:{https_server.port}/allowed/r.git/"
    first = (
        f"localhost:{https_server.port}/allowed/r does not exist (fatal: repository '{allowed_url}' not "
        "found), so `git clone` fails here; check the owner and name in the URL"
        if how != "nobody"
        else f"localhost:{https_server.port}/allowed/r{private}"
    )
    # The two rewritten URLs were answered by the mirror the rewrite points at: said of the mirror (RL010).
    mirror = (
        "the mirror that your git config sends https://{name}.example/o/r.git to (url.<base>.insteadOf) has "
        "no copy of {name}.example/o/r that it gives without credentials, so this pin went unchecked; add it "
        "to the mirror to have it checked"
    )
    assert [(f["code"], f["line"], f["message"]) for f in json_output(completed)["findings"]] == [
        ("RL014", 2, first),
        ("RL014", 3, f"127.0.0.1:{https_server.port}/other/r{private}"),
        ("RL014", 4, f"localhost:{http_server.port}/plain/r{private}"),
        ("RL010", 5, mirror.format(name="global")),
        ("RL010", 6, mirror.format(name="env")),
    ]
    assert completed.returncode == 1


def test_the_scanned_repository_cannot_allow_credentials_or_rewrite_urls_even_as_git_dir(
    tmp_path: Path,
    certificate: tuple[Path, Path],
    https_server: RecordingServer,
    http_server: RecordingServer,
) -> None:
    """A git hook runs with ``GIT_DIR`` naming the repository whose files are scanned: its config (which a
    pull request can change) must reach no lookup, allowed host or not."""
    home = _home(tmp_path / "home", certificate[0], https_server)
    project = tmp_path / "project"
    _project(project, https_server, http_server)
    subprocess.run(["git", "init", "--quiet", str(project)], check=True, timeout=60)
    hostile = (
        f"[http]\n\textraHeader = X-Hostile: from-the-repository\n"
        f'[url "https://127.0.0.1:{https_server.port}/hijacked/"]\n\tinsteadOf = https://localhost:{https_server.port}/\n'
    )
    with (project / ".git" / "config").open("a") as config:
        config.write(hostile)
    env = _env(home, https_server, GIT_DIR=str(project / ".git"), REFLINT_CREDENTIALS_FOR="localhost")

    run_reflint(["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache")], project, env)

    # The repository's rewrite did not apply (no "hijacked" request) and its header was never sent.
    assert sorted(https_server.seen) == ["allowed", "other", "rewritten-env", "rewritten-global"]
    assert https_server.seen["allowed"] == ALLOWED
