"""The entry points of shell extraction: a :class:`ShellSession` for the script bodies of one file (the
Dockerfile and workflow extractors use one per stage or step), and :func:`extract_shell_file` for a script."""

from __future__ import annotations

from ascend_reflint.extract.shell.dialect import SystemShell
from ascend_reflint.extract.shell.dirs import RuntimeDirs
from ascend_reflint.extract.shell.parse import check_size, may_pin
from ascend_reflint.extract.shell.repos import Repositories
from ascend_reflint.extract.shell.state import Sink
from ascend_reflint.extract.shell.walker import ShellWalker
from ascend_reflint.model import CommandIssue, FileKind, Invocation, Pin, SourceFile
from ascend_reflint.resolve import Scope, merge_call_sites
from ascend_reflint.sourcemap import SourceMap


class ShellSession:
    """One shell process's worth of state: variables, current directory, clones awaiting a checkout.

    A session reads one or more script bodies with :meth:`run` (a whole file; the ``RUN`` instructions of
    one Dockerfile stage; a workflow step) and hands out the pins with :meth:`finish`. Each :meth:`run`
    is one shell process: the variables it assigns and the ``cd`` it does end with it (a Dockerfile
    ``RUN`` or a workflow step starts a new shell), while its clones stay (they are on the file system), so
    that ``RUN git clone URL`` / ``WORKDIR /x/NAME`` / ``RUN git checkout REF`` is one pin.

    Attributes:
        cwd: the directory the next :meth:`run` starts in, settable by the caller (Dockerfile ``WORKDIR``);
            ``""`` when unknown (relative paths are then relative to one unknown start directory).
        scope: the variables the caller knows (Dockerfile ``ARG``/``ENV``, workflow ``env:``, hints of
            variables the file shows empty); during :meth:`run` the script's own assignments are visible
            through a child of it, in order.
    """

    def __init__(self, path: str, kind: FileKind, scope: Scope, stage: str | None = None) -> None:
        """Args:
        path: the file's display path (copied into every pin).
        kind: the kind of file (copied into every pin).
        scope: the variables visible when each script body starts.
        stage: the Dockerfile build stage (copied into every pin), None elsewhere.
        """
        self.scope = scope
        self.cwd = ""
        self._sink = Sink(path, kind, stage)
        self._repositories = Repositories()
        self._runtime_dirs = RuntimeDirs()

    @property
    def notices(self) -> list[str]:
        """Caveats about what could not be read, in the order found."""
        return self._sink.notices

    @property
    def issues(self) -> list[CommandIssue]:
        """Commands that fail or do other than they say, in the order found."""
        return self._sink.issues

    @property
    def invocations(self) -> list[Invocation]:
        """The other files the scripts run with values they give (``docker build --build-arg``)."""
        return self._sink.invocations

    def run(self, text: str, source_map: SourceMap, system_shell: SystemShell | None = None) -> None:
        """Extract one script body.

        Args:
            text: the shell text.
            source_map: maps character offsets of ``text`` to the file's positions.
            system_shell: for a Dockerfile ``RUN`` that ``/bin/sh`` runs, which one it likely is: its
                bash-only syntax is then recorded as command issues (RL022).

        Raises:
            ExtractError: when ``text`` does not parse; the message names the file line of the first error.
                What the well-formed parts hold is extracted first (and :meth:`finish` returns it).
        """
        if self.may_pin(text) or system_shell is not None:
            walker = ShellWalker(
                self.scope, self.cwd, self._sink, self._repositories, self._runtime_dirs, source_map
            )
            walker.run(text, system_shell)

    def may_pin(self, text: str) -> bool:
        """Whether :meth:`run` can find anything in ``text`` (:func:`.parse.may_pin` with this session's
        variables): when False, a caller need not build the source map."""
        return may_pin(text, self.scope)

    def finish(self) -> list[Pin]:
        """All pins found so far, in file order (by span; pins at one span in the order found, the clones'
        after the others); pins alike but for their call sites are one pin with all of them."""
        pins = merge_call_sites(self._sink.pins + self._repositories.pins(self._sink))
        pins.sort(key=lambda pin: (pin.span.line, pin.span.column, pin.span.end_line, pin.span.end_column))
        return pins


def extract_shell_file(source: SourceFile) -> None:
    """Fill ``source.pins`` and ``source.notices`` from a whole shell script.

    Args:
        source: a file whose ``text`` has been read.

    Raises:
        ExtractError: when the script does not parse (message with the line of the first error); the pins
            of its well-formed parts are in ``source.pins`` all the same. When it is longer than the
            parser takes (:data:`~ascend_reflint.extract.shell.parse.MAX_TEXT_TOKENS`).
    """
    text = source.text or ""
    if not may_pin(text, None):  # before building a source map
        return
    check_size(text)  # before building a source map of its lines too
    session = ShellSession(source.path, source.kind, Scope())
    try:
        session.run(text, SourceMap.identity(text))
    finally:
        source.pins = session.finish()
        source.notices.extend(session.notices)
        source.issues.extend(session.issues)
        source.invocations.extend(session.invocations)
