"""``reflint refs`` on a fixture tree of every kind that holds shell or build syntax: the exact JSON a user
gets, and the traps that must give nothing.

The tree (``data/shell-kinds``): CMake (``FetchContent`` through ``set()`` variables and ``GIT_SHALLOW``, a
``GIT_TAG`` that an ``if()`` sets two ways, ``ExternalProject_Add`` without ``GIT_TAG``, which checks out
``master``, CPM's shorthands and named arguments, an archive ``URL``); a Makefile (a clone in one rule and the
checkout in another, a continued recipe line with the ``@`` prefix, a recursive variable defined after the
one that uses it, ``$$`` for the shell, a variable never set); GitLab CI (top-level and job ``variables:`` in
both value forms, ``include: project:``/``ref:``, ``component:``, ``local:`` with the file it names, a
``!reference`` item, a ``parallel: matrix`` variable); a Dockerfile named ``*_Dockerfile`` with ``ADD`` of git
repositories (fragment, scp-like, query forms, an archive); a Dockerfile template; an Apptainer definition
(``%arguments``, ``%environment`` seen by ``%runscript`` only); cargo and npm/yarn; Markdown (a MyST
substitution, a console session with a root prompt, a Python block, an MkDocs admonition, a Dockerfile
block), reStructuredText (a Python directive, an unmarked literal block, one that ``.. highlight::`` marks)
and a notebook (``!pip`` with ``$BRANCH``, ``%pip`` with ``{BRANCH}``, a ``%%bash`` cell, a Markdown cell,
Python).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile.spans import span_violations

from ascend_reflint.cli import main
from ascend_reflint.inventory import build_inventory

DATA = Path(__file__).parent / "data"
#: Repositories that only a trap names: a comment, a bracket comment, a block in Python, an unmarked
#: literal block, a Python cell, a commented-out line of a bash block.
TRAPS = ("commented", "bracketed", "python-block", "python-rst", "unmarked", "python-cell")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "shell-kinds"
    shutil.copytree(DATA / "shell-kinds", root)
    monkeypatch.chdir(root)
    return root


def test_refs_json_is_the_exact_inventory(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "--format", "json"]) == 0
    expected = json.loads((DATA / "shell-kinds-refs.json").read_text(encoding="utf-8"))
    assert json.loads(capsys.readouterr().out) == expected


def test_traps_give_nothing(tree: Path) -> None:
    urls = [pin.url for pin in build_inventory(["."]).pins]
    assert [url for url in urls if any(trap in url for trap in TRAPS)] == []


def test_refs_text_names_each_new_way_of_pinning(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "CMakeLists.txt", "cmake/deps.cmake", "Makefile", ".gitlab-ci.yml"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        ".gitlab-ci.yml:9:10: https://$CI_SERVER_FQDN/dl/jet/gitlab-templates.git main (gitlab-include)",
        ".gitlab-ci.yml:12:72: gitlab.com/components/secret-detection 1.1.2 (gitlab-include)",
        ".gitlab-ci.yml:18:37: github.com/nvidia/megatron-lm core_v0.12.1 (clone-branch, depth 1)",
        ".gitlab-ci.yml:20:72: github.com/nvidia/transformerengine v2.4 (pip-vcs)",
        ".gitlab/ci/build.yml:7:30: github.com/nvidia/apex $APEX_REF (checkout)",  # include: local
        "CMakeLists.txt:15:18: github.com/nvidia/cutlass v3.9.2 (fetchcontent, depth 1)",
        "CMakeLists.txt:25:85: github.com/fmtlib/fmt ${FMT_TAG} (external-project)",
        "CMakeLists.txt:26:41: github.com/pytorch/gloo master (external-project)",
        "Makefile:12:19: github.com/dao-ailab/flash-attention 3a9bfd076f98746c73362328958dbc68d145fbec "
        "(checkout)",
        "Makefile:15:68: github.com/vllm-project/vllm v0.9.2.post1 (pip-vcs)",
        "Makefile:16:54: github.com/o/never $(NEVER_SET) (clone-branch)",
        "cmake/deps.cmake:1:33: github.com/nlohmann/json v3.10.5 (cpm)",
        "cmake/deps.cmake:2:30: github.com/fmtlib/fmt 7.1.3 (cpm)",
        "cmake/deps.cmake:5:11: github.com/gabime/spdlog v1.8.2 (cpm)",
        "cmake/deps.cmake:8:92: github.com/jbeder/yaml-cpp 65c1c270dbe7eec37b2df2531d7497c4eea79aee (cpm)",
    ]


def test_unresolved_pins_say_why(tree: Path) -> None:
    notes = {
        (pin.path, pin.span.line): pin.resolution_note
        for pin in build_inventory(["."]).pins
        if not pin.resolved
    }
    assert notes == {
        (".gitlab-ci.yml", 9): (
            "the project is on the GitLab instance that runs the pipeline, which the file does not name; "
            "`gitlab-host: HOST` in reflint's config names it"
        ),
        (".gitlab/ci/build.yml", 7): "$APEX_REF takes each value of parallel: matrix",
        ("CMakeLists.txt", 25): "${FMT_TAG} is set differently depending on the if() on line 20 (line 23)",
        ("Makefile", 16): (
            "$(NEVER_SET) is not set in this Makefile (make takes it from its command line or the "
            "environment)"
        ),
        (
            "README.md",
            5,
        ): "{{ vllm_version }} is a template placeholder, filled in when the template is rendered",
        ("docker/Apptainerfile.rocm", 13): "$SGLANG_REF is not set in this file",
        ("docker/Dockerfile.j2", 3): (
            "{{ mindspeed_ref }} is a template placeholder, filled in when the template is rendered"
        ),
        ("scripts/tools.sh", 4): "npm installs the highest tag in the range semver:^2.0 when it runs",
    }


def test_every_span_is_where_the_value_is_written(tree: Path) -> None:
    inventory = build_inventory(["."])
    assert {source.path: span_violations(source) for source in inventory.files} == {
        source.path: [] for source in inventory.files
    }


def test_no_docs_leaves_out_documentation(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "--no-docs", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert ({pin["kind"] for pin in document["pins"]}, document["files_scanned"]) == (
        {"cmake", "makefile", "gitlab-ci", "dockerfile", "apptainer", "shell"},
        9,
    )


def test_a_template_that_does_not_read_as_its_kind_is_a_notice(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / ".gitlab-ci.yml.j2").write_text(
        "job:\n  script: [\n{% if x %}\n    git clone https://github.com/o/r.git\n", encoding="utf-8"
    )
    assert main(["refs", ".gitlab-ci.yml.j2", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["pins"], document["errors"]) == ([], [])
    assert [notice["message"] for notice in document["notices"]] == [
        "read as a gitlab-ci template with its template syntax masked: line 2, column 11: malformed YAML: "
        "'[' is never closed: at line 5, column 1, did not find expected ',' or ']'; read as far as it goes"
    ]
