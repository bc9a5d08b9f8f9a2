"""pip VCS pins in requirements files, and the files their ``-r``/``-c`` lines name
(ascend_reflint.extract.requirements)."""

from __future__ import annotations

import textwrap

from ascend_reflint.extract.requirements import extract_requirements
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via


def extract(text: str, path: str = "requirements.txt") -> SourceFile:
    source = SourceFile(path=path, abspath=f"/repo/{path}", kind=FileKind.REQUIREMENTS)
    source.text = textwrap.dedent(text).lstrip("\n")
    extract_requirements(source)
    return source


def summary(pin: Pin) -> str:
    """``line:column-end_column ref | url span url -> remote`` for a pin on one line."""
    assert pin.url_span is not None and pin.span.line == pin.span.end_line
    ref, url = pin.span, pin.url_span
    return (
        f"{ref.line}:{ref.column}-{ref.end_column} {pin.ref} | "
        f"{url.line}:{url.column}-{url.end_column} {pin.url} -> {pin.remote}"
    )


def test_full_pin_for_a_requirement_line() -> None:
    source = extract("torch==2.7\ngit+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.2\n")
    assert source.pins == [
        Pin(
            path="requirements.txt",
            kind=FileKind.REQUIREMENTS,
            via=Via.PIP_VCS,
            span=Span(2, 47, 2, 59),
            url="https://github.com/NVIDIA/Megatron-LM.git",
            remote="github.com/nvidia/megatron-lm",
            ref="core_v0.12.2",
            ref_text="core_v0.12.2",
            url_span=Span(2, 5, 2, 46),
        )
    ]


def test_requirement_forms() -> None:
    source = extract(
        """
        -e git+https://github.com/o/edit.git@v1#egg=edit
        mbridge @ git+https://github.com/o/pep508.git@v2 ; python_version >= "3.10"
        dlimp@git+https://github.com/o/noref
        git+ssh://git@github.com/o/ssh.git@release/v3#subdirectory=py&egg=p
        git+git@github.com:o/scp.git@v4
        --editable=git+https://github.com/o/eq.git@v5
        git+https://github.com/o/frag.git@v6#egg=frag
        """
    )
    assert [summary(pin) for pin in source.pins] == [
        "1:38-40 v1 | 1:8-37 https://github.com/o/edit.git -> github.com/o/edit",
        "2:47-49 v2 | 2:15-46 https://github.com/o/pep508.git -> github.com/o/pep508",
        "3:11-37 None | 3:11-37 https://github.com/o/noref -> github.com/o/noref",
        "4:36-46 release/v3 | 4:5-35 ssh://git@github.com/o/ssh.git -> github.com/o/ssh",
        "5:30-32 v4 | 5:5-29 git@github.com:o/scp.git -> github.com/o/scp",
        "6:44-46 v5 | 6:16-43 https://github.com/o/eq.git -> github.com/o/eq",
        "7:35-37 v6 | 7:5-34 https://github.com/o/frag.git -> github.com/o/frag",
    ]
    assert [(pin.via, pin.resolution) for pin in source.pins] == [(Via.PIP_VCS, Resolution.RESOLVED)] * 7


def test_comments_are_not_pins_but_fragments_are_not_comments() -> None:
    source = extract(
        """
        # git+https://github.com/o/commented.git@v0
          # git+https://github.com/o/indented.git@v0
        pkg @ git+https://github.com/o/kept.git@v1 # git+https://github.com/o/trailing.git@v0
        git+https://github.com/o/hash.git@v2#egg=hash
        """
    )
    assert [(pin.span.line, pin.url, pin.ref) for pin in source.pins] == [
        (3, "https://github.com/o/kept.git", "v1"),
        (4, "https://github.com/o/hash.git", "v2"),
    ]


def test_backslash_continuation_maps_each_part_to_its_line() -> None:
    source = extract("git+https://github.com/o/cont.git@\\\nv1 --hash=sha256:x\npkg \\\n# note\n")
    (pin,) = source.pins
    assert (pin.span, pin.url_span, pin.ref) == (Span(2, 1, 2, 3), Span(1, 5, 1, 34), "v1")


def test_comment_line_ends_a_continuation() -> None:
    source = extract("pkg>=1 \\\n# git+https://github.com/o/a.git@v0\ngit+https://github.com/o/b.git@v1\n")
    assert [(pin.span.line, pin.ref) for pin in source.pins] == [(3, "v1")]


def test_pip_environment_variables_are_unresolved() -> None:
    source = extract(
        """
        git+https://github.com/o/r.git@${REF}
        git+https://${TOKEN}@github.com/o/private.git@v1
        git+https://${HOST}/o/r.git@v2
        """
    )
    ref_var, token, host = source.pins
    assert (ref_var.ref, ref_var.ref_text, ref_var.resolution, ref_var.resolution_note) == (
        None,
        "${REF}",
        Resolution.UNRESOLVED,
        "pip replaces ${REF} with an environment variable when it reads the file",
    )
    assert ref_var.span == Span(1, 32, 1, 38)
    assert (token.url, token.remote, token.ref, token.resolution) == (
        "https://github.com/o/private.git",
        "github.com/o/private",
        "v1",
        Resolution.RESOLVED,
    )
    assert (host.url, host.remote, host.ref, host.resolution) == (
        "https://${HOST}/o/r.git",
        None,
        "v2",
        Resolution.UNRESOLVED,
    )


def test_other_vcs_and_archives_are_not_git_pins() -> None:
    source = extract("hg+https://x/r@v1\nhttps://github.com/o/r/archive/v1.tar.gz\nfoo-git+bar==1\n")
    assert source.pins == []


def test_files_named_by_r_and_c_in_every_spelling() -> None:
    source = extract(
        """
        -r base.txt
        --requirement=gpu/extra.txt
        -rshort.txt
        -c "constraints file.txt"  # a comment
        --constraint ../shared/pins.txt
        # -r commented.txt
        -r https://example.com/remote.txt
        -r ${DIR}/env.txt
        -e git+https://github.com/o/edit.git@v1
        --index-url https://pypi.org/simple
        """
    )
    assert source.named_files == [
        ("base.txt", FileKind.REQUIREMENTS),
        ("gpu/extra.txt", FileKind.REQUIREMENTS),
        ("short.txt", FileKind.REQUIREMENTS),
        ("constraints file.txt", FileKind.REQUIREMENTS),
        ("../shared/pins.txt", FileKind.REQUIREMENTS),
    ]
    assert [pin.ref for pin in source.pins] == ["v1"]
