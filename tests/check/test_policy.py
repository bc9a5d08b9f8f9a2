"""Rule packs: reading, validating, merging, and finding the default ones."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ascend_reflint.check.pack_schema import RulePack
from ascend_reflint.check.packs import (
    bundled_packs,
    bundled_rules_dir,
    find_rules_dir,
    load_pack_file,
    load_policy,
    parse_pack,
)
from ascend_reflint.check.policy import Policy, PolicyError
from ascend_reflint.model import Severity

REPOSITORY = Path(__file__).resolve().parents[2]


def test_default_policy_is_the_shipped_ascend_pack() -> None:
    policy = load_policy()
    assert policy.packs == ("ascend",)
    assert policy.is_tag_pinned("github.com/nvidia/megatron-lm")
    assert policy.is_tag_pinned("github.com/deepseek-ai/deepep")
    assert policy.is_branch_release("gitcode.com/ascend/mindspeed")
    assert policy.is_branch_release("gitcode.com/ascend/megatronadaptor")
    assert policy.is_self_head_tracking("github.com/volcengine/verl")
    assert not policy.is_head_tracking("github.com/volcengine/verl")
    assert policy.needs_full_history("gitcode.com/ascend/mindspeed")
    assert not policy.is_tag_pinned("gitcode.com/ascend/mindspeed")
    assert policy.severity == {}


def test_remote_lists_match_case_insensitively_on_known_hosts() -> None:
    policy = load_policy()
    assert policy.is_tag_pinned("github.com/NVIDIA/Megatron-LM")
    assert policy.is_branch_release("gitcode.com/Ascend/MindSpeed")
    assert not policy.is_tag_pinned(None)


def test_remotes_in_a_pack_are_normalised_from_any_url_form() -> None:
    pack = parse_pack(
        "name: mine\n"
        "tag-pinned-remotes:\n"
        "  - GitHub.com/NVIDIA/Megatron-LM.git\n"
        "  - https://github.com/NVIDIA/Megatron-LM/\n"
        "  - git@github.com:nvidia/megatron-lm.git\n"
        "  - ssh://git@gitcode.com/Ascend/MindSpeed\n"
        "  - git.example.com/Team/Tool\n",
        "mine.yaml",
    )
    # Each form normalised; the merge keeps the first of the three that name one remote.
    assert Policy().merged_with(pack).tag_pinned_remotes == (
        "github.com/nvidia/megatron-lm",
        "gitcode.com/ascend/mindspeed",
        "git.example.com/Team/Tool",
    )


def test_rule_codes_in_a_pack_are_read_in_any_case() -> None:
    assert parse_pack("name: x\nseverity: {rl002: warning}\n", "p.yaml").severity == {
        "RL002": Severity.WARNING
    }


def test_later_packs_concatenate_lists_and_override_severities(tmp_path: Path) -> None:
    first = tmp_path / "first.yaml"
    first.write_text(
        "name: first\ntag-pinned-remotes: [github.com/a/one]\nseverity: {RL002: warning, RL008: error}\n",
        encoding="utf-8",
    )
    second = tmp_path / "second.yaml"
    second.write_text(
        "name: second\ntag-pinned-remotes: [github.com/a/two, github.com/a/one]\n"
        "private-remotes: [github.com/a/secret]\nseverity: {RL002: info}\n",
        encoding="utf-8",
    )
    policy = load_policy([first, second])
    assert policy.packs == ("ascend", "first", "second")
    assert policy.tag_pinned_remotes[-2:] == ("github.com/a/one", "github.com/a/two")
    assert policy.private_remotes == ("github.com/a/secret",)
    assert policy.severity == {"RL002": Severity.INFO, "RL008": Severity.ERROR}
    assert policy.severity_for("RL002", Severity.ERROR) is Severity.INFO
    assert policy.severity_for("RL001", Severity.ERROR) is Severity.ERROR


def test_lenient_lists_beat_tag_pinned() -> None:
    default = RulePack(name="default", tag_pinned_remotes=("github.com/a/b", "github.com/a/c"))
    relaxed = RulePack(
        name="relaxed", branch_release_remotes=("github.com/a/b",), head_tracking_remotes=("github.com/a/c",)
    )
    policy = Policy.from_packs([default, relaxed])
    assert not policy.is_tag_pinned("github.com/a/b")
    assert not policy.is_tag_pinned("github.com/a/c")
    assert Policy.from_packs([default]).is_tag_pinned("github.com/a/b")


def test_policy_is_frozen_and_forbids_extra_fields() -> None:
    with pytest.raises(ValueError, match="extra"):
        Policy(variant_group=())  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="frozen"):
        Policy().packs = ("x",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: x\ntag-pinned: [github.com/a/b]\n",
            "p.yaml:2:1: tag-pinned: unknown key (did you mean 'tag-pinned-remotes'?)",
        ),
        ("description: y\n", "p.yaml: name: a required key is missing"),
        ("name: ''\n", "p.yaml:1:1: name: String should have at least 1 character"),
        (
            "name: x\nseverity: {RL002: fatal}\n",
            "p.yaml:2:12: severity.RL002: unknown severity 'fatal' (expected error, warning or info)",
        ),
        ("name: x\nseverity: {RL002: 3}\n", "p.yaml:2:12: severity.RL002: expected error, warning or info"),
        (
            "name: x\nseverity: {rl02: warning}\n",
            "p.yaml:2:12: severity: 'rl02' is not a rule code (RL002) or a rule name (branch-pin)",
        ),
        (
            "name: x\nseverity: {brnch-pin: warning}\n",
            "p.yaml:2:12: severity: 'brnch-pin' is not a rule code (RL002) or a rule name (branch-pin) (did "
            "you mean 'branch-pin'?)",
        ),
        (
            "name: x\nseverity: {RL999: warning}\n",
            "p.yaml:2:12: severity: unknown rule code RL999 (known: RL001, RL002, RL003, RL004, RL005, "
            "RL006, RL007, RL008, RL009, RL010, RL011, RL012, RL013, RL014, RL015, RL016, RL017, RL018, "
            "RL019, RL020, RL021, RL022, RL023, RL024, RL025, RL026, RL027, RL099)",
        ),
        ("name: x\nseverity: [RL002]\n", "p.yaml:2:1: severity: expected a mapping"),
        ("name: x\ntag-pinned-remotes: github.com/a/b\n", "p.yaml:2:1: tag-pinned-remotes: expected a list"),
        (
            "name: x\nprivate-remotes: [github.com/a/b, github.com/lonely]\n",
            "p.yaml:2:35: private-remotes[1]: 'github.com/lonely' is not a remote (expected host/owner/name, "
            "e.g. github.com/nvidia/megatron-lm)",
        ),
        (
            "name: x\nvariant-groups:\n  - files: ['#']\n    allowed: []\n",
            "p.yaml:3:13: variant-groups[0].files[0]: '#' is not a path glob (empty, or a comment)\n"
            "p.yaml:4:5: variant-groups[0].allowed: unknown key (did you mean 'allowed-drift'?)",
        ),
        ("name: x\ndrift-same-kind: 'yes'\n", "p.yaml:2:1: drift-same-kind: expected true or false"),
        (
            "name: x\nvariant-tokens: [a2, a.3]\n",
            "p.yaml:2:22: variant-tokens[1]: 'a.3' is not a name part (letters and digits, without '.', '_' "
            "or '-')",
        ),
        (
            "name: x\nshared-env: [OK, 1BAD]\nenv-pairs: [{dockerfiles: [], workflows: [x]}]\n",
            "p.yaml:2:18: shared-env[1]: '1BAD' is not an environment variable name\n"
            "p.yaml:3:14: env-pairs[0].dockerfiles: expected at least 1 entry",
        ),
        ("- name\n", "p.yaml: a rule pack must be a mapping with at least a 'name' key"),
        ("", "p.yaml: a rule pack must be a mapping with at least a 'name' key"),
        (
            "name: [\n",
            "p.yaml:1:7: not valid YAML: '[' is never closed: at line 2, column 1, did not find expected "
            "node content",
        ),
        (
            "name: x\nname: y\n",
            'p.yaml:2:1: not valid YAML: found duplicate key "name" with value "y" (original value: "x")',
        ),
    ],
)
def test_an_invalid_pack_names_the_file_and_the_key(text: str, message: str) -> None:
    with pytest.raises(PolicyError) as raised:
        parse_pack(text, "p.yaml")
    assert str(raised.value) == message


def test_an_unreadable_pack_file_is_a_policy_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(PolicyError, match=r"missing\.yaml: cannot read the rule pack: "):
        load_pack_file(missing)
    with pytest.raises(PolicyError, match=r"missing\.yaml: cannot read"):
        load_policy([missing])


def test_the_editable_install_reads_the_repository_rules_folder() -> None:
    assert Path(str(bundled_rules_dir())) == REPOSITORY / "rules"
    assert [pack.name for pack in bundled_packs()] == ["ascend"]


def test_the_installed_folder_wins_over_the_checkout(tmp_path: Path) -> None:
    installed, checkout = tmp_path / "site" / "rules", tmp_path / "repo" / "rules"
    installed.mkdir(parents=True)
    checkout.mkdir(parents=True)
    assert find_rules_dir(installed, checkout) == installed
    assert find_rules_dir(tmp_path / "nowhere", checkout) == checkout


def test_no_rules_folder_at_all_is_a_policy_error(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match=r"the default rule packs are missing: neither .* is a folder"):
        find_rules_dir(tmp_path / "a", tmp_path / "b")


def test_bundled_packs_reads_every_yaml_in_name_order(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text("name: second\n", encoding="utf-8")
    (tmp_path / "a.yaml").write_text("name: first\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# not a pack\n", encoding="utf-8")
    assert [pack.name for pack in bundled_packs(tmp_path)] == ["first", "second"]


def test_an_installed_wheel_finds_its_packs_with_importlib_resources(tmp_path: Path) -> None:
    """Build the wheel (hatch's force-include puts rules/ at ascend_reflint/rules), unpack it as an
    installed copy, and load the policy from it in a fresh interpreter that imports that copy."""
    from hatchling.builders import wheel as wheel_builder  # in the test extras: a missing one fails

    built = list(wheel_builder.WheelBuilder(str(REPOSITORY)).build(directory=str(tmp_path / "dist")))
    site = tmp_path / "site"
    with zipfile.ZipFile(built[0]) as wheel:
        wheel.extractall(site)
    assert (site / "ascend_reflint" / "rules" / "ascend.yaml").is_file()
    program = (
        "import ascend_reflint, pathlib\n"
        "from ascend_reflint.check.packs import bundled_rules_dir, load_policy\n"
        "print(pathlib.Path(ascend_reflint.__file__).parent)\n"
        "print(bundled_rules_dir())\n"
        "print(load_policy().packs)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert result.stdout.splitlines() == [
        str(site / "ascend_reflint"),
        str(site / "ascend_reflint" / "rules"),
        "('ascend',)",
    ]


def test_the_example_pack_in_the_readme_is_valid() -> None:
    readme = (REPOSITORY / "rules" / "README.md").read_text(encoding="utf-8")
    example = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    pack = parse_pack(example, "rules/README.md")
    assert pack.name == "my-project"
    assert pack.severity == {"RL002": Severity.WARNING, "RL008": Severity.ERROR}
    assert pack.full_history_remotes == ("gitcode.com/ascend/mindspeed",)


def test_the_default_pack_sets_the_cross_file_checks_up_for_the_ascend_stack() -> None:
    policy = load_policy()
    assert policy.variant_tokens == ("a2", "a3", "a5", "310p", "openeuler")
    assert [(f.name, f.files) for f in policy.drift_families] == [("ascend", ("*ascend*", "*npu*"))]
    assert policy.drift_same_kind is False
    assert policy.shared_env == ("VERL_USE_EXTERNAL_MODULES",)
    assert [(p.dockerfiles, p.workflows) for p in policy.env_pairs] == [
        (("*ascend*", "*npu*"), (".github/workflows/*ascend*", ".github/workflows/*npu*"))
    ]
    assert policy.needs_full_history("github.com/Ascend/MindSpeed")


def test_check_parameters_merge_like_remote_lists_and_drift_same_kind_keeps_the_last_choice() -> None:
    first = parse_pack(
        "name: first\nvariant-tokens: [A2, cuda]\nshared-env: [X]\ndrift-same-kind: true\n"
        "drift-allowed-remotes: [github.com/a/b]\n",
        "first.yaml",
    )
    second = parse_pack("name: second\nvariant-tokens: [a2, rocm]\nshared-env: [Y, X]\n", "second.yaml")
    third = parse_pack("name: third\ndrift-same-kind: false\n", "third.yaml")
    merged = Policy.from_packs([first, second])
    assert merged.variant_tokens == ("a2", "cuda", "rocm")
    assert merged.shared_env == ("X", "Y")
    assert merged.drift_same_kind is True
    assert merged.may_drift_across_files("https://github.com/A/B.git")
    assert not merged.may_drift_across_files("github.com/a/c")
    assert Policy.from_packs([first, second, third]).drift_same_kind is False
    assert merged.merged_with(third, name="mine.yaml").packs == ("first", "second", "mine.yaml")
