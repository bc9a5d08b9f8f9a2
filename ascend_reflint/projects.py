"""The projects of a scan: a folder that holds several repositories is several projects.

The project root (:func:`ascend_reflint.config.project_root`) is one project; each git repository below it
(a folder that holds its own ``.git``, as a clone, a worktree or a checked-out submodule does) is another,
with the files under it that no deeper repository takes. Files of different projects are never compared:
the cross-file rules (RL004, RL005, RL006) group, match globs and count majorities within one project, with
paths relative to its own folder; a workflow's ``docker build -f docker/Dockerfile`` is looked for in its
own repository; and documentation that clones a project's own ``origin`` is that project's (RL002, RL015).

A nested repository with a config of its own (``.reflint.yaml``, or ``[tool.reflint]`` in its
``pyproject.toml``) gets its rule knowledge from it, as a scan of that repository alone would: the remotes
it lists, its variants, drift families, environment pairs and severities. What decides which files and
rules a scan runs (``select``, ``ignore``, ``exclude``, ``per-file-ignores``, the fix settings) stays the
scanned folder's config: one run has one selection, as with ruff's ``--config``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ascend_reflint.check.policy import Policy


def project_of(abspath: str, root: str) -> str:
    """The folder of the project that holds the file at ``abspath``: the deepest folder from the file's
    own up to (not including) ``root`` that holds a ``.git`` entry, else ``root``.

    Args:
        abspath: the absolute path of a file under ``root`` (a file outside it belongs to ``root``).
        root: the absolute project root of the scan.
    """
    return _project_of_folder(os.path.dirname(abspath), root)


@functools.lru_cache(maxsize=4096)
def _project_of_folder(folder: str, root: str) -> str:
    if folder == root or not folder.startswith(root.rstrip(os.sep) + os.sep):
        return root
    if os.path.lexists(os.path.join(folder, ".git")):
        return folder
    return _project_of_folder(os.path.dirname(folder), root)


class Projects:
    """The projects of one scan and the rule knowledge of each.

    Attributes:
        root: the absolute project root of the scan.
        policy: the rule knowledge of the root's project, and of each nested one without a config.
        policies: nested project folder → its rule knowledge, for those with a config of their own.
    """

    def __init__(self, root: str, policy: Policy, policies: Mapping[str, Policy] = MappingProxyType({})):
        self.root, self.policy, self.policies = root, policy, policies

    def folder_of(self, abspath: str) -> str:
        """The folder of the project that holds the file at ``abspath`` (see :func:`project_of`)."""
        return project_of(abspath, self.root)

    def policy_of(self, abspath: str) -> Policy:
        """The rule knowledge that applies to the file at ``abspath``."""
        return self.policy_for(self.folder_of(abspath)) if self.policies else self.policy

    def policy_for(self, folder: str) -> Policy:
        """The rule knowledge of the project in ``folder`` (one :meth:`folder_of` gave)."""
        return self.policies.get(folder, self.policy)

    @classmethod
    def of(
        cls, root: str, policy: Policy, abspaths: Iterable[str], nested_policy: Callable[[str], Policy | None]
    ) -> Projects:
        """The projects of the files at ``abspaths``.

        Args:
            root: the absolute project root.
            policy: the root's rule knowledge.
            abspaths: the files read.
            nested_policy: a nested project's folder → its own rule knowledge, or None when it has no
                config of its own.

        Raises:
            ConfigError: a nested project's config cannot be read or is not valid.
            PolicyError: a rule pack it names cannot be read or is not valid.
        """
        _project_of_folder.cache_clear()  # a folder may have become a repository since the last scan
        folders = {project_of(path, root) for path in abspaths} - {root}
        policies = {
            folder: found for folder in sorted(folders) if (found := nested_policy(folder)) is not None
        }
        return cls(root, policy, policies)
