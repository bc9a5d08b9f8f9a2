"""``--format sarif`` (report/sarif.py): SARIF 2.1.0 that the OASIS schema and GitHub code scanning accept."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, replace
from pathlib import Path

from integration_support import sarif_schema_errors

from ascend_reflint import __version__
from ascend_reflint.model import (
    Applicability,
    Edit,
    FileMessage,
    Finding,
    Fix,
    Related,
    ScanResult,
    ScanSummary,
    Severity,
    Span,
)
from ascend_reflint.output import json_text as dumps
from ascend_reflint.report.sarif import rule_descriptor, sarif_document, write_sarif

SUMMARY = ScanSummary(files=2, pins=2, remotes=1, lookups=1, cached=0, checked=1)
#: A rule's helpUri: its row of docs/rules.md (whose anchors tests/check/test_rules_listing.py checks), on
#: the repository that pyproject.toml's Homepage names.
HELP = "https://github.com/ascend-reflint/reflint/blob/main/docs/rules.md#{}"
SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


@dataclass(frozen=True)
class StubRule:
    """The shape of ``ascend_reflint.check.RuleInfo``."""

    code: str
    name: str
    severity: Severity
    needs_lookup: bool
    doc: str


RULES = [
    StubRule(
        "RL001",
        "ref-not-found",
        Severity.ERROR,
        True,
        "## What it does\nChecks that the ref exists on the remote. Tags and branches both count.\n\n"
        "## Why is this bad?\nThe build fails at `git clone`.\n",
    ),
    StubRule("RL002", "branch-pin", Severity.ERROR, True, "A release branch is pinned where a tag exists."),
    StubRule("RL009", "shallow-checkout", Severity.WARNING, False, ""),
]

BRANCH_PIN = Finding(
    code="RL002",
    rule="branch-pin",
    severity=Severity.ERROR,
    path="docker/Dockerfile",
    span=Span(2, 34, 2, 46),
    message="'core_r0.18.0' is a branch of github.com/nvidia/megatron-lm; the release is tag 'core_v0.18.0'",
    remote="github.com/nvidia/megatron-lm",
    ref="core_r0.18.0",
    suggestion="core_v0.18.0",
    related=(Related("scripts/install [a].sh", 4, 11, "install.sh pins 'core_v0.18.0'"),),
)


def test_document_for_one_finding_and_one_unreadable_file(tmp_path: Path) -> None:
    result = ScanResult([BRANCH_PIN], [FileMessage("bin/tool", "not UTF-8 text")], [], SUMMARY)
    document = sarif_document(result, RULES, str(tmp_path), cwd=str(tmp_path))
    assert document == {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "reflint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": "https://github.com/ascend-reflint/reflint",
                        "rules": [
                            {
                                "id": "RL001",
                                "name": "ref-not-found",
                                "shortDescription": {"text": "Checks that the ref exists on the remote."},
                                "fullDescription": {
                                    "text": "Checks that the ref exists on the remote. "
                                    "Tags and branches both count."
                                },
                                "help": {"text": RULES[0].doc.strip(), "markdown": RULES[0].doc.strip()},
                                "helpUri": HELP.format("rl001"),
                                "defaultConfiguration": {"level": "error"},
                                "properties": {"tags": ["reflint", "needs-lookup"]},
                            },
                            {
                                "id": "RL002",
                                "name": "branch-pin",
                                "shortDescription": {
                                    "text": "A release branch is pinned where a tag exists."
                                },
                                "fullDescription": {"text": "A release branch is pinned where a tag exists."},
                                "help": {
                                    "text": "A release branch is pinned where a tag exists.",
                                    "markdown": "A release branch is pinned where a tag exists.",
                                },
                                "helpUri": HELP.format("rl002"),
                                "defaultConfiguration": {"level": "error"},
                                "properties": {"tags": ["reflint", "needs-lookup"]},
                            },
                            {
                                "id": "RL009",
                                "name": "shallow-checkout",
                                "shortDescription": {"text": "shallow-checkout"},
                                "fullDescription": {"text": "shallow-checkout"},
                                "help": {"text": "shallow-checkout", "markdown": "shallow-checkout"},
                                "helpUri": HELP.format("rl009"),
                                "defaultConfiguration": {"level": "warning"},
                                "properties": {"tags": ["reflint"]},
                            },
                        ],
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": True,
                        "toolExecutionNotifications": [
                            {
                                "level": "error",
                                "message": {"text": "not UTF-8 text"},
                                "locations": [
                                    {
                                        "physicalLocation": {
                                            "artifactLocation": {"uri": "bin/tool", "uriBaseId": "%SRCROOT%"}
                                        }
                                    }
                                ],
                            }
                        ],
                    }
                ],
                "originalUriBaseIds": {"%SRCROOT%": {"uri": tmp_path.as_uri() + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": [
                    {
                        "ruleId": "RL002",
                        "ruleIndex": 1,
                        "level": "error",
                        "message": {
                            "text": "'core_r0.18.0' is a branch of github.com/nvidia/megatron-lm; "
                            "the release is tag 'core_v0.18.0' Did you mean 'core_v0.18.0'? "
                            "Related: [scripts/install \\[a\\].sh:4:11](1) install.sh pins 'core_v0.18.0'"
                        },
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {
                                        "uri": "docker/Dockerfile",
                                        "uriBaseId": "%SRCROOT%",
                                    },
                                    "region": {
                                        "startLine": 2,
                                        "startColumn": 34,
                                        "endLine": 2,
                                        "endColumn": 46,
                                    },
                                }
                            }
                        ],
                        "partialFingerprints": {"reflint/v1": BRANCH_PIN.fingerprint()},
                        "relatedLocations": [
                            {
                                "id": 1,
                                "physicalLocation": {
                                    "artifactLocation": {
                                        "uri": "scripts/install%20%5Ba%5D.sh",
                                        "uriBaseId": "%SRCROOT%",
                                    },
                                    "region": {"startLine": 4, "startColumn": 11},
                                },
                                "message": {"text": "install.sh pins 'core_v0.18.0'"},
                            }
                        ],
                    }
                ],
            }
        ],
    }
    assert sarif_schema_errors(document) == []


def test_serialised_document_is_valid_json_against_the_schema(tmp_path: Path) -> None:
    document = sarif_document(
        ScanResult([BRANCH_PIN], [], [], SUMMARY), RULES, str(tmp_path), cwd=str(tmp_path)
    )
    assert sarif_schema_errors(json.loads(dumps(document))) == []


def test_the_written_log_is_the_document_serialised_one_result_at_a_time(tmp_path: Path) -> None:
    fix = Fix(Applicability.SAFE, "pin the tag", (Edit("docker/Dockerfile", Span(2, 34, 2, 46), "v1"),))
    findings = [
        BRANCH_PIN,
        replace(BRANCH_PIN, span=Span(9, 34, 9, 46), related=(), fix=fix, message="a ## [x] \u202e ::"),
        Finding("RL099", "custom-check", Severity.INFO, "a.sh", Span(1, 1, 1, 2), "two\nlines"),
    ]
    for result in (
        # what stands for the results while the document around them is written: a file's text may say it
        ScanResult(findings, [FileMessage("bin/tool", "reflint: the results go here")], [], SUMMARY),
        ScanResult([], [], [], SUMMARY),
    ):
        written = io.StringIO()
        write_sarif(result, RULES, str(tmp_path), written, cwd=str(tmp_path))

        assert written.getvalue() == dumps(sarif_document(result, RULES, str(tmp_path), cwd=str(tmp_path)))
        assert sarif_schema_errors(json.loads(written.getvalue())) == []


def test_an_empty_scan_is_a_valid_log_with_no_results(tmp_path: Path) -> None:
    document = sarif_document(ScanResult([], [], [], SUMMARY), RULES, str(tmp_path), cwd=str(tmp_path))
    run = document["runs"][0]
    assert run["results"] == []
    assert run["invocations"] == [{"executionSuccessful": True}]
    assert sarif_schema_errors(document) == []


def test_the_schema_check_catches_a_broken_log(tmp_path: Path) -> None:
    document = sarif_document(
        ScanResult([BRANCH_PIN], [], [], SUMMARY), RULES, str(tmp_path), cwd=str(tmp_path)
    )
    document["runs"][0]["results"][0]["level"] = "fatal"
    assert sarif_schema_errors(document) == [
        "runs/0/results/0/level: 'fatal' is not one of ['none', 'note', 'warning', 'error']"
    ]


def test_severity_levels_and_rules_missing_from_the_list(tmp_path: Path) -> None:
    info = Finding("RL099", "custom-check", Severity.INFO, "a.sh", Span(1, 1, 1, 2), "from a rule pack")
    warning = replace(BRANCH_PIN, severity=Severity.WARNING)
    document = sarif_document(
        ScanResult([warning, info], [], [], SUMMARY), RULES, str(tmp_path), cwd=str(tmp_path)
    )
    run = document["runs"][0]
    assert [(r["ruleId"], r["ruleIndex"], r["level"]) for r in run["results"]] == [
        ("RL002", 1, "warning"),
        ("RL099", 3, "note"),
    ]
    assert run["tool"]["driver"]["rules"][3] == {
        "id": "RL099",
        "name": "custom-check",
        "shortDescription": {"text": "custom-check"},
        "defaultConfiguration": {"level": "note"},
    }
    assert sarif_schema_errors(document) == []


def test_fingerprints_ignore_line_numbers_and_keep_twins_apart(tmp_path: Path) -> None:
    moved = replace(BRANCH_PIN, span=Span(9, 34, 9, 46))
    other_ref = replace(BRANCH_PIN, ref="core_r0.12.0")
    document = sarif_document(
        ScanResult([BRANCH_PIN, moved, other_ref], [], [], SUMMARY), RULES, str(tmp_path), cwd=str(tmp_path)
    )
    prints = [r["partialFingerprints"]["reflint/v1"] for r in document["runs"][0]["results"]]
    assert prints == [BRANCH_PIN.fingerprint(), BRANCH_PIN.fingerprint() + ":2", other_ref.fingerprint()]
    assert other_ref.fingerprint() != BRANCH_PIN.fingerprint()


def test_paths_are_relative_to_the_root_and_absolute_outside_it(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "sub").mkdir(parents=True)
    inside = replace(BRANCH_PIN, path="Dockerfile", related=())
    outside = replace(BRANCH_PIN, path="../../elsewhere/Dockerfile", related=())
    document = sarif_document(
        ScanResult([inside, outside], [], [], SUMMARY), RULES, str(root), cwd=str(root / "sub")
    )
    locations = [
        r["locations"][0]["physicalLocation"]["artifactLocation"] for r in document["runs"][0]["results"]
    ]
    assert locations == [
        {"uri": "sub/Dockerfile", "uriBaseId": "%SRCROOT%"},
        {"uri": (tmp_path / "elsewhere" / "Dockerfile").as_uri()},
    ]
    assert sarif_schema_errors(document) == []


def test_rule_descriptor_skips_headings_and_joins_the_first_paragraph() -> None:
    rule = StubRule(
        "RL005",
        "moving-ref",
        Severity.WARNING,
        False,
        """
        # moving-ref

        ## What it does
        Flags a pin of a branch head,
        which moves. See e.g. the release notes!

        ## Example
        ```dockerfile
        RUN git clone --branch main URL
        ```
        """,
    )
    descriptor = rule_descriptor(rule)
    assert descriptor["shortDescription"] == {"text": "Flags a pin of a branch head, which moves."}
    assert descriptor["fullDescription"] == {
        "text": "Flags a pin of a branch head, which moves. See e.g. the release notes!"
    }
    # The whole doc, dedented, as the help (SARIF's help has a plain-text and a Markdown form).
    doc = (
        "# moving-ref\n\n## What it does\nFlags a pin of a branch head,\nwhich moves. See e.g. the release "
        "notes!\n\n## Example\n```dockerfile\nRUN git clone --branch main URL\n```"
    )
    assert descriptor["help"] == {"text": doc, "markdown": doc}


def test_every_shipped_rule_makes_a_valid_described_descriptor(tmp_path: Path) -> None:
    from ascend_reflint.check import all_rules

    rules = all_rules()
    document = sarif_document(ScanResult([], [], [], SUMMARY), rules, str(tmp_path), cwd=str(tmp_path))
    descriptors = document["runs"][0]["tool"]["driver"]["rules"]
    assert [d["id"] for d in descriptors] == [rule.code for rule in rules]
    undocumented = [d["id"] for d in descriptors if d["shortDescription"]["text"] == d["name"]]
    assert undocumented == []
    assert sarif_schema_errors(document) == []


def test_a_fix_is_a_sarif_fix_with_one_replacement_per_edit_and_the_log_stays_valid(tmp_path: Path) -> None:
    fix = Fix(
        Applicability.UNSAFE,
        'pin the tag "core_v0.18.0" instead of the branch "core_r0.18.0"',
        (
            Edit("docker/Dockerfile", Span(2, 34, 2, 46), "core_v0.18.0", expected="core_r0.18.0"),
            Edit("docker/Dockerfile", Span(1, 1, 1, 1), "# Megatron-LM core_v0.18.0\n"),
            Edit("scripts/install [a].sh", Span(4, 11, 4, 23), ""),
        ),
    )
    result = ScanResult([replace(BRANCH_PIN, fix=fix)], [], [], SUMMARY)
    document = json.loads(dumps(sarif_document(result, RULES, str(tmp_path), cwd=str(tmp_path))))

    assert document["runs"][0]["results"][0]["fixes"] == [
        {
            "description": {"text": 'pin the tag "core_v0.18.0" instead of the branch "core_r0.18.0"'},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "docker/Dockerfile", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 2,
                                "startColumn": 34,
                                "endLine": 2,
                                "endColumn": 46,
                            },
                            "insertedContent": {"text": "core_v0.18.0"},
                        },
                        {
                            "deletedRegion": {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1},
                            "insertedContent": {"text": "# Megatron-LM core_v0.18.0\n"},
                        },
                    ],
                },
                {
                    "artifactLocation": {"uri": "scripts/install%20%5Ba%5D.sh", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 4,
                                "startColumn": 11,
                                "endLine": 4,
                                "endColumn": 23,
                            },
                            "insertedContent": {"text": ""},
                        }
                    ],
                },
            ],
            "properties": {"applicability": "unsafe"},
        }
    ]
    assert sarif_schema_errors(document) == []


def test_the_rules_help_uri_is_on_the_repository_that_pyproject_names() -> None:
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8"))
    assert HELP.startswith(pyproject["project"]["urls"]["Homepage"] + "/blob/main/docs/rules.md#")
