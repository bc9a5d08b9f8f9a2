"""RL009, RL011, RL012 and RL015 (what the pin itself says) and RL010, RL014 (failed lookups)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ascend_reflint.check import Policy, load_policy, run_checks
from ascend_reflint.inventory import build_inventory
from ascend_reflint.model import (
    FailureKind,
    Finding,
    LookupFailure,
    Related,
    Resolution,
    Severity,
    Span,
    Via,
)

from .helpers import (
    DEEPEP,
    MEGATRON,
    PATH,
    REF_SPAN,
    URL_SPAN,
    VERL,
    by_lookup_key,
    make_pin,
    policy,
    refs_of,
    scan,
    span,
    unresolved,
)

DEEPEP_URL = "https://github.com/deepseek-ai/DeepEP.git"


def expected(
    code: str,
    rule: str,
    severity: Severity,
    message: str,
    *,
    remote: str | None = MEGATRON,
    ref: str | None,
    span: Span = REF_SPAN,
    related: tuple[Related, ...] = (),
) -> Finding:
    return Finding(code, rule, severity, PATH, span, message, remote=remote, ref=ref, related=related)


def extracted(tmp_path: Path, name: str, text: str, code: str) -> list[tuple[int, int, int, str]]:
    """Write ``text`` to ``tmp_path/name``, extract it for real, run the rules without lookups, and give
    ``(line, column, end column, message)`` of each finding of ``code``."""
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    found = run_checks(build_inventory([str(path)]).files, {}, Policy())
    return [(f.span.line, f.span.column, f.span.end_column, f.message) for f in found if f.code == code]


# RL009 unresolved-ref


def test_rl009_an_unresolved_ref_says_why_and_is_not_looked_up() -> None:
    pin = unresolved(make_pin("$MEGATRON_REF"), "$MEGATRON_REF is not set in this file")
    assert scan([pin], {MEGATRON: refs_of(MEGATRON)}) == [
        expected(
            "RL009",
            "unresolved-ref",
            Severity.INFO,
            'ref "$MEGATRON_REF" of github.com/nvidia/megatron-lm cannot be resolved statically '
            "($MEGATRON_REF is not set in this file), so it was not checked; a default value in the file "
            "lets reflint check it",
            ref="$MEGATRON_REF",
        )
    ]


def test_rl009_an_unresolved_url_is_reported_on_the_url_with_its_note() -> None:
    pin = replace(
        make_pin("v1", url="${SGL_REPO}", via=Via.CHECKOUT),
        resolution=Resolution.UNRESOLVED,
        resolution_note="$SGL_REPO is not set in this file",
    )
    assert scan([pin], {}, code="RL009") == [
        expected(
            "RL009",
            "unresolved-ref",
            Severity.INFO,
            'URL "${SGL_REPO}" cannot be resolved statically ($SGL_REPO is not set in this file), so this '
            "pin was not checked; a default value in the file lets reflint check it",
            remote=None,
            ref="v1",
            span=URL_SPAN,
        )
    ]


def test_rl009_an_unresolved_ref_and_url_are_both_named() -> None:
    pin = unresolved(
        make_pin("${SGL_BRANCH}", url="${SGL_REPO}", via=Via.CHECKOUT), "GitHub expression ${{ inputs.repo }}"
    )
    assert scan([pin], {}, code="RL009") == [
        expected(
            "RL009",
            "unresolved-ref",
            Severity.INFO,
            'ref "${SGL_BRANCH}" and URL "${SGL_REPO}" cannot be resolved statically (GitHub expression '
            "${{ inputs.repo }}), so this pin was not checked",
            remote=None,
            ref="${SGL_BRANCH}",
        )
    ]


def test_rl009_messages_of_extracted_pins_say_what_is_unresolved_and_advise_only_a_default(
    tmp_path: Path,
) -> None:
    script = (
        "#!/bin/bash\n"
        'git clone -b ${AIS_BENCH_TAG} --depth 1 "${CLONE_URL}" dir\n'
        'git clone "$URL" dir\n'
        "for v in v1 v2; do git clone -b $v https://github.com/o/r.git; done\n"
    )
    assert extracted(tmp_path, "build.sh", script, "RL009") == [
        (
            2,
            14,
            30,
            'ref "${AIS_BENCH_TAG}" and URL "${CLONE_URL}" cannot be resolved statically ($AIS_BENCH_TAG is '
            "not set in this file), so this pin was not checked; default values in the file let reflint "
            "check it",
        ),
        (
            3,
            12,
            16,
            'URL "$URL" cannot be resolved statically ($URL is not set in this file), so this pin was not '
            "checked; a default value in the file lets reflint check it",
        ),
        (
            4,
            33,
            35,
            'ref "$v" of github.com/o/r cannot be resolved statically ($v takes each value of the loop on '
            "line 4), so it was not checked",
        ),
    ]
    workflow = (  # a matrix computed at run time: its values are not known (a written one's are)
        "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    strategy:\n"
        "      matrix: ${{ fromJSON(vars.REFS) }}\n    steps:\n"
        "      - run: git clone -b ${{ matrix.ref }} https://github.com/o/r.git\n"
    )
    assert extracted(tmp_path, ".github/workflows/ci.yml", workflow, "RL009") == [
        (
            8,
            27,
            44,
            'ref "${{ matrix.ref }}" of github.com/o/r cannot be resolved statically (GitHub expression '
            "${{ matrix.ref }}), so it was not checked",
        ),
    ]
    dockerfile = (
        "FROM ubuntu\n"
        "ARG REF\n"
        "RUN git clone -b $REF https://github.com/o/r.git\n"
        'ARG COMMIT=""\n'
        'RUN if [ -n "$COMMIT" ]; then git init /w && git -C /w fetch https://github.com/o/r.git "$COMMIT" '
        "&& git -C /w checkout FETCH_HEAD; fi\n"
    )
    assert extracted(tmp_path, "Dockerfile", dockerfile, "RL009") == [
        (
            3,
            18,
            22,
            'ref "$REF" of github.com/o/r cannot be resolved statically (ARG REF has no default and no '
            "--build-arg), so it was not checked; a default on the ARG, or --build-arg on reflint's command "
            "line, lets reflint check it",
        ),
        (  # the checkout of FETCH_HEAD is reported where the fetch names the ref
            5,
            90,
            97,
            'ref "$COMMIT" of github.com/o/r cannot be resolved statically ($COMMIT is empty here, so it '
            "must come from outside the file), so it was not checked",
        ),
    ]


def test_rl009_passes_resolved_and_empty_pins() -> None:
    empty = unresolved(make_pin("$REF"), "REF is assigned only later", Resolution.EMPTY)
    assert scan([make_pin("core_v0.18.0"), empty], {}, code="RL009") == []


# RL011 unsafe-url


def test_rl011_a_helper_transport_is_refused() -> None:
    pin = make_pin(None, url="ext::sh -c touch% /tmp/pwned", via=Via.CLONE)
    assert scan([pin], {}, code="RL011") == [
        expected(
            "RL011",
            "unsafe-url",
            Severity.ERROR,
            "URL \"ext::sh -c touch% /tmp/pwned\" was refused and never given to git: transport 'ext::' is "
            "not "
            "allowed; use an https://, ssh:// or git@host:owner/name URL",
            remote=pin.remote,
            ref=None,
            span=URL_SPAN,
        )
    ]


def test_rl011_masks_credentials_in_the_url() -> None:
    pin = make_pin("v1", url="--upload-pack=https://user:s3cret@example.com/a/b")
    assert [f.message for f in scan([pin], {}, code="RL011")] == [
        'URL "--upload-pack=https://user:***@example.com/a/b" was refused and never given to git: it looks '
        "like a command-line option; use an https://, ssh:// or git@host:owner/name URL"
    ]


def test_rl011_reports_a_url_that_the_lookup_refused() -> None:
    pin = make_pin("core_v0.18.0")
    refused = LookupFailure(MEGATRON, FailureKind.UNSAFE, "transport 'fd::' is not allowed")
    found = scan([pin], {MEGATRON: refused}, code="RL011")
    assert [f.message for f in found] == [
        'URL "https://github.com/NVIDIA/Megatron-LM.git" was refused and never given to git: transport '
        "'fd::' is not allowed; use an https://, ssh:// or git@host:owner/name URL"
    ]


def test_rl011_passes_safe_and_unresolved_urls() -> None:
    pins = [
        make_pin("v1", url="git@github.com:NVIDIA/Megatron-LM.git"),
        make_pin("v1", url="ssh://git@gitcode.com/Ascend/MindSpeed.git"),
        make_pin("v1", url="/srv/mirror/tool.git"),
        unresolved(make_pin("v1", url="$REPO", remote=None), "REPO is not assigned in this file"),
    ]
    assert scan(pins, {}, code="RL011") == []


# RL012 empty-ref


@pytest.mark.parametrize(
    ("via", "consequence"),
    [
        (Via.CLONE_BRANCH, "`git clone --branch` gets no branch name and the clone fails"),
        (
            Via.CHECKOUT,
            "`git checkout` gets an empty ref and fails (unquoted, it gets none and leaves the clone where "
            "it was)",
        ),
        (Via.PIP_VCS, 'pip rejects the empty revision after "@"'),
        (Via.ACTION, "the `uses:` has no ref and the workflow is invalid"),
    ],
)
def test_rl012_an_empty_variable_says_what_the_command_does_with_it(via: Via, consequence: str) -> None:
    note = "MEGATRON_REF is assigned only on line 5, after this use"
    pin = unresolved(make_pin("$MEGATRON_REF", via=via), note, Resolution.EMPTY)
    assert scan([pin], {}) == [
        expected(
            "RL012",
            "empty-ref",
            Severity.ERROR,
            f'ref "$MEGATRON_REF" expands to nothing here ({note}), so {consequence}; assign the variable '
            "before this line",
            ref="$MEGATRON_REF",
        )
    ]


WRITTEN_EMPTY = {
    Via.CLONE_BRANCH: (
        '`--branch ""` names no branch or tag, so `git clone` fails; name the branch or tag to clone, or '
        "drop --branch to clone the default branch"
    ),
    Via.CHECKOUT: (
        '`git checkout ""` names no ref, so git refuses it and the build fails; name the branch, tag or '
        "commit to check out"
    ),
    Via.PIP_VCS: (
        'the revision after "@" is empty, so pip rejects the URL; write the ref after "@", or drop the "@" '
        "to install the default branch"
    ),
    Via.ACTION: (
        'the `uses:` has no ref after "@", so the workflow is invalid; write a tag or a full commit id'
    ),
}


@pytest.mark.parametrize("via", list(WRITTEN_EMPTY))
def test_rl012_a_ref_written_empty_is_told_apart_from_an_empty_variable(via: Via) -> None:
    pin = replace(make_pin("", via=via), resolution=Resolution.EMPTY, resolution_note="the ref is empty")
    assert scan([pin], {}) == [expected("RL012", "empty-ref", Severity.ERROR, WRITTEN_EMPTY[via], ref="")]


def test_rl012_refs_written_empty_in_a_script(tmp_path: Path) -> None:
    script = (
        "#!/bin/bash\n"
        'git clone --branch "" https://github.com/o/r.git\n'
        "pip install git+https://github.com/o/r.git@\n"
        'git clone https://github.com/o/r.git d && cd d && git checkout ""\n'
    )
    assert extracted(tmp_path, "a.sh", script, "RL012") == [
        (2, 20, 22, WRITTEN_EMPTY[Via.CLONE_BRANCH]),
        (3, 43, 44, WRITTEN_EMPTY[Via.PIP_VCS]),
        (4, 64, 66, WRITTEN_EMPTY[Via.CHECKOUT]),
    ]


def test_rl012_an_empty_url() -> None:
    pin = unresolved(
        make_pin(None, url="$REPO", via=Via.CLONE, remote=None),
        "REPO is set only in stage builder",
        Resolution.EMPTY,
    )
    found = scan([pin], {}, code="RL012")
    assert [(f.message, f.span) for f in found] == [
        (
            'URL "$REPO" expands to nothing here (REPO is set only in stage builder), so `git clone` gets no '
            "repository; assign the variable before this line",
            URL_SPAN,
        )
    ]


# RL015 unpinned-clone


def test_rl015_a_clone_without_ref_names_the_newest_release() -> None:
    pin = make_pin(None, url=DEEPEP_URL, via=Via.CLONE)
    assert scan([pin], {DEEPEP: refs_of(DEEPEP)}) == [
        expected(
            "RL015",
            "unpinned-clone",
            Severity.WARNING,
            "`git clone` of github.com/deepseek-ai/deepep pins no ref, so the build takes whatever the "
            "default "
            'branch holds that day; add `--branch <tag>` (newest release: "v1.2.1"), or check out a commit '
            "id "
            "after the clone",
            remote=DEEPEP,
            ref=None,
            span=URL_SPAN,
        )
    ]


def test_rl015_a_pip_url_without_ref() -> None:
    pin = make_pin(None, url="https://github.com/ISEEKYAN/mbridge.git", via=Via.PIP_VCS)
    assert [f.message for f in scan([pin], {}, code="RL015")] == [
        "pip's git+ URL of github.com/iseekyan/mbridge pins no ref, so the build takes whatever the default "
        'branch holds that day; end the URL with "@<tag>" or "@<commit id>"'
    ]


def test_rl015_not_for_head_tracking_remotes_nor_pinned_clones() -> None:
    verl = make_pin(None, url="https://github.com/volcengine/verl.git", via=Via.CLONE)
    tracking = policy(head_tracking_remotes=(VERL,))
    assert scan([verl], {VERL: refs_of(VERL)}, tracking, code="RL015") == []
    assert [f.code for f in scan([verl], {VERL: refs_of(VERL)}, policy(), code="RL015")] == ["RL015"]
    # The shipped pack exempts verl in verl's own repository only (tests/cli/test_scan_own_repository.py).
    assert [f.code for f in scan([verl], {VERL: refs_of(VERL)}, load_policy(), code="RL015")] == ["RL015"]
    pinned = [make_pin("v1.2.1", url=DEEPEP_URL), make_pin("main", url=DEEPEP_URL, via=Via.CHECKOUT)]
    assert scan(pinned, {}, code="RL015") == []


# RL010 remote-unreachable and RL014 repo-not-found: once per file and remote

#: The second pin of two_pins(), at its URL token: the related place of the one finding for both.
SECOND_PIN = (Related(PATH, 7, 53, "another pin of github.com/nvidia/megatron-lm"),)


def two_pins() -> list:
    return [
        make_pin("core_v0.18.0"),
        make_pin("core_v0.19.0", span=span(7, 40, 52), url_span=span(7, 53, 95)),
        # clone --branch <id> fails whatever the remote holds (RL007): it needs no lookup and is not counted.
        make_pin("d98e8a64ddf34856e74b24714e3bedb2f5a39553", span=span(9, 20, 60)),
    ]


@pytest.mark.parametrize(
    ("kind", "detail", "reason"),
    [
        (FailureKind.TIMEOUT, "no answer within 20 s", "timed out (no answer within 20 s)"),
        (FailureKind.OFFLINE, "unknown (offline): not in the cache", "unknown (offline): not in the cache"),
        (FailureKind.OFFLINE, "", "unknown (offline): not in the cache"),
        (
            FailureKind.UNREACHABLE,
            "fatal: unable to access 'https://github.com/NVIDIA/Megatron-LM.git/': Could not resolve host",
            "unreachable (fatal: unable to access 'https://github.com/NVIDIA/Megatron-LM.git/': Could not "
            "resolve host)",
        ),
        (
            FailureKind.OTHER,
            "fatal: protocol error: bad line length",
            "git failed (fatal: protocol error: bad line length)",
        ),
    ],
)
def test_rl010_a_failed_lookup_is_reported_once_at_the_first_pin(
    kind: FailureKind, detail: str, reason: str
) -> None:
    found = scan(two_pins(), {MEGATRON: LookupFailure(MEGATRON, kind, detail)})
    assert [f for f in found if f.code != "RL007"] == [
        expected(
            "RL010",
            "remote-unreachable",
            Severity.WARNING,
            f"github.com/nvidia/megatron-lm could not be looked up: {reason}, so 2 pins of it in this file "
            "went unchecked",
            ref="core_v0.18.0",
            span=URL_SPAN,
            related=SECOND_PIN,
        )
    ]


def test_rl010_one_pin_and_credentials() -> None:
    failure = LookupFailure(
        MEGATRON, FailureKind.AUTH_REQUIRED, "git@github.com: Permission denied (publickey)."
    )
    assert [f.message for f in scan([make_pin("core_v0.18.0")], {MEGATRON: failure})] == [
        "github.com/nvidia/megatron-lm could not be looked up: git asked for credentials "
        "(git@github.com: Permission denied (publickey).), so this pin went unchecked; if it is private, "
        "allow reflint your credentials for its host (--credentials-for HOST), or list it under "
        "private-remotes in a rule pack"
    ]
    private = policy(private_remotes=(MEGATRON,))
    assert scan([make_pin("core_v0.18.0")], {MEGATRON: failure}, private) == []


def test_rl010_each_file_gets_its_own_finding() -> None:
    from ascend_reflint.check import run_checks
    from ascend_reflint.model import FileKind, SourceFile

    failure = LookupFailure(MEGATRON, FailureKind.TIMEOUT, "no answer within 20 s")
    files = [
        SourceFile(
            path=path, abspath=f"/repo/{path}", kind=FileKind.DOCKERFILE, pins=[make_pin("v1", path=path)]
        )
        for path in ("a/Dockerfile", "b/Dockerfile")
    ]
    pins = [pin for source in files for pin in source.pins]
    found = run_checks(files, by_lookup_key(pins, {MEGATRON: failure}), policy())
    assert [(f.code, f.path) for f in found] == [("RL010", "a/Dockerfile"), ("RL010", "b/Dockerfile")]


def test_rl014_not_found_or_private() -> None:
    failure = LookupFailure(
        MEGATRON,
        FailureKind.NOT_FOUND_OR_PRIVATE,
        "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
    )
    assert scan(two_pins(), {MEGATRON: failure}, code="RL014") == [
        expected(
            "RL014",
            "repo-not-found",
            Severity.ERROR,
            "github.com/nvidia/megatron-lm was not found or is private: if it is mistyped, `git clone` fails "
            "here; a private one needs credentials in git's config and its host allowed them "
            "(--credentials-for HOST), or its remote listed under private-remotes (2 pins in this file)",
            ref="core_v0.18.0",
            span=URL_SPAN,
            related=SECOND_PIN,
        )
    ]


def test_rl014_not_found_says_what_fails_in_the_words_of_the_pins_kind() -> None:
    failure = LookupFailure(MEGATRON, FailureKind.NOT_FOUND, "ERROR: Repository not found.")
    head = "github.com/nvidia/megatron-lm does not exist (ERROR: Repository not found.), so "
    fails = {
        Via.CLONE_BRANCH: "`git clone` fails here",
        Via.PIP_VCS: "pip fails to install it",
        Via.ACTION: "GitHub Actions cannot find the action and the job fails before it starts",
        Via.SUBMODULE: "`git submodule update` fails",
        Via.PRE_COMMIT: "pre-commit cannot install its hooks",
    }
    for via, what in fails.items():
        found = scan([make_pin("core_v0.18.0", via=via)], {MEGATRON: failure})
        assert [f.message for f in found] == [f"{head}{what}; check the owner and name in the URL"]


def test_rl014_names_what_fails_for_every_way_of_pinning() -> None:
    from ascend_reflint.check.rules.rl014_repo_not_found import _FAILS

    assert set(_FAILS) == set(Via)


def test_rl010_not_rl014_for_a_mirror_without_a_copy() -> None:
    mirror = "https://mirror.example/github.com/NVIDIA/Megatron-LM.git"
    failure = LookupFailure(MEGATRON, FailureKind.NOT_IN_MIRROR, mirror)
    assert [
        (f.code, f.severity, f.message) for f in scan([make_pin("core_v0.18.0")], {MEGATRON: failure})
    ] == [
        (
            "RL010",
            Severity.WARNING,
            "the mirror that your git config sends https://github.com/NVIDIA/Megatron-LM.git to "
            "(url.<base>.insteadOf) has no copy of github.com/nvidia/megatron-lm, so this pin went "
            "unchecked; add it to the mirror to have it checked",
        )
    ]


def test_rl014_not_for_private_remotes_and_rl010_not_for_not_found() -> None:
    private = policy(private_remotes=(MEGATRON,))
    for kind in (FailureKind.NOT_FOUND, FailureKind.NOT_FOUND_OR_PRIVATE):
        failure = LookupFailure(MEGATRON, kind, "x")
        assert scan([make_pin("core_v0.18.0")], {MEGATRON: failure}, private) == []
        assert scan([make_pin("core_v0.18.0")], {MEGATRON: failure}, code="RL010") == []


def test_rl010_and_rl014_not_for_pins_that_needed_no_lookup() -> None:
    full_id_only = make_pin("d98e8a64ddf34856e74b24714e3bedb2f5a39553")
    for kind in (FailureKind.TIMEOUT, FailureKind.NOT_FOUND):
        found = scan([full_id_only], {MEGATRON: LookupFailure(MEGATRON, kind, "x")})
        assert [f.code for f in found] == ["RL007"]


def test_rl010_uses_the_ref_span_when_the_url_span_is_unknown() -> None:
    pin = replace(make_pin("core_v0.18.0"), url_span=None)
    found = scan([pin], {MEGATRON: LookupFailure(MEGATRON, FailureKind.TIMEOUT, "")})
    assert [(f.span, f.message) for f in found] == [
        (
            REF_SPAN,
            "github.com/nvidia/megatron-lm could not be looked up: timed out, so this pin went unchecked",
        )
    ]
