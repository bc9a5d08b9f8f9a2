"""Dockerfile pins end to end (ascend_reflint.extract.dockerfile with the real shell extractor).

Each test asserts the pins exactly, positions included. The fixtures follow real recipes: the ROCm
Dockerfile of volcengine/verl clones in one RUN and checks out in a later one after WORKDIR, and its Ascend
Dockerfiles put ``#`` comment lines inside RUN continuations.
"""

from __future__ import annotations

from ascend_reflint.extract.dockerfile import extract_dockerfile
from ascend_reflint.model import FileKind, Pin, SourceFile, Span, Via


def extract(text: str, build_args: dict[str, str] | None = None) -> SourceFile:
    source = SourceFile(
        path="docker/Dockerfile.rocm", abspath="/r/docker/Dockerfile.rocm", kind=FileKind.DOCKERFILE
    )
    source.text = text
    extract_dockerfile(source, build_args or {})
    return source


def summary(pin: Pin) -> str:
    """``line:column-end via stage ref [resolution] url`` for a pin whose ref is on one line."""
    span = pin.span
    return (
        f"{span.line}:{span.column}-{span.end_column} {pin.via.value} stage={pin.stage} ref={pin.ref} "
        f"[{pin.resolution.value}] {pin.url}"
    )


def cut(source: SourceFile, span: Span | None) -> str:
    """The file text that a one-line span covers."""
    assert source.text is not None and span is not None and span.line == span.end_line
    return source.text.split("\n")[span.line - 1][span.column - 1 : span.end_column - 1]


ROCM = """\
FROM rlsys/rocm-6.3.4-patch:rocm6.3.4-numa-patch_ubuntu-22.04
WORKDIR /workspace/
RUN git clone --recursive https://github.com/ROCm/TransformerEngine.git
WORKDIR /workspace/TransformerEngine
RUN git checkout 236178e5
# git checkout bb061ade
# git checkout 864405c
"""


def test_clone_workdir_checkout_across_runs_is_one_pin() -> None:
    source = extract(ROCM)
    assert source.pins == [
        Pin(
            path="docker/Dockerfile.rocm",
            kind=FileKind.DOCKERFILE,
            via=Via.CHECKOUT,
            span=Span(5, 18, 5, 26),
            url="https://github.com/ROCm/TransformerEngine.git",
            remote="github.com/rocm/transformerengine",
            ref="236178e5",
            ref_text="236178e5",
            url_span=Span(3, 27, 3, 72),
            clone_span=Span(3, 5, 3, 14),
            recurse_submodules=True,
            submodules_stale=True,  # no `git submodule update` after the checkout (RL027)
            stage="0",
        )
    ]
    assert source.notices == []


ASCEND = """\
FROM cann:8.3.rc1-910b-ubuntu22.04-py3.11
RUN ARCH=$(uname -m) && \\
    # Set extra pip index for x86_64 platform
    echo "[LOG INFO] Detected architecture: $ARCH" && \\
    # Clone libs
    # git clone --depth 1 --branch v0.9.1 https://github.com/vllm-project/vllm.git && \\
    git clone --depth 1 --branch v0.11.0 https://github.com/vllm-project/vllm.git && \\

    git clone https://gitcode.com/Ascend/MindSpeed.git && \\
    cd MindSpeed && git checkout f2b0977e && cd .. && \\
    git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git
"""


def test_comment_and_empty_lines_inside_a_continuation_are_dropped() -> None:
    source = extract(ASCEND)
    assert [summary(pin) for pin in source.pins] == [
        "7:34-41 clone-branch stage=0 ref=v0.11.0 [resolved] https://github.com/vllm-project/vllm.git",
        "10:34-42 checkout stage=0 ref=f2b0977e [resolved] https://gitcode.com/Ascend/MindSpeed.git",
        "11:34-46 clone-branch stage=0 ref=core_v0.12.1 [resolved] https://github.com/NVIDIA/Megatron-LM.git",
    ]
    assert [cut(source, pin.url_span) for pin in source.pins] == [
        "https://github.com/vllm-project/vllm.git",
        "https://gitcode.com/Ascend/MindSpeed.git",
        "https://github.com/NVIDIA/Megatron-LM.git",
    ]
    assert source.pins[1].url_span == Span(9, 15, 9, 55)


def test_exec_form_and_heredoc_pins_point_into_the_file() -> None:
    source = extract(
        "FROM ubuntu AS builder\n"
        'RUN ["git", "clone", "-b", "v1", "https://github.com/o/exec.git"]\n'
        'RUN ["bash", "-c", "git clone --branch v2 https://github.com/o/bashc.git"]\n'
        "RUN <<EOF\n"
        "git clone --depth 1 --branch v3 https://github.com/o/heredoc.git\n"
        "FROM scratch AS not_a_stage\n"
        "EOF\n"
        "RUN cat <<EOF > /etc/pins && git clone -b v4 https://github.com/o/data.git\n"
        "git clone -b v0 https://github.com/o/in-data-heredoc.git\n"
        "EOF\n"
    )
    assert [summary(pin) for pin in source.pins] == [
        "2:29-31 clone-branch stage=builder ref=v1 [resolved] https://github.com/o/exec.git",
        "3:40-42 clone-branch stage=builder ref=v2 [resolved] https://github.com/o/bashc.git",
        "5:30-32 clone-branch stage=builder ref=v3 [resolved] https://github.com/o/heredoc.git",
        "8:43-45 clone-branch stage=builder ref=v4 [resolved] https://github.com/o/data.git",
    ]
    assert [cut(source, pin.url_span) for pin in source.pins] == [
        "https://github.com/o/exec.git",
        "https://github.com/o/bashc.git",
        "https://github.com/o/heredoc.git",
        "https://github.com/o/data.git",
    ]


VARIABLES = """\
ARG MCORE_REF=core_v0.18.0
ARG TE_REF=release_v2.5
FROM ubuntu AS base
# ARG VLLM_REF=v0.11.0
ARG MCORE_REF
ARG TE_REF=v2.2.1
RUN --mount=type=cache,target=/root/.cache \\
    git clone --depth 1 --branch ${MCORE_REF} https://github.com/NVIDIA/Megatron-LM.git && \\
    git clone -b "${VLLM_REF}" https://github.com/vllm-project/vllm.git && \\
    pip install git+https://github.com/NVIDIA/TransformerEngine.git@${TE_REF} \\
        git+https://github.com/o/pkg.git@${PKG_REF:-v9}
ARG PKG_REF
"""


def test_arg_values_resolve_refs_and_show_empty_variables() -> None:
    source = extract(VARIABLES)
    assert [summary(pin) for pin in source.pins] == [
        "8:34-46 clone-branch stage=base ref=core_v0.18.0 [resolved] https://github.com/NVIDIA/Megatron-LM.git",
        "9:19-30 clone-branch stage=base ref=None [empty] https://github.com/vllm-project/vllm.git",
        "10:69-78 pip-vcs stage=base ref=v2.2.1 [resolved] https://github.com/NVIDIA/TransformerEngine.git",
        "11:42-56 pip-vcs stage=base ref=v9 [resolved] https://github.com/o/pkg.git",
    ]
    assert [pin.ref_text for pin in source.pins] == [
        "${MCORE_REF}",
        "${VLLM_REF}",
        "${TE_REF}",
        "${PKG_REF:-v9}",
    ]
    assert source.pins[1].resolution_note == "VLLM_REF is set only on a commented-out line (4)"


def test_build_args_override_declared_args_only() -> None:
    source = extract(VARIABLES, {"MCORE_REF": "core_r0.18.0", "TE_REF": "v2.3", "PKG_REF": "v10"})
    assert [pin.ref for pin in source.pins] == ["core_r0.18.0", None, "v2.3", "v9"]


def test_onbuild_run_and_stage_inheritance() -> None:
    source = extract(
        'ARG REMOTE_VLLM="1"\n'
        "FROM base AS fetch_vllm_1\n"
        '#ARG VLLM_BRANCH="main"\n'
        "ARG VLLM_REPO=https://github.com/HollowMan6/vllm.git\n"
        'ARG VLLM_BRANCH="sleep_amd"\n'
        "ONBUILD RUN git clone ${VLLM_REPO} \\\n"
        "            && cd vllm \\\n"
        "            && git checkout ${VLLM_BRANCH}\n"
        "FROM fetch_vllm_${REMOTE_VLLM} AS fetch_vllm\n"
        "WORKDIR /app\n"
        "RUN git clone $VLLM_REPO other && cd other && git checkout $VLLM_BRANCH\n"
    )
    assert [summary(pin) for pin in source.pins] == [
        "8:29-43 checkout stage=fetch_vllm_1 ref=sleep_amd [resolved] https://github.com/HollowMan6/vllm.git",
        "11:60-72 checkout stage=fetch_vllm ref=sleep_amd [resolved] https://github.com/HollowMan6/vllm.git",
    ]
    assert source.pins[0].url_span == Span(6, 23, 6, 35)
