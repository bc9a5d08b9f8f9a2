"""Pins in conda environment files (``environment.yml``): the ``pip:`` list of ``dependencies``.

Facts used here (conda's "Managing environments: creating an environment file manually", and conda's pip
installer ``conda.env.installers.pip``): ``dependencies`` lists conda packages and at most one mapping
``{pip: [...]}``, whose items conda writes, one per line, into a requirements file in the environment
file's folder and gives to ``pip install -r``. So each item is a line of a pip requirements file: a
``git+URL@REF`` requirement, a ``-r``/``-c`` file relative to the environment file's folder, a comment after
``#``, pip's ``${VAR}``; :func:`ascend_reflint.extract.requirements.read_requirement` reads it.
"""

from __future__ import annotations

from ascend_reflint.extract.requirements import read_requirement
from ascend_reflint.extract.yamlpos import (
    LineIndex,
    YamlMapping,
    YamlScalar,
    YamlSequence,
    parse_yaml,
    scalar_source_map,
)
from ascend_reflint.model import SourceFile


def extract_conda(source: SourceFile) -> None:
    """Fill ``source.pins`` and ``source.named_files`` from the ``pip:`` items of a conda environment file.

    Args:
        source: the file, with ``text`` read.

    Raises:
        ExtractError: for malformed YAML.
    """
    assert source.text is not None
    root = parse_yaml(source.text)
    dependencies = root.get("dependencies") if isinstance(root, YamlMapping) else None
    if not isinstance(dependencies, YamlSequence):
        return
    lines = LineIndex(source.text)
    for dependency in dependencies.items:
        pip = dependency.get("pip") if isinstance(dependency, YamlMapping) else None
        if not isinstance(pip, YamlSequence):
            continue
        for item in pip.items:
            if isinstance(item, YamlScalar) and item.value:
                read_requirement(source, item.value, scalar_source_map(source.text, item, lines))
