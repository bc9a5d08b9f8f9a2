"""Start git for lookups, never interactively and never in a repository; read its ref list line by line.

git is the program that ``GIT_PYTHON_GIT_EXECUTABLE`` names, else ``git`` on ``PATH``
(:func:`git_program`: the choice GitPython made, without importing it, whose import runs ``git version``
and cost a cold scan 60 to 270 ms before its first lookup). git is started with :class:`subprocess.Popen`
and an environment built whole (:mod:`ascend_reflint.lookup.environment`): a library that lays its ``env``
over the caller's cannot take a variable away, and the isolated environment must.

Every git runs:

- in an empty directory of its own (:func:`git_directory`) with ``GIT_CEILING_DIRECTORIES`` at its parent,
  and without the variables that name a repository (``GIT_DIR``, ``GIT_WORK_TREE`` … which git sets for
  hooks such as pre-commit's): the scanned folder is not trusted, and its ``.git/config`` could pick the
  ssh command, a credential helper, or an ``insteadOf`` rewrite to a command-running transport;
- with stdin from the null device, ``LC_ALL=C`` (the messages :mod:`ascend_reflint.lookup.classify`
  knows), and in a session of its own, so that one ``os.killpg`` ends git and the
  ``git-remote-https``/``ssh`` it started (a timeout, a cap, an interrupt).
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, NamedTuple

from ascend_reflint.lookup import memory
from ascend_reflint.model import RemoteRefs

#: Variables that point git at a repository (git(1), "ENVIRONMENT VARIABLES"): never passed on.
REPOSITORY_VARIABLES = frozenset(
    {
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_COMMON_DIR",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_NAMESPACE",
        "GIT_PREFIX",
        "GIT_QUARANTINE_PATH",
        "GIT_SHALLOW_FILE",
    }
)

#: How often :meth:`GitRunner.run` calls its ``watch``, in seconds.
_WATCH_SECONDS = 0.1
#: The most output and messages that :meth:`GitRunner.run` lets git write, in bytes.
MAX_STDOUT = 16 * 1024 * 1024
MAX_STDERR = 1024 * 1024

_OBJECT_ID = re.compile(rb"[0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?")
_OPENSSH_NAMES = frozenset({"ssh", "ssh.exe"})
_HEADS = b"refs/heads/"
_TAGS = b"refs/tags/"
_PEELED = b"^{}"


def git_program() -> str:
    """The git program: ``GIT_PYTHON_GIT_EXECUTABLE`` (the variable GitPython reads, still honoured), else
    ``git`` found on ``PATH``, else ``git`` (starting it then fails with :class:`FileNotFoundError`)."""
    return os.environ.get("GIT_PYTHON_GIT_EXECUTABLE") or shutil.which("git") or "git"


@contextlib.contextmanager
def git_directory() -> Iterator[str]:
    """An empty directory for git to run in, outside any repository; removed afterwards.

    Yields:
        Its absolute path.

    Raises:
        OSError: no temporary directory can be made.
    """
    directory = tempfile.mkdtemp(prefix="reflint-git-")
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def base_env(environ: Mapping[str, str], directory: str) -> dict[str, str]:
    """``environ`` made safe for a git started in ``directory``: no :data:`REPOSITORY_VARIABLES`,
    ``GIT_CEILING_DIRECTORIES`` at the directory's parent (git looks in ``directory`` itself, empty, and
    climbs no further), and C messages."""
    env = {name: value for name, value in environ.items() if name not in REPOSITORY_VARIABLES}
    env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(directory.rstrip(os.sep)) or os.sep
    env["LC_ALL"] = env["LANGUAGE"] = "C"
    return env


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

    ``GIT_ALLOW_PROTOCOL`` is not set: it applies after ``insteadOf`` and would refuse a user's local
    mirrors; URLs are checked before git runs instead.

    Args:
        environ: the environment git inherits.
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
    if chosen and is_openssh(chosen):
        env["GIT_SSH_COMMAND"] = f"{chosen} -o BatchMode=yes"
    return env


def is_openssh(command: str) -> bool:
    """True when the shell command ``command`` runs OpenSSH's ``ssh`` (by its program name)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return bool(words) and os.path.basename(words[0]) in _OPENSSH_NAMES


def start_git(
    git: str,
    args: list[str],
    env: Mapping[str, str],
    directory: str,
    stdin: bool = False,
    output: tuple[IO[bytes], IO[bytes]] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``git ARGS`` (no shell: an argument list) in ``directory`` with exactly ``env``, stdin from the
    null device (a pipe with ``stdin``), stdout and stderr piped (or written to the two files of
    ``output``), in a new session.

    Raises:
        OSError: git cannot be started.
    """
    stdout, stderr = output if output is not None else (subprocess.PIPE, subprocess.PIPE)
    return subprocess.Popen(
        [git, *args],
        cwd=directory,
        env=dict(env),
        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
    )


class GitRun(NamedTuple):
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


class GitRunner:
    """Runs git processes in one directory, with one whole environment and a timeout; can kill every one
    still running. Safe to use from several threads at once.

    Args:
        env: git's whole environment (see :func:`base_env` and :mod:`ascend_reflint.lookup.environment`).
        timeout: seconds each git may run before its process group is killed.
        directory: where git runs (see :func:`git_directory`).
        git: the git program (default: :func:`git_program`).
    """

    def __init__(
        self, env: Mapping[str, str], timeout: float, directory: str, git: str | None = None
    ) -> None:
        self._env = dict(env)
        self._timeout = timeout
        self._directory = directory
        self._git = git
        self._running: set[subprocess.Popen[bytes]] = set()
        self._closed = False
        self._lock = threading.Lock()

    def run(
        self,
        args: Sequence[str],
        *,
        stdin: bytes | None = None,
        timeout: float | None = None,
        watch: Callable[[], str | None] | None = None,
        max_memory: int | None = None,
    ) -> GitRun:
        """Run ``git ARGS`` (an argument list, no shell) in the runner's directory and wait for it.

        git writes its output to unnamed temporary files, which are checked every :data:`_WATCH_SECONDS`:
        more than :data:`MAX_STDOUT` bytes of output, or :data:`MAX_STDERR` of messages (a server's
        ``remote:`` lines can be endless), and git is stopped; what is read back is bounded the same way.
        git's own memory is checked as often when ``max_memory`` is given: git reads a remote's whole ref
        advertisement before it writes a line, so an endless one grows git, not its output (a history
        fetch from such a server held 17 GB after 60 s).

        Args:
            args: git's arguments, without ``git``.
            stdin: bytes for git's standard input (default: /dev/null); at most a pipe's buffer (64 KiB), so
                that writing it never waits for git.
            timeout: seconds before git's process group is killed (default: the runner's timeout).
            watch: called every :data:`_WATCH_SECONDS` while git runs; when it returns a reason, git's
                process group is killed and the reason is the result's ``stopped`` (a size cap, …).
            max_memory: bytes that git and the processes it started may hold (anonymous resident memory,
                :mod:`ascend_reflint.lookup.memory`, Linux); past it git is stopped likewise.

        Returns:
            What git did; ``timed_out`` is True when the timeout killed it.

        Raises:
            OSError: git cannot be started.
        """
        git = self._git or git_program()
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = start_git(git, list(args), self._env, self._directory, stdin is not None, (out, err))
            with self._tracked(proc):
                _feed(proc, stdin)
                stopped, timed_out = _wait(
                    proc,
                    deadline,
                    lambda: _too_much_output(out, err) or _too_much_memory(proc, max_memory) or _call(watch),
                )
                if stopped is not None or timed_out:
                    kill_group(proc)
                    proc.wait()
            return GitRun(
                proc.returncode,
                _decode(_head(out, MAX_STDOUT)),
                _decode(_head(err, MAX_STDERR)),
                timed_out=timed_out,
                stopped=stopped,
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
                kill_group(proc)

    @contextlib.contextmanager
    def _tracked(self, proc: subprocess.Popen[bytes]) -> Iterator[None]:
        with self._lock:
            self._running.add(proc)
            closed = self._closed
        if closed:
            kill_group(proc)
        try:
            yield
        finally:
            with self._lock:
                self._running.discard(proc)


def _feed(proc: subprocess.Popen[bytes], data: bytes | None) -> None:
    """Write ``data`` to git's standard input and close it (git may have exited: then it is dropped)."""
    if data is None or proc.stdin is None:
        return
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.write(data)
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.close()


def _wait(
    proc: subprocess.Popen[bytes], deadline: float, check: Callable[[], str | None]
) -> tuple[str | None, bool]:
    """Wait for git to exit, calling ``check`` every :data:`_WATCH_SECONDS`; (the reason ``check`` gave to
    stop it, True when ``deadline`` passed first); (None, False) when git exited by itself."""
    while True:
        try:
            proc.wait(timeout=max(0.0, min(deadline - time.monotonic(), _WATCH_SECONDS)))
            return None, False
        except subprocess.TimeoutExpired:
            stopped = check()
            if stopped is not None:
                return stopped, False
            if time.monotonic() >= deadline:
                return None, True


def _call(watch: Callable[[], str | None] | None) -> str | None:
    return watch() if watch is not None else None


def _too_much_output(out: IO[bytes], err: IO[bytes]) -> str | None:
    """Why git must be stopped for what it has written so far, or None."""
    if os.fstat(out.fileno()).st_size > MAX_STDOUT:
        return f"git wrote more than {MAX_STDOUT // 1024 // 1024} MiB of output"
    if os.fstat(err.fileno()).st_size > MAX_STDERR:
        return f"git wrote more than {MAX_STDERR // 1024 // 1024} MiB of messages"
    return None


def _too_much_memory(proc: subprocess.Popen[bytes], max_memory: int | None) -> str | None:
    """Why git must be stopped for the memory its processes hold, or None."""
    if max_memory is None or memory.tree_memory(proc.pid) <= max_memory:
        return None
    return f"git held more than {max_memory / 1024 / 1024:.3g} MiB of memory"


def _head(stream: IO[bytes], limit: int) -> bytes:
    """The first ``limit`` bytes of a temporary file git wrote."""
    stream.seek(0)
    return stream.read(limit)


def _decode(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")


def ls_remote_args(url: str) -> list[str]:
    """``ls-remote --heads --tags -- URL``: ``--`` so that no URL can read as an option."""
    return ["ls-remote", "--heads", "--tags", "--", url]


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL git's whole process group (its id is git's pid: git leads the session it was started in),
    and git itself directly, so that waiting for it cannot hang whatever happened to the group."""
    killpg = getattr(os, "killpg", None)  # POSIX only
    if killpg is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


class RefListReader:
    """Reads ``git ls-remote`` output as it arrives, keeping only branches, tags and HEAD.

    Lines are ``<object id><TAB><refname>`` (git-ls-remote(1)). ``refs/heads/X`` gives branch X,
    ``refs/tags/X`` tag X; for an annotated tag the peeled ``refs/tags/X^{}`` line names the commit and
    wins over the tag object's id. ``HEAD`` gives ``head``. Other refs and lines that are not
    ``<id><TAB><name>`` are skipped. Ids are lower-cased; names are decoded as UTF-8 (invalid bytes
    replaced).

    Attributes:
        bytes_read: bytes fed so far.
        lines: complete lines read so far (each counts as a ref against a cap, whatever it names).
        kept_bytes: an estimate of the memory the kept refs take (the bytes of their lines plus
            :data:`REF_OVERHEAD` each).
    """

    #: Bytes a kept ref costs beyond its line: two str objects and a dict slot (measured with tracemalloc
    #: on CPython 3.11: about 125 bytes for 8-character names).
    REF_OVERHEAD = 128

    def __init__(self) -> None:
        self.bytes_read = 0
        self.lines = 0
        self.kept_bytes = 0
        self._partial = b""
        self._branches: dict[str, str] = {}
        self._tags: dict[str, str] = {}
        self._peeled: dict[str, str] = {}
        self._head: str | None = None

    def feed(self, data: bytes) -> None:
        """Read ``data``, the next bytes of git's output (any split)."""
        self.bytes_read += len(data)
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        for line in lines:
            self._line(line)

    def result(self, remote: str, fetched_at: float) -> RemoteRefs:
        """The refs read, once git's output has ended (a last line without newline counts).

        Args:
            remote: the normalised remote the output belongs to.
            fetched_at: when git answered, in seconds since the epoch.
        """
        if self._partial:
            self._line(self._partial)
            self._partial = b""
        tags = {**self._tags, **self._peeled}
        return RemoteRefs(remote, self._branches, tags, self._head, fetched_at)

    def _line(self, line: bytes) -> None:
        self.lines += 1
        object_id, tab, name = line.rstrip(b"\r").partition(b"\t")
        if not tab or not _OBJECT_ID.fullmatch(object_id):
            return
        commit = object_id.decode("ascii").lower()
        if name.startswith(_HEADS):
            table, name = self._branches, name[len(_HEADS) :]
        elif name.startswith(_TAGS):
            name = name[len(_TAGS) :]
            table = self._tags
            if name.endswith(_PEELED):
                table, name = self._peeled, name[: -len(_PEELED)]
        else:
            if name == b"HEAD":
                self._head = commit
            return
        table[name.decode("utf-8", "replace")] = commit
        self.kept_bytes += len(line) + self.REF_OVERHEAD


def parse_ls_remote(remote: str, output: str, fetched_at: float) -> RemoteRefs:
    """Read a whole ``git ls-remote`` output (see :class:`RefListReader`).

    Args:
        remote: the normalised remote the output belongs to.
        output: git's standard output.
        fetched_at: when git answered, in seconds since the epoch.

    Returns:
        The remote's refs.
    """
    reader = RefListReader()
    reader.feed(output.encode("utf-8", "surrogateescape"))
    return reader.result(remote, fetched_at)
