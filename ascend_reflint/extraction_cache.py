"""The extraction cache: what extraction found in a file, kept on disk, so that a scan never parses a file
that has not changed since a scan before it (ruff's cache is the model).

An entry holds one file's :class:`~ascend_reflint.model.SourceFile` as extraction left it, its text
excepted (pins with the words as written, env settings, notices, the error, the files it names, and
whatever field the model gains), in the generic form of :mod:`ascend_reflint.codec`. It is valid for one
**key**, the digest of:

- the file's bytes (its content hash), and the file as discovery handed it over (path, kind, …);
- reflint's own code (:func:`code_digest`: the files of the installed package, so that an editable
  install re-extracts when its code changes while its version does not);
- every setting that changes what extraction gives (``--build-arg`` values, ``--max-file-size``, the
  config's settings): :meth:`ExtractionCache.with_settings`.

Values that other files give (build arguments that a script passes to ``docker build``, matrix values)
are applied after extraction, in resolve, so they never enter a file's entry: an entry stays a function of
one file. The file's extraction with the values one invocation gives (:mod:`ascend_reflint.invocations`:
the pins that those values change, its command issues and invocations) is an entry of its own
(:meth:`ExtractionCache.invoked_entry`), keyed by the file's key and those values. The kinds whose
extraction reads more than the file (:data:`REPOSITORY_KINDS`: ``.gitmodules``, whose pins come from the
index) are keyed by what else they read too.

Layout: ``<cache dir>/extract/<project>/<file>.json``, one folder per project root and one entry per file
(named by the digest of the file as discovery handed it over; the entry of an edited file is replaced), so
the cache does not grow with edits. An entry is ``{"format": FORMAT, "key": KEY, "file": {…}}``.

Several processes may share the folder, and someone else may have written it (a CI cache restored from
another branch): an entry is written atomically with :func:`ascend_reflint.output.write_file`, and read
as a side file of bounded size (:func:`ascend_reflint.sidefile.read_side_file`, no symbolic link) whose
data must have the form of a ``SourceFile`` field for field, of the file that discovery handed over (its
path, kind …); an entry that is unreadable, too large, malformed, of another format, of another key or of
another file counts as absent and is replaced. An extraction that holds
a credential (a token in a URL) is never written: the cache never stores a secret.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ascend_reflint.model import FileKind, SourceFile

# The digest module and json are imported by the functions that use them: a scan of no file needs neither.

if TYPE_CHECKING:
    from pathlib import Path

    from ascend_reflint.config import Config

#: The entry format; an entry of another format is ignored (and replaced).
FORMAT = 1
#: The folder of the extraction cache inside the cache directory.
FOLDER = "extract"
#: The largest entry read, in bytes (a pin takes about 500: some 60,000 pins in one file).
ENTRY_MAX_BYTES = 32 * 1024 * 1024
#: Kinds whose extraction reads more than the file: ``.gitmodules`` pins the commits that the index
#: records (:mod:`ascend_reflint.extract.submodule`); their keys also hold a fingerprint of what else is
#: read (:func:`ascend_reflint.worktree.repository_state`), and without one they are not cached.
REPOSITORY_KINDS = frozenset({FileKind.SUBMODULE})
#: Kinds that another file can run with values it gives (:class:`~ascend_reflint.model.Invocation`): the
#: keys of their entries are kept for :meth:`ExtractionCache.invoked_entry` (not every file's: a scan of
#: 20,000 files would hold them all).
INVOKED_KINDS = frozenset({FileKind.DOCKERFILE, FileKind.WORKFLOW})
#: The field that an entry never holds: the text is read from the file (it is the key).
_TEXT_FIELD = "text"
#: The fields that discovery sets, which the key holds: an entry that gives other values is not this file's
#: (damaged, or written by someone else), and is never let change where the scan reads or writes.
_IDENTITY_FIELDS = ("path", "abspath", "kind", "explicit", "template")


class ExtractionCache:
    """The extraction cache of one project.

    Args:
        directory: reflint's cache directory (the entries go to ``directory/extract/<project>/``); None for
            the user cache dir.
        root: the project root (entries are kept per project).
        settings: what changes extraction (see :meth:`with_settings`); JSON-ready values.

    Attributes:
        notices: why entries could not be written (each distinct one once).
    """

    def __init__(
        self, directory: str | os.PathLike[str] | None, root: str, settings: Mapping[str, Any] | None = None
    ) -> None:
        self._given = directory
        self._directory: Path | None = None
        self.root = root
        self._folder: Path | None = None
        self._settings = dict(settings or {})
        self._base: str | None = None
        self._folder_made = False
        self._keys: dict[str, tuple[str, str]] = {}
        self.notices: list[str] = []

    @property
    def directory(self) -> Path:
        """reflint's cache directory (the user cache dir, found when first needed, when none was given)."""
        if self._directory is None:
            # pathlib is imported here, not by the module: a scan that finds no file never needs it.
            from pathlib import Path

            if self._given is not None:
                self._directory = Path(self._given)
            else:
                from ascend_reflint.lookup.cache import default_cache_dir

                self._directory = default_cache_dir()
        return self._directory

    @property
    def folder(self) -> Path:
        """The folder of this project's entries."""
        if self._folder is None:
            self._folder = self.directory / FOLDER / _project_folder(self.root)
        return self._folder

    def with_settings(self, **settings: Any) -> ExtractionCache:
        """A cache of the same project whose keys also hold ``settings`` (JSON-ready values that change
        extraction: ``build_args={…}``, ``max_bytes=N``)."""
        return ExtractionCache(self._given, self.root, {**self._settings, **settings})

    def entry(self, source: SourceFile, data: bytes) -> CacheEntry | None:
        """The entry of ``source`` as discovery handed it over (before extraction) with the bytes
        ``data``; None when it cannot be cached (a ``.gitmodules`` whose repository git would find
        elsewhere)."""
        from ascend_reflint.digest import sha256

        identity = _canonical(_form(source))
        if source.kind in REPOSITORY_KINDS:
            from ascend_reflint.worktree import repository_state

            state = repository_state(os.path.dirname(source.abspath))
            if state is None:
                return None
            data = b"%s\0%s" % (state.encode("utf-8", "surrogatepass"), data)
        name = sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()
        key = sha256(
            f"{self._key_base()}\0{identity}\0{sha256(data).hexdigest()}".encode("utf-8", "surrogatepass")
        ).hexdigest()
        if source.kind in INVOKED_KINDS:
            self._keys[source.abspath] = (name, key)
        return CacheEntry(self, os.path.join(self.folder, f"{name}.json"), key)

    def invoked_entry(self, target: SourceFile, slot: str, given: Mapping[str, Any]) -> CacheEntry | None:
        """The entry of ``target`` extracted again with the values that an invocation gives it
        (:mod:`ascend_reflint.invocations`), valid for the file as :meth:`entry` keyed it and for ``given``;
        None when this cache made no entry for ``target``.

        Args:
            target: the invoked file, read (and keyed) by this cache before.
            slot: which invocation, by where it is written (the invoking file and its place among that
                file's invocations): an edited value replaces the slot's entry, so the cache does not grow
                with edits.
            given: everything the extraction takes besides the file (the values given, ``--build-arg``):
                JSON-ready values.
        """
        from ascend_reflint.digest import sha256

        base = self._keys.get(target.abspath)
        if base is None:
            return None
        name = sha256(f"{base[0]}\0invoked\0{slot}".encode("utf-8", "surrogatepass"))
        key = sha256(f"{base[1]}\0{_canonical(given)}".encode("utf-8", "surrogatepass"))
        return CacheEntry(self, os.path.join(self.folder, f"{name.hexdigest()}.json"), key.hexdigest())

    def settings_digest(self) -> str:
        """A digest of the entry format, reflint's code and the settings: what every key holds besides the
        file (the tree index, :mod:`ascend_reflint.tree_index`, is valid for these only)."""
        from ascend_reflint.digest import sha256

        return sha256(self._key_base().encode("utf-8", "surrogatepass")).hexdigest()

    def make_folder(self) -> None:
        """Create the project's folder (owner only) if this cache has not yet."""
        if not self._folder_made:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            self._folder_made = True

    def notice(self, message: str) -> None:
        """Record why something could not be written (each distinct message once)."""
        if message not in self.notices:
            self.notices.append(message)

    def _key_base(self) -> str:
        """The part of every key that does not depend on the file: format, code and settings."""
        if self._base is None:
            self._base = f"{FORMAT}\0{code_digest()}\0{_canonical(self._settings)}"
        return self._base


class CacheEntry(NamedTuple):
    """The entry of one file: where it is stored and the key it must hold.

    Attributes:
        cache: the cache it belongs to.
        path: the entry's file.
        key: the key (see the module docstring).
    """

    cache: ExtractionCache
    path: str
    key: str

    def load(self, source: SourceFile) -> bool:
        """Fill ``source`` (every field but its text) from the entry; True when it did, False when the
        entry is absent or unusable (``source`` is then unchanged)."""
        import json

        from ascend_reflint.codec import decode
        from ascend_reflint.sidefile import read_side_file
        from ascend_reflint.textfile import FileReadError

        try:
            document = json.loads(read_side_file(self.path, ENTRY_MAX_BYTES, follow_links=False))
            if type(document) is not dict or document.get("format") != FORMAT:
                return False
            if document.get("key") != self.key:
                return False
            found = decode(SourceFile, document.get("file"))
        except (FileReadError, ValueError, RecursionError):
            # ValueError: not JSON, or not the form of a SourceFile (CodecError); RecursionError: garbage
            # nested deeper than the JSON decoder's stack ("[[[[…").
            return False
        if any(getattr(found, name) != getattr(source, name) for name in _IDENTITY_FIELDS):
            return False
        for field in dataclasses.fields(SourceFile):
            if field.name != _TEXT_FIELD:
                setattr(source, field.name, getattr(found, field.name))
        return True

    def store(self, source: SourceFile) -> None:
        """Write what extraction found in ``source`` as the entry, replacing any older one atomically.
        Never raises for a file-system error (a notice on the cache says why); writes nothing when the
        extraction holds a credential."""
        from ascend_reflint.output import OutputFileError, json_text, write_file

        form = _form(source)
        if _holds_secret(form):
            return
        document = {"format": FORMAT, "key": self.key, "file": form}
        try:
            self.cache.make_folder()
            remove_special_file(self.path)
            write_file(self.path, json_text(document, indent=None), inside=str(self.cache.directory))
        except OSError as error:
            self.cache.notice(
                f"cannot write the extraction cache in {self.cache.directory}: {error.strerror}"
            )
        except OutputFileError as error:
            self.cache.notice(f"cannot write the extraction cache in {self.cache.directory}: {error.reason}")


def for_project(cache_dir: str | os.PathLike[str] | None, config: Config) -> ExtractionCache:
    """The extraction cache of the project that ``config`` is the config of.

    Args:
        cache_dir: reflint's cache directory (None: the user cache dir,
            :func:`ascend_reflint.lookup.cache.default_cache_dir`).
        config: the config in force; its root names the project, and its settings are in every key (a
            config setting may change what extraction gives).
    """
    settings = None if config.settings is None else config.settings.model_dump(mode="json")
    return ExtractionCache(cache_dir, config.root, {"config": settings})


def code_digest() -> str:
    """A digest of reflint's own code: :func:`package_digest` of the installed package, computed once."""
    global _CODE_DIGEST
    if _CODE_DIGEST is None:
        from ascend_reflint import __version__

        _CODE_DIGEST = package_digest(os.path.dirname(os.path.abspath(__file__)), __version__)
    return _CODE_DIGEST


def package_digest(package: str, version: str) -> str:
    """A digest of ``version`` and of the relative path, size and modification time of every file under the
    folder ``package`` (``__pycache__`` aside).

    Editing a file of an editable install, installing another version or another build changes it: the
    stat of the package's ~120 files costs a fraction of a millisecond, where hashing their contents would
    cost several on every run.
    """
    from ascend_reflint.digest import sha256

    digest = sha256(version.encode())
    # Every path that the walk gives starts with the folder and a separator: the relative path is the rest
    # (os.path.relpath, for each of some 160 files, was half of this function's time).
    start = len(os.path.join(package, ""))
    for folder, folders, names in os.walk(package):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(names):
            path = os.path.join(folder, name)
            status = os.stat(path)
            digest.update(f"\0{path[start:]}\0{status.st_size}\0{status.st_mtime_ns}".encode())
    return digest.hexdigest()


_CODE_DIGEST: str | None = None


def remove_special_file(path: str) -> None:
    """Remove a FIFO, socket or device at ``path``, which someone else put where only reflint writes
    (:func:`~ascend_reflint.output.write_file` refuses to replace what is not a file or a link)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode) or stat.S_ISDIR(mode)):
        os.unlink(path)


def _form(source: SourceFile) -> dict[str, Any]:
    """The cache form of ``source`` without its text."""
    from ascend_reflint.codec import encode

    form: dict[str, Any] = encode(source)
    form.pop(_TEXT_FIELD, None)
    return form


def _project_folder(root: str) -> str:
    """``<name>-<digest>``: the root's folder name (for people) and a digest of its real path."""
    from ascend_reflint.digest import sha256

    real = os.path.realpath(root)
    name = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(real))[:40] or "root"
    return f"{name}-{sha256(real.encode('utf-8', 'surrogatepass')).hexdigest()[:24]}"


def _canonical(value: Any) -> str:
    """One JSON text per value: sorted keys, no spaces."""
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _holds_secret(form: Any) -> bool:
    """True when a string of ``form`` holds a credential that :func:`ascend_reflint.remote.redact` masks."""
    from ascend_reflint.remote import redact

    if isinstance(form, str):
        return redact(form) != form
    if isinstance(form, dict):
        return any(_holds_secret(value) for value in form.values())
    if isinstance(form, list):
        return any(_holds_secret(value) for value in form)
    return False
