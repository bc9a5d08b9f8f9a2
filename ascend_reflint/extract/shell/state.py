"""The interpreter's state: the environment a (sub)shell has, and the sink that a session's pins and
notices go to."""

from __future__ import annotations

from ascend_reflint.extract.shell.dirs import Dir
from ascend_reflint.model import CallSite, CommandIssue, FileKind, Invocation, Pin
from ascend_reflint.resolve import Scope


class Env:
    """What a subshell copies and then changes on its own: variables and directories.

    Attributes:
        scope: the variables (a child of the parent shell's, so that assignments stay in this shell).
        cwd: the current directory.
        oldpwd: the directory before the last ``cd`` (``cd -``), or None.
        stack: the directory stack of ``pushd``/``popd``, top first.
    """

    __slots__ = ("cwd", "oldpwd", "scope", "stack")

    def __init__(
        self, scope: Scope, cwd: Dir, oldpwd: Dir | None = None, stack: tuple[Dir, ...] = ()
    ) -> None:
        self.scope = scope
        self.cwd = cwd
        self.oldpwd = oldpwd
        self.stack = stack

    def subshell(self) -> Env:
        """The environment of a subshell started here."""
        return Env(self.scope.child(), self.cwd, self.oldpwd, self.stack)


class Sink:
    """Where a session's pins (other than the clones', see :class:`.repos.Repositories`) and notices go,
    with what every pin says about where it comes from.

    Attributes:
        path: the file's display path.
        kind: the kind of file.
        stage: the Dockerfile build stage, None elsewhere.
        pins: the pins added so far, in the order found.
        notices: caveats about what could not be read, in the order found.
        call_sites: the call of the function running now (every pin made now gets it), else empty.
        issues: commands that fail or do other than they say, in the order found.
        invocations: the other files the text runs with values it gives (``docker build --build-arg``).
    """

    __slots__ = ("call_sites", "invocations", "issues", "kind", "notices", "path", "pins", "stage")

    def __init__(self, path: str, kind: FileKind, stage: str | None) -> None:
        self.path = path
        self.kind = kind
        self.stage = stage
        self.pins: list[Pin] = []
        self.notices: list[str] = []
        self.call_sites: tuple[CallSite, ...] = ()
        self.issues: list[CommandIssue] = []
        self.invocations: list[Invocation] = []
