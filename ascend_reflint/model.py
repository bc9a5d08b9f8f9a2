"""The values that move down reflint's pipeline (discover → extract → resolve → lookup → check → report).

Every stage depends on this module and on the stage before it, never on a stage after it. The values are
plain, typed and immutable where they can be, so that a stage cannot change what an earlier stage saw.

The records that nothing changes (spans, origins, env settings, messages, failures, related places, ref
lists, commit verdicts, fixes and their edits, the summary) are :class:`typing.NamedTuple` s, copied with a
change by ``_replace``: one costs a quarter of what a frozen dataclass costs to define, and this module is
imported by every command (``benchmarks/README.md`` has the figures). Pins and findings stay frozen
dataclasses (fields that equality leaves out: where a pin's parts are written, a finding's fix); the file
that stages fill in is a mutable dataclass (the extraction cache stores it field by field), and the result
that the formatters get is a plain class.

Positions everywhere are the file's own: 1-based lines, 1-based columns counted in characters (not bytes),
``end_column`` exclusive.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple


class Severity(enum.IntEnum):
    """How serious a finding is; ordered so that ``Severity.ERROR > Severity.WARNING``."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        """The lower-case name used in output and config: ``"error"``, ``"warning"`` or ``"info"``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        """Read ``"error"``/``"warning"``/``"info"`` (any case).

        Raises:
            ValueError: for any other text.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (expected error, warning or info)") from None


class FileKind(str, enum.Enum):
    """The kinds of file that reflint reads; the value is what JSON output shows."""

    DOCKERFILE = "dockerfile"
    SHELL = "shell"
    WORKFLOW = "workflow"
    REQUIREMENTS = "requirements"
    PYPROJECT = "pyproject"
    CONDA = "conda"
    SUBMODULE = "submodule"
    PRE_COMMIT = "pre-commit"
    CMAKE = "cmake"
    MAKEFILE = "makefile"
    GITLAB_CI = "gitlab-ci"
    APPTAINER = "apptainer"
    DOCS = "docs"
    BAKE = "bake"
    COMPOSE = "compose"


class Via(str, enum.Enum):
    """How a pin fetches its dependency; the value is what JSON output shows.

    - ``CLONE``: ``git clone URL`` with no ref at all (the remote's default branch).
    - ``CLONE_BRANCH``: ``git clone --branch REF URL``.
    - ``CHECKOUT``: a clone followed by ``git checkout``/``switch``/``reset --hard`` of REF.
    - ``PIP_VCS``: ``git+URL@REF`` given to pip (command line, requirements file or pyproject).
    - ``ACTION``: ``uses: owner/repo@REF`` in a workflow.
    - ``SUBMODULE``: a git submodule, at the commit that the superproject's index records for its path.
    - ``UV_SOURCE``: a ``git`` source of ``[tool.uv.sources]`` in ``pyproject.toml``.
    - ``POETRY``: a ``git`` dependency of Poetry (``[tool.poetry.dependencies]`` and its groups).
    - ``PRE_COMMIT``: a ``repo:`` and its ``rev:`` in ``.pre-commit-config.yaml`` (or prek's ``prek.toml``).
    - ``FETCHCONTENT``: CMake's ``FetchContent_Declare`` with ``GIT_REPOSITORY`` and ``GIT_TAG``.
    - ``EXTERNAL_PROJECT``: CMake's ``ExternalProject_Add`` with ``GIT_REPOSITORY`` and ``GIT_TAG``.
    - ``CPM``: ``CPMAddPackage``/``CPMFindPackage`` of CPM.cmake (named arguments or ``gh:owner/repo@1.2.3``).
    - ``GITLAB_INCLUDE``: GitLab CI's ``include: project: … ref: …``.
    - ``ADD_GIT``: a Dockerfile ``ADD`` of a git repository (BuildKit's git source, ``URL.git#REF``).
    - ``CARGO``: ``cargo install --git URL [--tag|--branch|--rev REF]``.
    - ``NPM``: a git dependency given to ``npm``/``yarn``/``pnpm`` (``github:owner/repo#REF``).
    - ``BUILD_CONTEXT``: a git repository as a build context (``docker build URL#REF:DIR``, a compose
      service's or bake target's ``context``), at REF (None: the default branch).
    """

    CLONE = "clone"
    CLONE_BRANCH = "clone-branch"
    CHECKOUT = "checkout"
    PIP_VCS = "pip-vcs"
    ACTION = "action"
    SUBMODULE = "submodule"
    UV_SOURCE = "uv-source"
    POETRY = "poetry"
    PRE_COMMIT = "pre-commit"
    FETCHCONTENT = "fetchcontent"
    EXTERNAL_PROJECT = "external-project"
    CPM = "cpm"
    GITLAB_INCLUDE = "gitlab-include"
    ADD_GIT = "add-git"
    CARGO = "cargo"
    NPM = "npm"
    BUILD_CONTEXT = "build-context"


class Resolution(str, enum.Enum):
    """What variable resolution could say about a ref or URL.

    - ``RESOLVED``: every variable had a value (a ``${V:-default}`` default counts).
    - ``UNRESOLVED``: some part cannot be known statically (``${{ matrix.x }}``, ``$(cmd)``, a variable
      the file never assigns, which the base image or the caller may set).
    - ``EMPTY``: the file itself shows the variable is empty where it is used (assigned only later, only
      in another build stage, or only on a commented-out line).
    - ``PLACEHOLDER``: the ref or URL holds a template placeholder (``{version}``, ``{{ version }}``,
      ``<branch>``, ``@VERSION@``, ``%(ref)s``, ``$VERSION$``) that another tool fills in before the file
      is used: it names no ref yet (:func:`ascend_reflint.resolve.placeholder`).
    """

    RESOLVED = "resolved"
    UNRESOLVED = "unresolved"
    EMPTY = "empty"
    PLACEHOLDER = "placeholder"


class Span(NamedTuple):
    """A range of characters in a file: 1-based ``line``/``column``, ``end_column`` exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


class Origin(NamedTuple):
    """Where a value that reaches a pin through a variable is written: the definition, not the use.

    ``span`` covers the value as written there, quotes around it excluded: the ``v0.27.0`` of
    ``ARG VLLM_TAG=v0.27.0``, of a shell ``TAG=v0.27.0``, of a workflow ``env:`` entry, of a build
    argument that another file gives (``docker build --build-arg VLLM_TAG=v0.27.0``). A finding about the
    value belongs there (the fix edits it), with the use as a related location.

    Attributes:
        path: the display path of the file that holds the definition (may differ from the pin's).
        span: the value's span in that file.
    """

    path: str
    span: Span


class CloneLayout(NamedTuple):
    """Where the parts of a ``git clone`` command are written, for fixes that rewrite the command (CMake's
    declarations, which clone too, give their ``GIT_SHALLOW`` as the ``depth`` option).

    Attributes:
        end: an empty span just after the command's last word, where more commands can follow
            (``&& git -C DIR checkout …``); None when something other than an operator or a line end follows
            it there (a redirection, which would then apply to the command added).
        directory: the clone's directory as a shell word: the word as written (quotes kept), or the name git
            gives it from the URL (git-clone(1)); None when neither is known.
        options: ``(name, span)`` of each ``--branch``, ``--depth``, ``--shallow-since``,
            ``--shallow-exclude`` and ``--single-branch`` given (long names, also for ``-b``), the span
            covering the option and its value with the white space before them: what a fix deletes to drop
            the option.
        written: the span of each of ``options`` without the white space before it (``--depth 1``), in the
            same order: where a finding's note about the option points.
    """

    end: Span | None
    directory: str | None
    options: tuple[tuple[str, Span], ...] = ()
    written: tuple[Span, ...] = ()

    def option_spans(self, *names: str) -> tuple[Span, ...]:
        """The spans of the options named ``names``, in file order."""
        return tuple(span for name, span in self.options if name in names)

    def first_written(self, *names: str) -> Span | None:
        """Where the first of the options named ``names`` is written (without the white space before it), or
        None when none is (or the layout gives no ``written`` spans)."""
        pairs = zip(self.options, self.written, strict=False)
        return next((span for (name, _), span in pairs if name in names), None)


class CallSite(NamedTuple):
    """A place that runs the code a pin is written in, with the values the pin was resolved with.

    A pin inside a shell function is resolved once per distinct call (``$1`` … of that call); a Dockerfile's
    pins are resolved once per build that another file gives build arguments to (``docker build
    --build-arg``, a bake target, a compose service), and a reusable workflow's once per call (``with:``).
    A finding about such a pin lists its call sites as related locations.

    Attributes:
        path: the display path of the file that holds the call (may differ from the pin's).
        span: the call: the function call's command, the ``docker build`` words, the bake target's or
            compose service's name, the ``uses:`` value.
        call: what it is, as a phrase for messages (``called as `install_repo vllm https://… v0.9.1```,
            ``built by `docker build -f docker/Dockerfile.a3 .```).
    """

    path: str
    span: Span
    call: str


class GivenValue(NamedTuple):
    """A value that an invocation gives a variable of the file it invokes: a build argument, an input.

    Attributes:
        name: the variable's name (``VLLM_TAG``).
        value: its value, or None when it is not known statically.
        origin: where the value is written in the invoking file (None when it is computed or comes from
            several places); for a value not known statically, where the expression that gives it is, when
            the invoking file says (a ``build-args:`` line).
        verbatim: the text at ``origin`` is the value character for character (see
            :class:`ascend_reflint.resolve.Provenance`).
        note: why the value is not known, for messages (None when it is).
    """

    name: str
    value: str | None
    origin: Origin | None = None
    verbatim: bool = False
    note: str | None = None


class InvokedPath(NamedTuple):
    """A path that names the file an invocation runs: relative to the project root, or to the folder of the
    invoking file; ``/``-separated, as the invoking file writes it after its own rules (a bake target's
    ``context`` joined with its ``dockerfile``)."""

    path: str
    from_root: bool


class Invocation(NamedTuple):
    """Another file run with values that this file gives it: a Dockerfile built with build arguments
    (``docker build --build-arg``, ``docker/build-push-action``'s ``build-args:``, a bake target's
    ``args``, a compose service's ``build.args``), a reusable workflow called with inputs (``with:``).

    Recorded during extraction by the file that invokes (no extractor reads another file); applied after
    extraction (:mod:`ascend_reflint.invocations`): the invoked file's pins are resolved once per
    invocation, each such pin with the invocation as its call site.

    Attributes:
        kind: the kind of the invoked file (``dockerfile`` or ``workflow``).
        paths: where the invoked file may be, in order (the first that exists inside the project root).
        values: the values given, in the order written.
        site: the invocation, for related locations (``built by `docker build -f …```).
        target: the build stage asked for (``--target``), or None.
    """

    kind: FileKind
    paths: tuple[InvokedPath, ...]
    values: tuple[GivenValue, ...]
    site: CallSite
    target: str | None = None


class HistoryRead(NamedTuple):
    """A command run in a clone that reads more of its history than the commit checked out: commits or tags
    that a shallow clone does not hold (RL003 reads it for a remote a rule pack lists under
    ``full-history-remotes``).

    Attributes:
        command: what runs, as ``git describe``.
        span: its words ``git describe`` in the file.
    """

    command: str
    span: Span


class Fetch(NamedTuple):
    """How the ref that a checkout names by name came into its repository: the ``git fetch`` (or ``git
    pull``) before the checkout that named it. Whether the checkout finds it depends on what the fetch
    stored (git-fetch(1) "CONFIGURED REMOTE-TRACKING BRANCHES"; verified with git 2.39): RL020 reads it.

    Attributes:
        span: the ref on the fetch's line.
        by_url: the fetch named a URL, not a remote: git stores the ref in FETCH_HEAD only.
        tag: the fetch named it as ``tag NAME``, which stores the tag.
        tracked_branch: the one branch that the remote's fetch refspec stores a remote-tracking branch
            for (a single-branch clone: ``--single-branch``, or ``--depth`` without
            ``--no-single-branch``; ``HEAD`` for the remote's default branch); None when it stores every
            branch (a full clone, ``git remote add``).
        has_tags: the repository holds the remote's tags (a clone that fetched them all: no ``--depth``,
            ``--single-branch`` or ``--no-tags``); a fetch of a tag by name stores no tag.
    """

    span: Span
    by_url: bool
    tag: bool
    tracked_branch: str | None
    has_tags: bool


@dataclass(frozen=True, slots=True)
class Pin:
    """One dependency fetched from a git remote, as a build recipe pins it.

    Attributes:
        path: the file's display path (relative to the working directory when under it, ``/``-separated).
        kind: the kind of file it came from.
        via: how the dependency is fetched.
        span: the ref token's span, or the URL token's where the pin has no ref.
        url: the repository URL after variable resolution, without ``git+``, ``@ref`` or ``#fragment``;
            for ``uses:`` the ``https://github.com/owner/repo`` it stands for. As written when it cannot be
            resolved.
        remote: the normalised ``host/owner/name`` (see :func:`ascend_reflint.remote.normalise_remote`),
            or None when the URL is unresolved or not a URL.
        ref: the resolved ref, or None (no ref, or unresolved).
        ref_text: the ref as written in the file (None when the pin has no ref).
        clone_ref: for a clone followed by a checkout, the ``--branch`` value the clone asked for; for a
            submodule, its ``branch`` (which ``git submodule update --remote`` follows).
        resolution: what resolution could say about the ref and URL together.
        resolution_note: why the ref or URL is unresolved or empty, for messages (None when resolved).
        depth: ``--depth N`` of the clone, or None.
        shallow: True for ``--depth``, ``--shallow-since`` or ``--shallow-exclude``.
        url_span: the URL token's span.
        clone_span: the span of the ``git clone`` word for clones (None for pip and actions).
        clone_ref_span: the span of the ``--branch`` value when ``clone_ref`` is set.
        single_branch: ``--single-branch`` was given.
        recurse_submodules: ``--recursive``/``--recurse-submodules`` was given.
        submodules_stale: a checkout in a clone made with ``--recursive`` that no ``git submodule update``
            (nor ``--recurse-submodules`` on the checkout) follows: the submodules stay at the commits the
            clone checked out (RL027).
        fetched_ref: a ref that a later ``git fetch [--depth N] origin REF`` brought into the clone
            (checking it out, or ``FETCH_HEAD``, works even from a shallow clone).
        stage: the Dockerfile build stage (its name or index as a string), None elsewhere.
        ref_type: :attr:`RefType.TAG` or :attr:`RefType.BRANCH` when the recipe says which the ref is
            (uv's ``tag =`` and ``branch =``, Poetry's ``tag =``), so that only that kind of ref answers;
            None when a branch or a tag may.
        version_comment: the version that a comment beside a commit pin names (pre-commit's
            ``rev: <commit>  # frozen: v1.2.3`` gives ``v1.2.3``, a workflow's ``uses: o/r@<commit> # v4.2.2``
            gives ``v4.2.2``), None when there is none.
        ref_origin: where the ref is written when ``span`` shows a variable (or expression) that stands for
            it: set only when the ref is exactly what one definition holds, verbatim (``--branch "$TAG"``
            after ``TAG=v1``, through any chain of variables that copy each other whole), or a part of one
            definition's value written there character for character (the ``v1`` inside
            ``PKG=git+URL@v1`` that ``pip install $PKG`` installs). None when the ref is written at the use
            itself, or comes from several places or partly from the use (``v$VER``, ``${A}${B}``), or from
            reflint's own ``--build-arg``.
        url_origin: the same for the URL (for ``url_span``).
        fetch: for a checkout that names (not as ``FETCH_HEAD``) the ref that a fetch before it named,
            how that fetch brought it (:class:`Fetch`); else None.
        call_sites: the calls that give the pin its values (see :class:`CallSite`), in the order met;
            empty for a pin resolved with the file's own values. Pins alike but for their call sites are
            one pin with all of them.
        template: the pin comes from a template of a recipe (``Dockerfile.j2``), whose template
            expressions are filled in when it is rendered.
        version_comment_span: where that version is written in the comment (a fix that corrects the
            comment edits it), None when there is no version comment.
        history_read: for a clone (and its checkouts), the first command run in it that reads more of its
            history than one commit (``git describe``, ``git log``), or None.
        clone_layout: for a ``git clone`` in a shell script (``CLONE``, ``CLONE_BRANCH`` and ``CHECKOUT``
            pins), where the command's parts are written; for a CMake declaration, where its
            ``GIT_SHALLOW`` is (as the ``depth`` option); None elsewhere.
    """

    path: str
    kind: FileKind
    via: Via
    span: Span
    url: str
    remote: str | None
    ref: str | None
    ref_text: str | None
    clone_ref: str | None = None
    resolution: Resolution = Resolution.RESOLVED
    resolution_note: str | None = None
    depth: int | None = None
    shallow: bool = False
    url_span: Span | None = None
    clone_span: Span | None = None
    clone_ref_span: Span | None = None
    single_branch: bool = False
    recurse_submodules: bool = False
    submodules_stale: bool = False
    fetched_ref: str | None = None
    stage: str | None = None
    ref_type: RefType | None = None
    version_comment: str | None = None
    ref_origin: Origin | None = None
    url_origin: Origin | None = None
    fetch: Fetch | None = None
    call_sites: tuple[CallSite, ...] = ()
    template: bool = False
    history_read: HistoryRead | None = None
    # Where things are written, for fixes: not part of what the pin is (equal pins stay equal).
    version_comment_span: Span | None = field(default=None, compare=False)
    clone_layout: CloneLayout | None = field(default=None, compare=False)

    @property
    def resolved(self) -> bool:
        """True when the ref and URL hold no variable left unresolved."""
        return self.resolution is Resolution.RESOLVED


class IssueKind(str, enum.Enum):
    """What is wrong with a command, as extraction saw it (a rule of its own reports each kind).

    - ``OPTION_WITHOUT_VALUE``: an option that takes a value is the command's last word (RL018).
    - ``CHECKOUT_OUTSIDE_CLONE``: a checkout runs in the directory a clone was made from, not in the clone
      (RL019).
    - ``RUN_SYNTAX_ERROR``: a Dockerfile ``RUN`` whose shell text does not parse (RL021).
    - ``BASH_UNDER_SH``: bash syntax in a script that ``/bin/sh`` runs (RL022).
    """

    OPTION_WITHOUT_VALUE = "option-without-value"
    CHECKOUT_OUTSIDE_CLONE = "checkout-outside-clone"
    RUN_SYNTAX_ERROR = "run-syntax-error"
    BASH_UNDER_SH = "bash-under-sh"


class CommandIssue(NamedTuple):
    """A recipe command that fails, or does other than it says, as extraction saw it.

    Attributes:
        kind: what is wrong.
        path: the display path of the file.
        span: where: the option, the checkout's ref (or its ``git checkout`` words), the construct.
        command: the command it is in, as written and shortened (``git clone``, ``git checkout v1``).
        subject: what is at ``span`` (``-b``, ``v1``, ``[[``).
        detail: a fact for the message: the comment that swallowed an option's value (OPTION_WITHOUT_VALUE);
            the directory the checkout runs in (CHECKOUT_OUTSIDE_CLONE); what the construct is
            (BASH_UNDER_SH); what the shell finds there (RUN_SYNTAX_ERROR: ``syntax error near '('``).
        related: the places it refers to (the clone that a checkout was meant for).
        rest_of_run: for OPTION_WITHOUT_VALUE in a Dockerfile ``RUN`` (continuation lines joined into one
            line), the comment runs to the end of the RUN: nothing after it runs.
        likely: False when context makes it less likely to fail (BASH_UNDER_SH in a stage whose base image
            ships bash as ``/bin/sh``): the rule then lowers its severity.
        stage: the Dockerfile build stage, None elsewhere.
    """

    kind: IssueKind
    path: str
    span: Span
    command: str
    subject: str
    detail: str | None = None
    related: tuple[Related, ...] = ()
    rest_of_run: bool = False
    likely: bool = True
    stage: str | None = None


class EnvSetting(NamedTuple):
    """One environment variable that a file sets for what it builds or runs.

    Attributes:
        name: the variable's name.
        value: its value after resolution, or None when it cannot be resolved statically.
        span: the span of the value (of the name when the value is empty).
        scope: ``"image"`` for a Dockerfile ``ENV``; ``"workflow"``, ``"job:<id>"`` or
            ``"step:<job id>:<index>"`` in a workflow.
    """

    name: str
    value: str | None
    span: Span
    scope: str


class FileMessage(NamedTuple):
    """A file that could not be read as a whole (``errors``) or that was read with a caveat (``notices``).

    Attributes:
        path: the file's display path (see :class:`Pin`); ``""`` for a message about no file (the cache).
        message: what happened.
        line: the 1-based line the message is about (where a file stops parsing), or None.
        column: the 1-based column on that line, or None.
    """

    path: str
    message: str
    line: int | None = None
    column: int | None = None

    @property
    def location(self) -> str:
        """``path:line:column``, ``path:line`` or ``path``, as much as is known (not made safe to print)."""
        if self.line is None:
            return self.path
        return f"{self.path}:{self.line}" + ("" if self.column is None else f":{self.column}")


@dataclass(slots=True)
class SourceFile:
    """A discovered file and what extraction found in it.

    Attributes:
        path: display path (see :class:`Pin`).
        abspath: absolute filesystem path.
        kind: the kind of file.
        explicit: True when the path was given on the command line (read even with an unusual name).
        text: the decoded text, once read (None before reading, when it could not be read, or when the
            inventory let it go: a scan keeps only the texts that checks read, see
            :func:`ascend_reflint.inventory.text_needed`).
        pins: pins found, in file order.
        env: environment settings found (Dockerfile ``ENV``, workflow ``env:``).
        notices: caveats about this file (lenient decoding, a skipped ``shell: pwsh`` step …).
        error: why the file could not be read or parsed, or None; such a file has no pins (what was
            extracted before the failure is dropped).
        error_line: the 1-based line where it stops parsing, when known.
        error_column: the 1-based column on that line, when known.
        named_files: files that this file has its tool read, as written (relative to this file's folder),
            with the kind to read them as: pip's ``-r``/``-c`` files, GitLab CI's ``include: local``. The
            inventory reads them too.
        issues: commands that fail or do other than they say (:class:`CommandIssue`), in file order.
        invocations: the other files this file runs with values it gives (:class:`Invocation`).
        template: the file is a template of a recipe (``Dockerfile.j2``), read as its kind with its
            template expressions masked.
    """

    path: str
    abspath: str
    kind: FileKind
    explicit: bool = False
    text: str | None = None
    pins: list[Pin] = field(default_factory=list)
    env: list[EnvSetting] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    error: str | None = None
    error_line: int | None = None
    error_column: int | None = None
    named_files: list[tuple[str, FileKind]] = field(default_factory=list)
    issues: list[CommandIssue] = field(default_factory=list)
    invocations: list[Invocation] = field(default_factory=list)
    template: bool = False


class RefType(str, enum.Enum):
    """What a name on a remote is."""

    BRANCH = "branch"
    TAG = "tag"


class RemoteRefs(NamedTuple):
    """What ``git ls-remote --heads --tags`` said about one remote.

    Attributes:
        remote: the normalised remote (``host/owner/name``).
        branches: branch name (without ``refs/heads/``) → commit id (40 hex, lower case).
        tags: tag name (without ``refs/tags/``) → the commit id it points to (the peeled ``^{}`` id for an
            annotated tag, per git-ls-remote(1)).
        head: the commit id of HEAD when advertised, else None.
        fetched_at: when the answer came from the remote, in seconds since the epoch.
        default_branch: the branch that the remote's HEAD points at (``git ls-remote --symref -- URL
            HEAD``, asked only when a suggestion needs it); ``""`` when it was asked and HEAD names no
            branch; None when it was not asked.
    """

    remote: str
    branches: dict[str, str]
    tags: dict[str, str]
    head: str | None = None
    fetched_at: float = 0.0
    default_branch: str | None = None

    def commits(self) -> frozenset[str]:
        """Every commit id that a branch or tag tip names (lower-case 40 hex)."""
        return frozenset(self.branches.values()) | frozenset(self.tags.values())


class FailureKind(str, enum.Enum):
    """Why a lookup gave no ref list."""

    NOT_FOUND = "not-found"  # the server says there is no such repository
    NOT_FOUND_OR_PRIVATE = "not-found-or-private"  # https asked for credentials (GitHub's answer to both)
    # The user's git config rewrote the URL (url.<base>.insteadOf) and the mirror it points at said "not
    # found", or asked for credentials: facts about the mirror, not the remote. ``detail`` is the URL git
    # asked.
    NOT_IN_MIRROR = "not-in-mirror"
    NOT_IN_MIRROR_OR_PRIVATE = "not-in-mirror-or-private"
    AUTH_REQUIRED = "auth-required"  # credentials were asked for (ssh: permission denied)
    UNREACHABLE = "unreachable"  # DNS, connection refused, TLS, …
    TIMEOUT = "timeout"  # no answer within --timeout
    OFFLINE = "offline"  # --offline and nothing in the cache
    TOO_LARGE = "too-large"  # the ref list passed a cap (refs, bytes, memory): git was stopped
    DEADLINE = "deadline"  # the lookup stage's deadline came first
    UNSAFE = "unsafe"  # the URL was refused before reaching git (transport or option-like)
    OTHER = "other"


class LookupFailure(NamedTuple):
    """A lookup that gave no ref list: a fact about the remote, never "ref not found".

    Attributes:
        remote: the normalised remote.
        kind: the class of failure.
        detail: git's first stderr line (credentials redacted) or a short reason.
    """

    remote: str
    kind: FailureKind
    detail: str = ""


LookupResult = RemoteRefs | LookupFailure


class CommitState(str, enum.Enum):
    """What a remote's history says about a pinned commit id; the value is what caches store.

    - ``IN_HISTORY``: a commit that a branch or tag of the remote reaches (is or descends to).
    - ``NOT_IN_HISTORY``: a commit that the server hands out by id, but that no branch or tag reaches (a
      commit of a fork, which GitHub serves through the parent's URL, or one left by a force-push).
    - ``ABSENT``: neither in the history nor served by id (an abbreviated id that no commit of the history
      starts with, or a full id the server does not have or will not serve).
    - ``AMBIGUOUS``: an abbreviated id that several commits of the history start with.
    - ``UNVERIFIED``: the history could not be consulted (the reason is in the verdict's ``detail``).
    """

    IN_HISTORY = "in-history"
    NOT_IN_HISTORY = "not-in-history"
    ABSENT = "absent"
    AMBIGUOUS = "ambiguous"
    UNVERIFIED = "unverified"


class CommitVerdict(NamedTuple):
    """What commit verification found for one commit id pinned to one remote.

    Attributes:
        remote: the normalised remote.
        pinned: the commit id as pinned, lower-cased (7 to 40 or 64 hex digits).
        state: the verdict.
        commit: the full id (``IN_HISTORY``, ``NOT_IN_HISTORY``), else None.
        describe: the nearest tag, as ``git describe --tags`` prints it (``v0.8.4-12-gc0ffee1``, or the tag
            alone for a tagged commit), when the commit is known and a tag reaches it; else None.
        candidates: for ``AMBIGUOUS``, ``(full id, describe or None)`` of each commit the id starts.
        detail: why, in a phrase for messages: how ``ABSENT`` was established, why ``UNVERIFIED``.
    """

    remote: str
    pinned: str
    state: CommitState
    commit: str | None = None
    describe: str | None = None
    candidates: tuple[tuple[str, str | None], ...] = ()
    detail: str = ""


class Related(NamedTuple):
    """Another place that a finding refers to (the other variant, the other file's pin).

    Attributes:
        path: display path of the file.
        line: 1-based line.
        column: 1-based column, in characters.
        message: what is there, in a phrase.
        same_value: True for the other end of the value that the finding is about: where that value is used
            when the finding sits where it is written (``ARG TAG=v1`` … ``--branch ${TAG}``), or where it is
            written when the finding sits at the use. A ``# reflint: ignore`` comment there suppresses the
            finding too, in whatever file it is.
    """

    path: str
    line: int
    column: int
    message: str
    same_value: bool = False


class Applicability(str, enum.Enum):
    """Whether a fix may be applied without asking: ruff's terms, and its rule for telling them apart.

    - ``SAFE``: what gets built stays the same, or the recipe's evident intent is kept (a release branch
      replaced by the tag at the very commit the branch points at now, a comment that corrects itself, a
      shallow option dropped): ``--fix`` applies it.
    - ``UNSAFE``: what gets built may change (another commit, a recipe rewritten around a checkout, a lock
      file left stale): applied only with ``--unsafe-fixes``.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"


class Edit(NamedTuple):
    """One replacement of a span of a file's text.

    Attributes:
        path: display path of the file edited (may differ from the finding's: a build argument another
            file sets).
        span: the characters replaced; ``end_line``/``end_column`` equal to ``line``/``column`` for an
            insertion. Positions count characters of the text as read (line ends read as one ``\\n``).
        content: the new text; ``\\n`` in it becomes the file's own line end when written.
        expected: what ``span`` holds now, when the fix depends on it (the ref it replaces); a file whose
            text differs there is not edited. None: not checked.
    """

    path: str
    span: Span
    content: str
    expected: str | None = None


class Fix(NamedTuple):
    """How to fix a finding: edits applied all together or not at all.

    Attributes:
        applicability: :attr:`Applicability.SAFE` or :attr:`Applicability.UNSAFE`.
        message: what the fix does, in a phrase (``replace "core_r0.18.0" by the tag "core_v0.18.0"``).
        edits: the replacements, none overlapping another, in file and position order.
    """

    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem that a rule reports.

    Attributes:
        code: the rule's stable code (``RL001``).
        rule: the rule's kebab-case name (``ref-not-found``).
        severity: the severity after context and config.
        path: display path of the file.
        span: where the problem is.
        message: what is wrong, in one sentence (no trailing newline).
        remote: the normalised remote concerned, or None.
        ref: the ref concerned (as resolved, else as written), or None.
        suggestion: the existing ref the user most likely meant, or None.
        related: other places the finding refers to.
        fix: the edits that fix it, or None when reflint cannot fix it (not compared: two findings that
            differ only in their fix are equal).
        use_path: the display path of the pin that the finding is about, when the finding was placed where
            the pin's value is written in another file (a build argument that a workflow gives a
            Dockerfile); None when it is ``path``. The fingerprint is keyed on it.
    """

    code: str
    rule: str
    severity: Severity
    path: str
    span: Span
    message: str
    remote: str | None = None
    ref: str | None = None
    suggestion: str | None = None
    related: tuple[Related, ...] = ()
    # How to fix it is not what it is: findings that differ only in their fix are equal.
    fix: Fix | None = field(default=None, compare=False)
    use_path: str | None = None

    def sort_key(self) -> tuple[str, int, int, str]:
        """Findings are sorted by path, line, column, code."""
        return (self.path, self.span.line, self.span.column, self.code)

    def fingerprint(self) -> str:
        """A key that survives edits above the finding: code, the path of the pin it is about, remote and
        ref, never line numbers.

        The baseline and SARIF ``partialFingerprints`` use it, so a changed ARG value (a new ref) is a new
        finding while a line moved down is not. The path is the pin's (``use_path`` when set), not the one
        the finding is shown at: a finding placed where its value is written keeps the key that baselines
        written when findings were shown at the use still hold.
        Returns 32 lower-case hex characters.
        """
        from ascend_reflint.digest import sha256

        path = self.use_path if self.use_path is not None else self.path
        key = "\0".join((self.code, path, self.remote or "", self.ref or ""))
        return sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class ScanSummary(NamedTuple):
    """Counts for the end of a scan.

    Attributes:
        files: files read (those that could not be read or parsed are the result's errors).
        pins: pins found (a file that could not be parsed has none).
        remotes: distinct lookups needed (one per URL that pins fetch, normalised).
        lookups: of those, how many were asked over the network in this run.
        cached: of those, how many were answered with a ref list from the cache.
        cached_failures: of those, how many were answered with a failure that the cache keeps for minutes
            (no such repository, credentials asked for, unreachable, timed out); ``--refresh`` asks again.
        checked: of those, how many answered: a ref list, or "no such repository" (from the network or
            the cache).
        unchecked_pins: pins whose lookup did not answer (unreachable, timed out, too large, deadline,
            offline without a cache entry, credentials asked for).
        lookup_rules: whether a rule that needs ref lists runs (with ``--select RL015`` none does, and
            no lookup is needed to vouch for the result).
    """

    files: int
    pins: int
    remotes: int
    lookups: int
    cached: int
    cached_failures: int = 0
    checked: int = 0
    unchecked_pins: int = 0
    lookup_rules: bool = True

    @property
    def unchecked(self) -> int:
        """Lookups that did not answer."""
        return self.remotes - self.checked

    @property
    def nothing_checked(self) -> bool:
        """True when lookups were needed and not one answered (the network is down, every remote is
        unreachable, ``--offline`` with an empty cache): the scan cannot vouch for any pin's ref."""
        return self.lookup_rules and self.remotes > 0 and self.checked == 0


class FixReport(NamedTuple):
    """What ``--fix`` applied, for the summary.

    Attributes:
        fixed: findings whose fix was applied.
        pinned: tags pinned to their commits (``--pin-commits``).
        files: files changed.
        rounds: rounds of fixes that applied something; past one, a rescan after the first fixes found more
            to fix (RL002 pins a release tag, then RL024 finds a newer one).
    """

    fixed: int
    pinned: int
    files: int
    rounds: int = 1


class ScanResult:
    """Everything a formatter needs to report a scan (a plain class: every command defines it, and nothing
    compares or copies one).

    Attributes:
        findings: the findings reported (after ``--fix``: those that remain).
        errors: files that could not be read or parsed.
        notices: files read with a caveat, and notices about the scan.
        summary: the counts.
        fixed: what ``--fix`` applied, or None without it.
        unsafe_fixes: ``--unsafe-fixes`` was given: unsafe fixes count as applicable (text marks them
            ``[*]``).
    """

    __slots__ = ("errors", "findings", "fixed", "notices", "summary", "unsafe_fixes")

    def __init__(
        self,
        findings: list[Finding],
        errors: list[FileMessage],
        notices: list[FileMessage],
        summary: ScanSummary,
        fixed: FixReport | None = None,
        unsafe_fixes: bool = False,
    ) -> None:
        self.findings = findings
        self.errors = errors
        self.notices = notices
        self.summary = summary
        self.fixed = fixed
        self.unsafe_fixes = unsafe_fixes
