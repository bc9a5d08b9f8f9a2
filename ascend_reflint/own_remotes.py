"""The scanned project's own remotes: which repository it is, read from its files as data.

A project's recipes may clone the project itself at its head on purpose (verl's Dockerfiles clone verl;
a README's install steps clone the repository they are in): the rule packs' ``self-head-tracking-remotes``
and documentation's own clones are exempt from RL002 and RL015 in a scan of that project only
(:attr:`ascend_reflint.check.context.PinContext.tracks_head`). The project is known by:

- the ``origin`` URL of the work tree's git config (:func:`ascend_reflint.worktree.enclosing_origin_url`),
  as ``actions/checkout`` and ``git clone`` set it;
- the repository URLs its package metadata declares at the root, which a fork or a mirror keeps where its
  ``origin`` names the fork: ``[project.urls]`` of ``pyproject.toml`` (PEP 621, any label, as PyPI shows
  them) and the ``url=`` and ``project_urls=`` string literals of the ``setup(...)`` call in ``setup.py``,
  read with :func:`ast.parse` (never run).

A declared URL counts when it names a repository (``https://github.com/volcengine/verl``; a page of one,
``…/Megatron-LM/releases``, is cut to the repository on hosts whose repositories are ``owner/name``); a
documentation site does not.
"""

from __future__ import annotations

import ast
import functools
import os
import sys

#: Hosts whose repositories are always ``owner/name`` (no subgroups), so a deeper path is a page of one.
_OWNER_NAME_HOSTS = frozenset({"github.com", "gitcode.com", "gitee.com"})


@functools.lru_cache(maxsize=8)
def own_remotes(root: str | None) -> frozenset[str]:
    """The normalised remotes (``host/owner/name``) that the project at ``root`` is (see the module
    docstring); empty without a root, or when neither its git config nor its metadata names one.

    Args:
        root: the absolute project root, or None.

    Returns:
        The remotes, as :func:`ascend_reflint.remote.normalise_remote` gives them.
    """
    if root is None:
        return frozenset()
    from ascend_reflint.remote import normalise_remote
    from ascend_reflint.worktree import enclosing_origin_url

    origin = enclosing_origin_url(root)
    remotes = {normalise_remote(origin)} if origin else set()
    remotes.update(_repository(url) for url in (*_pyproject_urls(root), *_setup_py_urls(root)))
    return frozenset(remote for remote in remotes if remote)


def _repository(url: str) -> str | None:
    """The repository ``url`` names, normalised, or None when it names none."""
    from ascend_reflint.remote import normalise_remote

    remote = normalise_remote(url)
    parts = remote.split("/") if remote else []
    if len(parts) == 3 or (len(parts) > 3 and parts[0] in _OWNER_NAME_HOSTS):
        return "/".join(parts[:3])
    return None


def _read(root: str, name: str) -> str | None:
    """The text of the root's file ``name`` (a regular file inside the root, of bounded size), or None."""
    from ascend_reflint.sidefile import CONFIG_MAX_BYTES, inside_root, read_side_file
    from ascend_reflint.textfile import FileReadError

    if inside_root(root, name) is None:
        return None
    try:
        return read_side_file(os.path.join(root, name), CONFIG_MAX_BYTES)
    except FileReadError:
        return None


def _pyproject_urls(root: str) -> list[str]:
    """The values of ``[project.urls]`` in the root's ``pyproject.toml``."""
    text = _read(root, "pyproject.toml")
    if text is None or "urls" not in text:
        return []
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        urls = tomllib.loads(text).get("project", {}).get("urls", {})
    except (tomllib.TOMLDecodeError, RecursionError, AttributeError):
        return []
    return [url for url in urls.values() if isinstance(url, str)] if isinstance(urls, dict) else []


def _setup_py_urls(root: str) -> list[str]:
    """The string literals given as ``url=`` and in ``project_urls=`` to ``setup(...)`` in the root's
    ``setup.py``."""
    text = _read(root, "setup.py")
    if text is None or "url" not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    urls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) == "setup":
            for keyword in node.keywords:
                if keyword.arg == "url":
                    urls += _strings(keyword.value)
                elif keyword.arg == "project_urls" and isinstance(keyword.value, ast.Dict):
                    urls += [url for value in keyword.value.values for url in _strings(value)]
    return urls


def _called(call: ast.Call) -> str | None:
    """The name of the function ``call`` calls (``setup`` of ``setup(...)`` and ``setuptools.setup(...)``)."""
    function = call.func
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else None


def _strings(node: ast.expr) -> list[str]:
    return [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []
