"""A loopback smart-HTTP server that advertises as many refs as asked, or refs without end, for the bounds
benchmark (``bounds.py``): what a hostile or broken remote can make a lookup read.

Every ``GET …/info/refs?service=git-upload-pack`` is answered with a protocol-v0 ref advertisement
(gitprotocol-http(5), "Smart Clients"; gitprotocol-pack(5), "Reference Discovery"): the
``# service=git-upload-pack`` pkt-line and a flush, then ``<id> refs/heads/main`` with capabilities, then
``<id> refs/tags/tNNNNNNNN`` lines, then a flush. A client that asks for protocol v2 takes a v0 answer as
it is (git falls back). With ``refs`` set, the advertisement ends after that many tags, each named once;
without, it never ends: the server sends one block of 65,536 tags again and again, as fast as the client
reads, until the client hangs up. The body has no length: HTTP/1.0, closed at the end.

Run it alone with ``python benchmarks/refserver.py [--refs N] [--port N]``; it prints its base URL.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: Tags written per ``sendall``: large writes keep the server from being the bottleneck.
_BATCH = 4096
_OBJECT_ID = "1" * 40


def pkt_line(text: str) -> bytes:
    """One pkt-line: four hex digits of length (the four included), then the data."""
    data = text.encode("ascii")
    return f"{len(data) + 4:04x}".encode("ascii") + data


def advertisement_head() -> bytes:
    """The service announcement, a flush, and the first ref with its capabilities."""
    return (
        pkt_line("# service=git-upload-pack\n")
        + b"0000"
        + pkt_line(f"{_OBJECT_ID} refs/heads/main\0agent=refserver\n")
    )


def tag_lines(start: int, count: int) -> bytes:
    """``count`` tag pkt-lines, ``refs/tags/t<start>`` onwards (names of 8 digits)."""
    return b"".join(pkt_line(f"{_OBJECT_ID} refs/tags/t{n:08d}\n") for n in range(start, start + count))


class RefServer:
    """Serves ref advertisements on 127.0.0.1 (see the module docstring).

    Args:
        refs: tags per advertisement, or None for an advertisement without end.
        port: the TCP port; 0 picks a free one.

    Attributes:
        requests: how many ref advertisements were asked for so far.
    """

    def __init__(self, refs: int | None, port: int = 0) -> None:
        owner = self
        self.refs = refs
        self.requests = 0
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with owner._lock:
                    owner.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/x-git-upload-pack-advertisement")
                self.send_header("Connection", "close")
                self.end_headers()
                with contextlib.suppress(OSError):  # the client hung up: what a cap is for
                    owner._write(self.wfile.write)

            def log_message(self, format: str, *args: object) -> None:
                """Silent: the benchmark prints its own table."""

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._server.request_queue_size = 128  # type: ignore[misc]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/``."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def start(self) -> RefServer:
        """Serve on a daemon thread; returns ``self``."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port."""
        self._server.shutdown()
        self._server.server_close()

    def _write(self, send: Callable[[bytes], object]) -> None:
        send(advertisement_head())
        if self.refs is None:
            # The same block again and again: as fast as the client reads (names repeat, which git takes).
            block = tag_lines(0, _BATCH * 16)
            while True:
                send(block)
        start = 0
        while start < self.refs:
            count = min(_BATCH, self.refs - start)
            send(tag_lines(start, count))
            start += count
        send(b"0000")


def main() -> None:
    """Serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refs", type=int, default=None, help="tags per advertisement (default: no end)")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = RefServer(args.refs, args.port).start()
    print(server.base_url, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        threading.Event().wait()
    server.stop()


if __name__ == "__main__":
    main()
