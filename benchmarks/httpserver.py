"""A loopback smart-HTTP git server that waits a fixed time before every answer, for benchmarks.

Each request is handed to ``git http-backend`` (git-http-backend(1)) as a CGI program, with
``GIT_PROJECT_ROOT`` set to the folder of bare repositories and ``GIT_HTTP_EXPORT_ALL`` so that every one of
them is served. Before answering, the server sleeps ``latency`` seconds, as a distant host would make a user
wait; requests are handled on their own threads, so concurrent lookups wait concurrently, as they would on
the internet. A ``git ls-remote`` over protocol v2 (git's default since 2.26) makes two requests:
``GET …/info/refs?service=git-upload-pack`` and ``POST …/git-upload-pack`` (``ls-refs``).

The server counts requests by kind, so a benchmark can check that a scan asked each remote once.

With ``replay``, each distinct request (method, path, query, body and the ``Git-Protocol`` header) is run
through http-backend once and its answer is replayed, after the same latency, every time it is asked again.
A distant host's CPU is not the client's; on a 2-core machine the 90 http-backend processes of a cold scan
of 45 remotes (about 400 ms of CPU) would otherwise compete with the client being measured. Use it only
while the served repositories do not change.

Run it by hand with ``python benchmarks/httpserver.py ROOT [--port N] [--latency SECONDS]``; clients reach
it from real URLs with ``git -c url.http://127.0.0.1:N/github.com/.insteadOf=https://github.com/ …``.
It listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

#: Seconds ``git http-backend`` may take for one request before the server gives up on it.
_BACKEND_TIMEOUT = 60.0

#: Request kinds counted by :attr:`GitHttpServer.counts`.
LS_REMOTE = "info/refs"  # one per ls-remote / fetch / clone: the ref advertisement
UPLOAD_PACK = "git-upload-pack"  # the POST that follows it (ls-refs in v2, or a fetch)
OTHER = "other"


class GitHttpServer:
    """A smart-HTTP git server on 127.0.0.1 that answers after ``latency`` seconds.

    Args:
        root: the folder whose bare repositories are served; ``ROOT/github.com/o/n.git`` is served as
            ``http://127.0.0.1:PORT/github.com/o/n.git`` (and, as git-http-backend allows, without ``.git``).
        latency: seconds to wait before answering each request (0 for none).
        port: the TCP port; 0 picks a free one.
        config: git config ``(key, value)`` pairs for the server side (``uploadpack.allowFilter``), given to
            http-backend through ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n``, so that repositories that
            must not be changed (mirrors) can be served with them.
        replay: answer a request seen before from its first answer instead of running http-backend again
            (see the module docstring).

    Raises:
        FileNotFoundError: from :meth:`start`, when ``git http-backend`` cannot be found.
        OSError: from :meth:`start`, when the port cannot be bound.

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        root: Path,
        latency: float = 0.2,
        port: int = 0,
        config: Sequence[tuple[str, str]] = (),
        replay: bool = False,
    ) -> None:
        self.root = root.resolve()
        self.latency = latency
        self.config = tuple(config)
        self.replay = replay
        self._answers: dict[tuple[str, str, str, bytes, str], _Answer] = {}
        self._port = port
        self._counts: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/``, the URL that the root folder is served at (after :meth:`start`)."""
        if self._server is None:
            raise RuntimeError("the server is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def counts(self) -> dict[str, int]:
        """Requests served so far by kind (:data:`LS_REMOTE`, :data:`UPLOAD_PACK`, :data:`OTHER`)."""
        with self._lock:
            return dict(self._counts)

    def reset_counts(self) -> None:
        """Set every request count back to 0."""
        with self._lock:
            self._counts.clear()

    def start(self) -> GitHttpServer:
        """Bind the port and serve on a daemon thread; returns ``self``."""
        backend = _http_backend_path()
        owner = self

        class Handler(_BackendHandler):
            server_owner = owner
            backend_path = backend

        server = _Server(("127.0.0.1", self._port), Handler)
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="git-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> GitHttpServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _count(self, kind: str) -> None:
        with self._lock:
            self._counts[kind] += 1

    def _remembered(self, key: tuple[str, str, str, bytes, str]) -> _Answer | None:
        with self._lock:
            return self._answers.get(key) if self.replay else None

    def _remember(self, key: tuple[str, str, str, bytes, str], answer: _Answer) -> None:
        if self.replay:
            with self._lock:
                self._answers[key] = answer


#: An answer of http-backend: status, headers, body.
_Answer = tuple[int, list[tuple[str, str]], bytes]


class _Server(ThreadingHTTPServer):
    # A listen backlog of 5 (http.server's default) makes the 6th of 16 simultaneous connections wait for
    # a SYN retry, a second or more, which would be measured as reflint's time.
    request_queue_size = 128
    daemon_threads = True


class _BackendHandler(BaseHTTPRequestHandler):
    """Runs one request through ``git http-backend`` after the configured latency."""

    server_owner: GitHttpServer
    backend_path: str

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: object) -> None:
        """Silence the per-request log on stderr: it would mix with the benchmark's table."""

    def _serve(self) -> None:
        owner = self.server_owner
        parts = urlsplit(self.path)
        owner._count(_kind(self.command, parts.path, parts.query))
        body = self._read_body()
        if owner.latency > 0:
            time.sleep(owner.latency)
        key = (self.command, parts.path, parts.query, body, self.headers.get("Git-Protocol", ""))
        answer = owner._remembered(key)
        if answer is None:
            try:
                completed = subprocess.run(
                    [self.backend_path],
                    input=body,
                    capture_output=True,
                    env=self._cgi_env(parts.path, parts.query, len(body)),
                    timeout=_BACKEND_TIMEOUT,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                self.send_error(504, "git http-backend timed out")
                return
            answer = _parse_cgi_output(completed.stdout)
            owner._remember(key, answer)
        status, headers, payload = answer
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _read_body(self) -> bytes:
        """The request body: by Content-Length, or decoded from chunked transfer encoding."""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks: list[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _cgi_env(self, path: str, query: str, length: int) -> dict[str, str]:
        """The CGI/1.1 variables (RFC 3875) that git http-backend reads, plus one HTTP_* per header."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": str(self.server_owner.root),
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_PROTOCOL": self.request_version,
            "REQUEST_METHOD": self.command,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "REMOTE_ADDR": self.client_address[0],
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(length),
            "GIT_CONFIG_COUNT": str(len(self.server_owner.config)),
        }
        for index, (key, value) in enumerate(self.server_owner.config):
            env[f"GIT_CONFIG_KEY_{index}"] = key
            env[f"GIT_CONFIG_VALUE_{index}"] = value
        for name, value in self.headers.items():
            # Git-Protocol becomes HTTP_GIT_PROTOCOL, which http-backend turns into GIT_PROTOCOL (v2).
            key = "HTTP_" + name.upper().replace("-", "_")
            if key not in ("HTTP_CONTENT_TYPE", "HTTP_CONTENT_LENGTH", "HTTP_TRANSFER_ENCODING"):
                env[key] = value
        return env


def _kind(method: str, path: str, query: str) -> str:
    if method == "GET" and path.endswith("/info/refs") and "service=git-upload-pack" in query:
        return LS_REMOTE
    if method == "POST" and path.endswith("/git-upload-pack"):
        return UPLOAD_PACK
    return OTHER


def _parse_cgi_output(output: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
    """Split a CGI response into (status, headers, body); ``Status: 404 Not Found`` sets the status."""
    head, sep, body = output.partition(b"\r\n\r\n")
    if not sep:
        head, sep, body = output.partition(b"\n\n")
    if not sep:
        return 502, [("Content-Type", "text/plain")], b"git http-backend gave no headers\n"
    status = 200
    headers: list[tuple[str, str]] = []
    for line in head.decode("latin-1").splitlines():
        name, _, value = line.partition(":")
        if name.lower() == "status":
            status = int(value.split()[0])
        elif name.lower() != "content-length":
            headers.append((name.strip(), value.strip()))
    return status, headers, body


def _http_backend_path() -> str:
    """The path of ``git-http-backend``, in ``git --exec-path`` (where git keeps its helpers)."""
    git = shutil.which("git")
    if git is None:
        raise FileNotFoundError("git is not on PATH")
    exec_path = subprocess.run(
        [git, "--exec-path"], capture_output=True, text=True, check=True
    ).stdout.strip()
    backend = Path(exec_path) / "git-http-backend"
    if not backend.is_file():
        raise FileNotFoundError(f"git http-backend not found at {backend}")
    return str(backend)


def main(argv: Sequence[str] | None = None) -> int:
    """Serve ``ROOT`` until interrupted; prints the base URL. Returns the exit code."""
    parser = argparse.ArgumentParser(description="Serve bare git repositories over smart HTTP, slowly.")
    parser.add_argument("root", type=Path, help="folder of bare repositories (HOST/OWNER/NAME.git)")
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default: any free one)")
    parser.add_argument(
        "--latency", type=float, default=0.2, help="seconds to wait per request (default: 0.2)"
    )
    args = parser.parse_args(argv)
    with GitHttpServer(args.root, args.latency, args.port) as server:
        print(
            f"serving {server.root} at {server.base_url} ({args.latency * 1000:.0f} ms per request)",
            flush=True,
        )
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
