"""Pins in pyproject.toml (ascend_reflint.extract.pyproject): requirement strings, uv sources, Poetry git
dependencies, at the exact characters of their values."""

from __future__ import annotations

import textwrap

import pytest

from ascend_reflint.extract import ExtractError
from ascend_reflint.extract.pyproject import extract_pyproject
from ascend_reflint.model import FileKind, Pin, RefType, Resolution, SourceFile, Span


def extract(text: str, path: str = "pyproject.toml") -> SourceFile:
    source = SourceFile(path=path, abspath=f"/repo/{path}", kind=FileKind.PYPROJECT)
    source.text = textwrap.dedent(text).lstrip("\n")
    extract_pyproject(source)
    return source


def summary(pin: Pin) -> str:
    """``via line:column-end_column ref [ref_type] | url span url -> remote`` for a pin on one line."""
    assert pin.url_span is not None and pin.span.line == pin.span.end_line
    ref, url = pin.span, pin.url_span
    kind = f" [{pin.ref_type.value}]" if pin.ref_type is not None else ""
    return (
        f"{pin.via.value} {ref.line}:{ref.column}-{ref.end_column} {pin.ref}{kind} | "
        f"{url.line}:{url.column}-{url.end_column} {pin.url} -> {pin.remote}"
    )


REQUIREMENT_ARRAYS = """
[build-system]
requires = ["hatchling", "tool @ git+https://github.com/o/build.git@b1"]

[project]
name = "x"
dependencies = [
    # "old @ git+https://github.com/o/old.git@v0",
    "dep @ git+https://github.com/o/dep.git@v1",
    'lit @ git+https://github.com/o/lit.git@v2',
    "esc @ git+https://github.com/o/esc.git@\\u0076\\u0033 ; python_version < \\"3.12\\"",
]

[project.optional-dependencies]
gpu = ["dep @ git+https://github.com/o/dep.git@v1"]

[dependency-groups]
dev = [{include-group = "gpu"}, "grp @ git+https://github.com/o/grp.git@v4"]

[tool.uv]
override-dependencies = ["ovr @ git+https://github.com/o/ovr.git@v5"]
extra-build-dependencies = { flash-attn = ["ebd @ git+https://github.com/o/ebd.git@v6"] }

[tool.other]
not-a-dependency = "x @ git+https://github.com/o/ignored.git@v9"
"""


def test_requirement_strings_in_file_order() -> None:
    source = extract(REQUIREMENT_ARRAYS, path="sub/pyproject.toml")
    assert [(summary(pin), pin.ref_text) for pin in source.pins] == [
        ("pip-vcs 2:69-71 b1 | 2:38-68 https://github.com/o/build.git -> github.com/o/build", "b1"),
        ("pip-vcs 8:45-47 v1 | 8:16-44 https://github.com/o/dep.git -> github.com/o/dep", "v1"),
        ("pip-vcs 9:45-47 v2 | 9:16-44 https://github.com/o/lit.git -> github.com/o/lit", "v2"),
        ("pip-vcs 10:45-57 v3 | 10:16-44 https://github.com/o/esc.git -> github.com/o/esc", "v3"),
        ("pip-vcs 14:48-50 v1 | 14:19-47 https://github.com/o/dep.git -> github.com/o/dep", "v1"),
        ("pip-vcs 17:73-75 v4 | 17:44-72 https://github.com/o/grp.git -> github.com/o/grp", "v4"),
        ("pip-vcs 20:66-68 v5 | 20:37-65 https://github.com/o/ovr.git -> github.com/o/ovr", "v5"),
        ("pip-vcs 21:84-86 v6 | 21:55-83 https://github.com/o/ebd.git -> github.com/o/ebd", "v6"),
    ]
    assert {(pin.path, pin.kind) for pin in source.pins} == {("sub/pyproject.toml", FileKind.PYPROJECT)}


def test_uv_sources_in_every_form() -> None:
    source = extract(
        """
        [tool.uv.sources]
        flash_mla = [
            { git = "https://github.com/deepseek-ai/FlashMLA", rev = "nv_dev", marker = "os_name == 'nt'" },
            # { git = "https://github.com/o/commented", tag = "v0" },
            { git = "https://github.com/deepseek-ai/FlashMLA", tag = "v1.0.0", marker = "os_name != 'nt'" },
        ]
        deep_gemm = { git = "https://github.com/deepseek-ai/DeepGEMM.git", rev = "714dd1a4a980f7937a74343" }
        te = { git = "git+https://github.com/NVIDIA/TransformerEngine.git", branch = "release_v2.11" }
        unpinned = { git = "https://github.com/o/unpinned" }
        torch = [{ index = "pytorch-cu128" }]
        local = { path = "../local", editable = true }

        [tool.uv.sources.table-form]
        tag = "v2"
        git = "https://github.com/o/table.git"
        """
    )
    assert [summary(pin) for pin in source.pins] == [
        "uv-source 3:63-69 nv_dev | 3:14-53 https://github.com/deepseek-ai/FlashMLA -> "
        "github.com/deepseek-ai/flashmla",
        "uv-source 5:63-69 v1.0.0 [tag] | 5:14-53 https://github.com/deepseek-ai/FlashMLA -> "
        "github.com/deepseek-ai/flashmla",
        "uv-source 7:75-98 714dd1a4a980f7937a74343 | 7:22-65 "
        "https://github.com/deepseek-ai/DeepGEMM.git -> github.com/deepseek-ai/deepgemm",
        "uv-source 8:79-92 release_v2.11 [branch] | 8:19-66 "
        "https://github.com/NVIDIA/TransformerEngine.git -> github.com/nvidia/transformerengine",
        "uv-source 9:21-50 None | 9:21-50 https://github.com/o/unpinned -> github.com/o/unpinned",
        "uv-source 14:8-10 v2 [tag] | 15:8-38 https://github.com/o/table.git -> github.com/o/table",
    ]


def test_poetry_git_dependencies_in_every_table() -> None:
    source = extract(
        """
        [tool.poetry.dependencies]
        python = "^3.10"
        mbridge = { git = "https://github.com/ISEEKYAN/mbridge.git", tag = "v0.15.1" }
        multi = [
            { git = "git@github.com:o/multi.git", branch = "main", markers = "sys_platform == 'linux'" },
            { version = "^1.0", markers = "sys_platform != 'linux'" },
        ]

        [tool.poetry.dev-dependencies]
        legacy = { git = "https://github.com/o/legacy.git", rev = "abc1234" }

        [tool.poetry.group.docs.dependencies]
        sphinx-ext = {git = "https://github.com/o/ext.git", rev = "v3"}

        [tool.poetry.extras]
        gpu = ["mbridge"]
        """
    )
    assert [summary(pin) for pin in source.pins] == [
        "poetry 3:69-76 v0.15.1 [tag] | 3:20-59 https://github.com/ISEEKYAN/mbridge.git -> "
        "github.com/iseekyan/mbridge",
        "poetry 5:53-57 main | 5:14-40 git@github.com:o/multi.git -> github.com/o/multi",
        "poetry 10:60-67 abc1234 | 10:19-50 https://github.com/o/legacy.git -> github.com/o/legacy",
        "poetry 13:60-62 v3 | 13:22-50 https://github.com/o/ext.git -> github.com/o/ext",
    ]


def test_an_empty_ref_is_shown_on_its_quotes() -> None:
    (pin,) = extract('[tool.uv.sources]\nx = { git = "https://github.com/o/x", tag = "" }\n').pins
    assert (pin.ref, pin.ref_text, pin.span, pin.resolution, pin.resolution_note, pin.ref_type) == (
        "",
        "",
        Span(2, 45, 2, 47),
        Resolution.EMPTY,
        '`tag = ""` names no ref',
        RefType.TAG,
    )


def test_traps_give_nothing() -> None:
    source = extract(
        """
        # [tool.uv.sources]
        # x = { git = "https://github.com/o/commented", tag = "v1" }
        [tool.uv]
        note = '''
        x = { git = "https://github.com/o/in-a-string", tag = "v1" }
        '''
        [tool.other.sources]
        y = { git = "https://github.com/o/other-tool", tag = "v1" }
        [tool.poetry.dependencies]
        z = { path = "../z" }
        [project]
        name = "x"
        dependencies = ["plain>=1", "archive @ https://github.com/o/r/archive/v1.tar.gz"]
        """
    )
    assert source.pins == []


def test_invalid_toml_is_an_extract_error() -> None:
    with pytest.raises(ExtractError, match="invalid TOML"):
        extract("[project\n")
