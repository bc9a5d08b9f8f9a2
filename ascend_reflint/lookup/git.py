"""Run ``git ls-remote --heads --tags`` for one remote, never interactively, with a timeout; parse its output.

GitPython locates and configures git (``GIT_PYTHON_GIT_EXECUTABLE``, ``LC_ALL=C``, stdin from /dev/null)
and starts it through ``Git.execute(..., as_process=True, start_new_session=True)``, which hands the extra
keyword to :class:`subprocess.Popen`. We keep the timeout ourselves instead of GitPython's
``kill_after_timeout``: that one finds children with ``ps``/``pgrep``, which slim images lack, and then
hangs. Git runs in its own session, so on timeout one ``os.killpg`` ends git and the
``git-remote-https``/``ssh`` children it started, which would otherwise outlive it.

GitPython is imported inside the functions that need it: importing it runs ``git version`` (25 to
120 ms by machine), which a scan answered from the cache must not pay.

Git runs in an empty directory of its own (:func:`git_directory`), never in the folder being scanned: a
folder that is scanned is not trusted, and its ``.git/config`` (which an unpacked archive can carry) could
otherwise pick the ssh command, a credential helper, or an ``insteadOf`` rewrite to a command-running
transport. The user's global and system configuration and ``GIT_CONFIG_*`` variables still apply.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ascend_reflint.model import RemoteRefs

if TYPE_CHECKING:
    from collections.abc import Iterator

#: How long to wait for git's pipes to close after its process group was killed, in seconds. Only a
#: process that left the group (a daemonised ssh ControlMaster) can hold them open longer.
_DRAIN_SECONDS = 2.0

#: How often :meth:`GitRunner.run` calls its ``watch``, in seconds.
_WATCH_SECONDS = 0.1

_OBJECT_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_OPENSSH_NAMES = frozenset({"ssh", "ssh.exe"})


@dataclass(frozen=True, slots=True)
class GitRun:
    """What one git process did.

    Attributes:
        returncode: git's exit status (negative: killed by that signal).
        stdout: standard output, decoded as UTF-8 (invalid bytes replaced).
        stderr: standard error, decoded likewise.
        timed_out: True when git was killed because the timeout passed.
        stopped: why git was killed when a ``watch`` of :meth:`GitRunner.run` stopped it, else None.
    """

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False
    stopped: str | None = None


def noninteractive_env(environ: Mapping[str, str], ssh_command: str | None) -> dict[str, str]:
    """The variables to add to git's environment so that nothing can wait for a person.

    - ``GIT_TERMINAL_PROMPT=0``: git never prompts on the terminal (git(1)).
    - ``GIT_ASKPASS`` and ``SSH_ASKPASS`` name a program that prints nothing (``true``): git runs
      ``core.askPass`` or ``SSH_ASKPASS`` even with terminal prompts off (gitcredentials(7)); credential
      helpers still run before it.
    - ``GCM_INTERACTIVE=never``: Git Credential Manager shows no dialog.
    - ``GIT_SSH_COMMAND``: the ssh command git would use, with ``-o BatchMode=yes`` added, when it is
      OpenSSH. Git chooses ``GIT_SSH_COMMAND``, then ``core.sshCommand``, then ``GIT_SSH``, then ``ssh``
      (git(1), git-config(1)); a ``GIT_SSH`` program or a non-OpenSSH command is left alone: having no
      controlling terminal (git runs in a new session) already keeps it from prompting.

    Git's other configuration (credential helpers, ``url.<base>.insteadOf``, proxies, ``GIT_CONFIG_*``)
    is untouched. ``GIT_ALLOW_PROTOCOL`` is not set: it applies after ``insteadOf`` and would refuse a
    user's local mirrors; URLs are checked before git runs instead.

    Args:
        environ: the environment git inherits (usually ``os.environ``).
        ssh_command: the value of ``core.sshCommand``, or None when unset.

    Returns:
        Variable name → value, to lay over ``environ``.
    """
    silent = shutil.which("true") or "/bin/true"
    env = {
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ASKPASS": silent,
        "SSH_ASKPASS": silent,
        "GCM_INTERACTIVE": "never",
    }
    chosen = environ.get("GIT_SSH_COMMAND") or ssh_command or (None if environ.get("GIT_SSH") else "ssh")
    if chosen and _is_openssh(chosen):
        env["GIT_SSH_COMMAND"] = f"{chosen} -o BatchMode=yes"
    return env


def _is_openssh(command: str) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return bool(words) and os.path.basename(words[0]) in _OPENSSH_NAMES


@contextlib.contextmanager
def git_directory() -> Iterator[str]:
    """An empty directory for git to run in, outside any repository; removed afterwards.

    Yields:
        Its absolute path; the file system's root when no temporary directory can be made (git finds no
        repository above the root either).
    """
    try:
        directory = tempfile.mkdtemp(prefix="reflint-git-")
    except OSError:
        yield os.path.abspath(os.sep)
        return
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def outside_repository_env(directory: str) -> dict[str, str]:
    """The variable that keeps git, started in ``directory``, from looking for a repository above it.

    ``GIT_CEILING_DIRECTORIES`` (git(1)) set to the parent: git checks ``directory`` itself (empty) and
    climbs no further, so a ``.git`` in ``/tmp`` or above is never read.
    """
    return {"GIT_CEILING_DIRECTORIES": os.path.dirname(directory.rstrip(os.sep)) or os.sep}


def configured_ssh_command(directory: str) -> str | None:
    """The value of git's ``core.sshCommand`` as git in ``directory`` sees it, or None if unset.

    Imports GitPython (which runs ``git version`` once) and runs ``git config --get core.sshCommand``.

    Args:
        directory: where git runs (see :func:`git_directory`).
    """
    status, value, _ = _execute(
        ["config", "--get", "core.sshCommand"],
        working_dir=directory,
        with_exceptions=False,
        with_extended_output=True,
        env=outside_repository_env(directory),
    )
    if status != 0:
        return None
    return value.strip() or None


def _execute(args: list[str], working_dir: str, **kwargs: Any) -> Any:
    """``git ARGS`` in ``working_dir`` through GitPython's ``Git.execute`` (no shell: an argument list),
    with the git executable GitPython chose.

    Raises:
        ImportError: GitPython could not run ``git version`` when it was first imported.
        OSError: git cannot be started (GitPython's ``GitCommandNotFound`` is turned into its cause).
    """
    import git

    command = [str(git.Git.GIT_PYTHON_GIT_EXECUTABLE or "git"), *args]
    try:
        return git.cmd.Git(working_dir).execute(command, shell=False, **kwargs)
    except git.exc.GitCommandNotFound as error:
        cause = error.__cause__
        raise cause if isinstance(cause, OSError) else OSError(str(error)) from error


class GitRunner:
    """Runs git processes with one environment and timeout; can kill every one still running.

    Safe to use from several threads at once.

    Args:
        env: variables laid over ``os.environ`` for every git (see :func:`noninteractive_env`).
        timeout: seconds each git may run before its process group is killed.
        directory: where git runs (see :func:`git_directory`); git looks for no repository above it.
    """

    def __init__(self, env: Mapping[str, str], timeout: float, directory: str) -> None:
        self._env = {**env, **outside_repository_env(directory)}
        self._timeout = timeout
        self._directory = directory
        self._running: set[subprocess.Popen[bytes]] = set()
        self._closed = False
        self._lock = threading.Lock()

    def ls_remote(self, url: str) -> GitRun:
        """Run ``git ls-remote --heads --tags -- URL`` and wait for it, at most the timeout.

        Args:
            url: the repository URL, already checked with :func:`ascend_reflint.remote.unsafe_reason`.

        Returns:
            What git did; ``timed_out`` is True when it was killed.

        Raises:
            ImportError: GitPython could not run ``git version`` when it was first imported.
            OSError: git cannot be started.
        """
        return self.run(["ls-remote", "--heads", "--tags", "--", url])

    def run(
        self,
        args: Sequence[str],
        *,
        stdin: bytes | None = None,
        timeout: float | None = None,
        watch: Callable[[], str | None] | None = None,
    ) -> GitRun:
        """Run ``git ARGS`` (an argument list, no shell) in the runner's directory and wait for it.

        Args:
            args: git's arguments, without ``git``.
            stdin: bytes for git's standard input (default: /dev/null).
            timeout: seconds before git's process group is killed (default: the runner's timeout).
            watch: called every :data:`_WATCH_SECONDS` while git runs; when it returns a reason, git's
                process group is killed and the reason is the result's ``stopped`` (a size cap, …).

        Returns:
            What git did; ``timed_out`` is True when the timeout killed it.

        Raises:
            ImportError: GitPython could not run ``git version`` when it was first imported.
            OSError: git cannot be started.
        """
        handle = _execute(
            list(args),
            working_dir=self._directory,
            as_process=True,
            env=self._env,
            start_new_session=True,
            istream=subprocess.PIPE if stdin is not None else None,
        )
        # ``handle`` (GitPython's AutoInterrupt) terminates git when it is garbage collected, so it is
        # kept alive until git has finished.
        proc: subprocess.Popen[bytes] = handle.proc
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        with self._tracked(proc):
            while True:
                left = max(0.0, deadline - time.monotonic())
                try:
                    out, err = proc.communicate(
                        stdin, timeout=left if watch is None else min(left, _WATCH_SECONDS)
                    )
                    return GitRun(proc.returncode, _decode(out), _decode(err))
                except subprocess.TimeoutExpired:
                    stdin = None  # communicate() keeps writing what it started; it must not be given twice
                    stopped = watch() if watch is not None else None
                    if stopped is None and time.monotonic() < deadline:
                        continue
                _kill_group(proc)
                out, err = _drain(proc)
                return GitRun(
                    proc.wait(), _decode(out), _decode(err), timed_out=stopped is None, stopped=stopped
                )

    def kill_all(self) -> None:
        """Kill the process group of every git still running, and of any started from now on.

        Used when the scan is interrupted; a git that another thread starts afterwards is killed as soon
        as it is registered.
        """
        with self._lock:
            self._closed = True
            running = list(self._running)
        for proc in running:
            if proc.poll() is None:
                _kill_group(proc)

    @contextlib.contextmanager
    def _tracked(self, proc: subprocess.Popen[bytes]) -> Iterator[None]:
        with self._lock:
            self._running.add(proc)
            closed = self._closed
        if closed:
            _kill_group(proc)
        try:
            yield
        finally:
            with self._lock:
                self._running.discard(proc)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL git's whole process group (its id is git's pid: git leads the session it was started in).

    git itself is killed directly too, so that waiting for it cannot hang whatever happened to the group.
    """
    killpg = getattr(os, "killpg", None)  # POSIX only
    if killpg is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


def _drain(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """Collect what a killed git wrote; give up on pipes that a process outside the group holds open."""
    try:
        return proc.communicate(timeout=_DRAIN_SECONDS)
    except subprocess.TimeoutExpired:
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        return b"", b""


def _decode(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")


def parse_ls_remote(remote: str, output: str, fetched_at: float) -> RemoteRefs:
    """Read ``git ls-remote`` output (``<object id><TAB><refname>`` lines, git-ls-remote(1)).

    ``refs/heads/X`` lines give branches, ``refs/tags/X`` lines tags; for an annotated tag the peeled
    ``refs/tags/X^{}`` line names the commit and wins over the tag object's id. ``HEAD`` gives ``head``.
    Other refs and lines that are not ``<id><TAB><name>`` are skipped. Ids are lower-cased.

    Args:
        remote: the normalised remote the output belongs to.
        output: git's standard output.
        fetched_at: when git answered, in seconds since the epoch.

    Returns:
        The remote's refs.
    """
    branches: dict[str, str] = {}
    tags: dict[str, str] = {}
    peeled: dict[str, str] = {}
    head: str | None = None
    for line in output.splitlines():
        object_id, tab, name = line.partition("\t")
        object_id = object_id.lower()
        if not tab or not _OBJECT_ID.fullmatch(object_id):
            continue
        if name.startswith("refs/heads/"):
            branches[name[len("refs/heads/") :]] = object_id
        elif name.startswith("refs/tags/"):
            tag = name[len("refs/tags/") :]
            if tag.endswith("^{}"):
                peeled[tag[: -len("^{}")]] = object_id
            else:
                tags[tag] = object_id
        elif name == "HEAD":
            head = object_id
    tags.update(peeled)
    return RemoteRefs(remote=remote, branches=branches, tags=tags, head=head, fetched_at=fetched_at)
