"""Loopback servers for tests, built so that neither serving nor stopping can wait for ever.

A server's thread runs one short step at a time (wait at most :data:`POLL_INTERVAL` for a connection,
accept it, hand it to a thread of its own) and checks between steps whether to stop; the listening socket
has a timeout too, so even an ``accept()`` that finds the connection gone cannot block. Connections have
:data:`CLIENT_TIMEOUT`, so a client that stops talking frees its thread. :meth:`ServerThread.stop` waits at
most :data:`STOP_TIMEOUT` and fails the test if the thread is still running then (``socketserver``'s own
``shutdown()`` waits without a limit, and once hung a whole run in a fixture's teardown).
"""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Callable, Iterator

#: Seconds a server waits on one client's socket (a read or a write) before giving up on the connection.
CLIENT_TIMEOUT = 10.0
#: Seconds between a server thread's checks that it should stop.
POLL_INTERVAL = 0.05
#: Seconds that stopping a server may take before the test fails.
STOP_TIMEOUT = 5.0


class ServerThread:
    """Call ``step`` on a daemon thread again and again until :meth:`stop`.

    Args:
        step: one round of serving; must return within about :data:`POLL_INTERVAL` when no client comes.
        name: the thread's name, shown in stack dumps and in the error :meth:`stop` raises.
    """

    def __init__(self, step: Callable[[], None], name: str) -> None:
        self._step = step
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._step()

    def stop(self) -> None:
        """Ask the thread to stop and wait for it.

        Raises:
            AssertionError: it is still running after :data:`STOP_TIMEOUT` seconds.
        """
        self._stopping.set()
        self._thread.join(STOP_TIMEOUT)
        assert not self._thread.is_alive(), f"{self._thread.name} did not stop within {STOP_TIMEOUT} s"


def serve_http(
    handler: type[http.server.BaseHTTPRequestHandler], name: str
) -> tuple[http.server.ThreadingHTTPServer, ServerThread]:
    """Serve ``handler`` on a loopback port, each request on a daemon thread of its own.

    Returns:
        The server (its ``server_address`` has the port; call ``server_close()`` after stopping) and the
        :class:`ServerThread` that runs it.
    """
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.timeout = POLL_INTERVAL  # handle_request() waits this long for a connection
    server.socket.settimeout(POLL_INTERVAL)  # and accept() cannot block
    return server, ServerThread(server.handle_request, name)


@contextlib.contextmanager
def http_status_server(status: int) -> Iterator[int]:
    """A loopback HTTP server that answers every request with ``status`` and an empty body; yields its port.

    ``git ls-remote http://127.0.0.1:PORT/o/r.git`` against ``status`` 404 is a server's "repository not
    found" to a URL that no ``insteadOf`` rewrote: the answer RL014 reports (a 404 from a mirror that the
    user's config points at is RL010's).
    """

    class Handler(http.server.BaseHTTPRequestHandler):
        timeout = CLIENT_TIMEOUT

        def do_GET(self) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server, thread = serve_http(Handler, f"http-{status}")
    try:
        yield server.server_address[1]
    finally:
        thread.stop()
        server.server_close()
