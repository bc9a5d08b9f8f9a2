"""The user's config: where it is found, what it may say, and the errors that name file, line and key."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ascend_reflint.cli import main
from ascend_reflint.config import (
    Config,
    ConfigError,
    UserConfig,
    load_config,
    parse_toml_config,
    parse_yaml_config,
    toml_key_lines,
)
from ascend_reflint.model import Severity
from ascend_reflint.scan import build_policy

from .helpers import scan_json, write_tree

FULL = """\
select: [RL003, RL004, RL015]
ignore: [RL099]
severity:
  RL004: warning
per-file-ignores:
  "docker/legacy/*": [RL004]
rule-packs: [packs/team.yaml]
head-tracking-remotes: [github.com/me/tool]
self-head-tracking-remotes: [github.com/me/app]
full-history-remotes: [https://github.com/Me/Deep.git]
variant-tokens: [cuda, npu]
variant-groups:
  - name: images
    files: ["images/*"]
    allowed-drift: [github.com/vllm-project/vllm]
variant-allowed-drift: [github.com/a/b]
drift-families:
  - name: gpu
    files: ["docker/cu*/", "scripts/gpu_*.sh"]
drift-same-kind: true
drift-allowed-remotes: [github.com/actions/checkout]
shared-env: [HF_ENDPOINT]
env-pairs:
  - dockerfiles: ["docker/cu*/"]
    workflows: [".github/workflows/gpu_*"]
"""


def test_every_setting_of_a_yaml_config_reaches_the_policy(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {".reflint.yaml": FULL, "packs/team.yaml": "name: team\nprivate-remotes: [github.com/me/secret]\n"},
    )
    config = load_config([], cwd=str(tmp_path))
    assert (config.root, config.path) == (str(tmp_path), ".reflint.yaml")
    assert config.settings.select == ("RL003", "RL004", "RL015")
    assert config.settings.per_file_ignores == {"docker/legacy/*": ("RL004",)}
    assert config.rule_pack_paths() == [tmp_path / "packs" / "team.yaml"]
    policy = build_policy(config)
    assert policy.packs == ("ascend", "team", ".reflint.yaml")
    assert policy.severity == {"RL004": Severity.WARNING}
    assert policy.is_head_tracking("github.com/me/tool") and not policy.is_head_tracking("github.com/me/app")
    assert policy.self_head_tracking_remotes == ("github.com/volcengine/verl", "github.com/me/app")
    assert policy.needs_full_history("github.com/me/deep")
    assert policy.is_private("github.com/me/secret")
    assert policy.variant_tokens == ("a2", "a3", "a5", "310p", "openeuler", "cuda", "npu")
    assert [(g.label, g.files, g.allowed_drift) for g in policy.variant_groups] == [
        ("images", ("images/*",), ("github.com/vllm-project/vllm",))
    ]
    assert policy.variant_allowed_drift == ("github.com/a/b",)
    assert [f.name for f in policy.drift_families] == ["ascend", "gpu"]
    assert policy.drift_same_kind is True
    assert policy.may_drift_across_files("github.com/actions/checkout")
    assert policy.shared_env == ("VERL_USE_EXTERNAL_MODULES", "HF_ENDPOINT")
    assert [p.workflows for p in policy.env_pairs][-1] == (".github/workflows/gpu_*",)
    assert config.ignored_for("docker/legacy/Dockerfile") == {"RL004"}
    assert config.ignored_for("docker/Dockerfile") == frozenset()


def test_pyproject_table_is_read_and_yaml_wins_in_the_same_folder(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "x"\n\n[tool.reflint]\nignore = ["RL015"]\n'})
    config = load_config(["docker"], cwd=str(tmp_path))
    assert (config.root, config.path, config.settings.ignore) == (str(tmp_path), "pyproject.toml", ("RL015",))
    write_tree(tmp_path, {".reflint.yaml": "ignore: [RL002]\n"})
    assert load_config([], cwd=str(tmp_path)).settings.ignore == ("RL002",)


def test_the_root_is_found_upwards_from_the_paths_and_stops_at_git(tmp_path: Path) -> None:
    write_tree(tmp_path, {".reflint.yaml": "ignore: [RL002]\n", "repo/docker/Dockerfile": "FROM x\n"})
    (tmp_path / "repo" / ".git").mkdir()
    write_tree(tmp_path / "repo", {"pyproject.toml": '[project]\nname = "no reflint table"\n'})
    config = load_config(["repo/docker/Dockerfile"], cwd=str(tmp_path))
    assert config == Config(root=str(tmp_path / "repo"))
    config = load_config(["docker"], cwd=str(tmp_path / "repo" / "docker"))
    assert config.root == str(tmp_path / "repo")
    assert load_config(["elsewhere"], cwd=str(tmp_path)).path == ".reflint.yaml"


def test_without_any_marker_the_root_is_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert load_config(["a/b"], cwd=str(tmp_path)) == Config(root=str(tmp_path))
    assert load_config([], cwd=str(tmp_path / "a")) == Config(root=str(tmp_path / "a"))
    assert load_config([str(tmp_path / "a")], cwd=str(tmp_path / "a" / "b")) == Config(
        root=str(tmp_path / "a")
    )


def test_config_option_names_the_file_and_the_root_stays_the_project_root(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"ci/reflint.toml": "[tool.reflint]\nselect = ['RL004']\n", "ci/r.yaml": "select: [RL005]\n"},
    )
    config = load_config([], config_file="ci/reflint.toml", cwd=str(tmp_path))
    assert (config.root, config.folder, config.path, config.settings.select) == (
        str(tmp_path),
        str(tmp_path / "ci"),
        "ci/reflint.toml",
        ("RL004",),
    )
    assert load_config([], config_file="ci/r.yaml", cwd=str(tmp_path)).settings.select == ("RL005",)
    with pytest.raises(ConfigError, match=r"^ci/missing.yaml: cannot read the config file: "):
        load_config([], config_file="ci/missing.yaml", cwd=str(tmp_path))
    write_tree(tmp_path, {"ci/pyproject.toml": "[project]\nname = 'x'\n"})
    with pytest.raises(ConfigError, match=r"^ci/pyproject.toml: no \[tool.reflint\] table$"):
        load_config([], config_file="ci/pyproject.toml", cwd=str(tmp_path))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("selcet: [RL001]\n", "c.yaml:1:1: selcet: unknown key (did you mean 'select'?)"),
        ("select: RL001\n", "c.yaml:1:1: select: expected a list"),
        (
            "select: [RL001, RL9]\n",
            "c.yaml:1:17: select[1]: no rule code starts with RL9 (`reflint rules` lists the rules)",
        ),
        (
            "ignore: []\nper-file-ignores:\n  docker/*: [RL004]\n  '#x': [RL004]\n",
            "c.yaml:4:3: per-file-ignores: '#x' is not a path glob (empty, or a comment)",
        ),
        (
            "drift-families:\n  - name: gpu\n    files: docker/\n",
            "c.yaml:3:5: drift-families[0].files: expected a list",
        ),
        ("rule-packs: [1]\n", "c.yaml:1:14: rule-packs[0]: expected a string"),
        (
            "gitlab-host: https://gitlab.example.com/\n",
            "c.yaml:1:1: gitlab-host: 'https://gitlab.example.com/' is not a host name (expected e.g. "
            "gitlab.example.com, without https:// or a path)",
        ),
        ("- select\n", "c.yaml: the config must be a mapping of settings (see `reflint scan --help`)"),
        (
            "select: [\n",
            "c.yaml:1:9: not valid YAML: '[' is never closed: at line 2, column 1, did not find expected "
            "node content",
        ),
    ],
)
def test_yaml_config_errors_name_the_file_the_line_and_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_yaml_config(text, "c.yaml")
    assert str(raised.value) == message


PYPROJECT = """\
[project]
name = "x"

[tool.reflint]
select = ["RL004"]
  ignore = "RL003"
"drift-same-kind" = "yes"

[tool.reflint.per-file-ignores]
"scripts/*" = ["RL005", "RL777"]

[[tool.reflint.variant-groups]]
files = ["docker/ascend/*"]

[[tool.reflint.variant-groups]]
files = ["docker/ascend/*"]
alowed-drift = []

[tool.other]
x = 1
"""


def test_toml_config_errors_name_the_line_of_the_key_in_the_tool_reflint_table() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_toml_config(PYPROJECT, "pyproject.toml")
    assert str(raised.value).splitlines() == [
        "pyproject.toml:6:3: tool.reflint.ignore: expected a list",
        "pyproject.toml:7:1: tool.reflint.drift-same-kind: expected true or false",
        'pyproject.toml:10:1: tool.reflint.per-file-ignores."scripts/*"[1]: unknown rule code RL777 '
        "(`reflint rules` lists the rules)",
        "pyproject.toml:17:1: tool.reflint.variant-groups[1].alowed-drift: unknown key (did you mean "
        "'allowed-drift'?)",
    ]
    with pytest.raises(ConfigError) as caught:
        parse_toml_config("[tool.reflint\n", "p.toml")
    assert str(caught.value) == (
        "p.toml:1:14: not valid TOML: Expected ']' at the end of a table declaration"
    )
    with pytest.raises(ConfigError, match=r"^p.toml: tool.reflint must be a table$"):
        parse_toml_config("tool.reflint = 1\n", "p.toml")


def test_toml_key_lines_follow_tables_arrays_of_tables_and_dotted_keys() -> None:
    lines = toml_key_lines(PYPROJECT + 'doc = """\nfake = 1\n"""\n[a]\nb.c = 2\n')
    assert lines[("tool", "reflint", "select")] == (5, 1)
    assert lines[("tool", "reflint", "variant-groups", 1)] == (15, 3)
    assert lines[("tool", "reflint", "variant-groups", 1, "alowed-drift")] == (17, 1)
    assert lines[("a", "b", "c")] == (25, 1)
    assert ("tool", "other", "fake") not in lines


def test_rule_codes_in_a_config_are_read_in_any_case_as_on_the_command_line() -> None:
    text = (
        "select: [rl002, Rl013]\n"
        "ignore: [rL015]\n"
        "severity: {rl013: error}\n"
        "per-file-ignores:\n"
        "  docker/*: [rl004]\n"
    )
    settings = parse_yaml_config(text, "c.yaml")
    assert (settings.select, settings.ignore, settings.severity, settings.per_file_ignores) == (
        ("RL002", "RL013"),
        ("RL015",),
        {"RL013": Severity.ERROR},
        {"docker/*": ("RL004",)},
    )
    toml = '[tool.reflint]\nselect = ["rl005"]\n'
    assert parse_toml_config(toml, "pyproject.toml").select == ("RL005",)
    with pytest.raises(ConfigError) as raised:
        parse_yaml_config("select: [rl9]\n", "c.yaml")
    assert (
        str(raised.value)
        == "c.yaml:1:10: select[0]: no rule code starts with RL9 (`reflint rules` lists the rules)"
    )


def test_a_config_selects_rules_by_code_prefix_and_name_as_the_command_line_does(tmp_path: Path) -> None:
    text = "select: [rl00, Branch-Pin]\nextend-select: [RL015]\nignore: [variant-drift]\n"
    write_tree(tmp_path, {".reflint.yaml": text})
    config = load_config([], cwd=str(tmp_path))
    assert (config.settings.select, config.settings.ignore) == (("RL00", "branch-pin"), ("variant-drift",))
    assert (config.select, config.ignore) == (
        ("RL001", "RL002", "RL003", "RL004", "RL005", "RL006", "RL007", "RL008", "RL009", "RL015"),
        ("RL004",),
    )


def test_an_empty_yaml_config_is_empty() -> None:
    assert parse_yaml_config("# nothing yet\n", "c.yaml") == UserConfig()


def test_a_bad_config_or_rule_pack_is_exit_2_with_the_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_tree(
        tmp_path, {".reflint.yaml": "select: [RL004]\nvariant-token: [a9]\n", "Dockerfile": "FROM x\n"}
    )
    assert main(["scan", "--offline"]) == 2
    assert capsys.readouterr().err == (
        "reflint: error: .reflint.yaml:2:1: variant-token: unknown key (did you mean 'variant-tokens'?)\n"
    )
    write_tree(tmp_path, {".reflint.yaml": "", "bad.yaml": "name: bad\nseverity: {RL002: fatal}\n"})
    assert main(["scan", "--offline", "--rule-pack", "bad.yaml"]) == 2
    assert capsys.readouterr().err == (
        "reflint: error: bad.yaml:2:12: severity.RL002: unknown severity 'fatal' (expected error, warning or "
        "info)\n"
    )
    assert main(["scan", "--offline", "--rule-pack", "missing.yaml"]) == 2
    assert capsys.readouterr().err == (
        "reflint: error: missing.yaml: cannot read the rule pack: file not found (deleted or a broken "
        "symlink)\n"
    )


TREE = {
    "docker/Dockerfile.a2": "FROM x\nRUN git clone -b v1 https://github.com/o/r.git\n",
    "docker/Dockerfile.a3": "FROM x\nRUN git clone -b v2 https://github.com/o/r.git\n",
    "legacy/Dockerfile.a2": "FROM x\nRUN git clone -b v1 https://github.com/o/r.git\n",
    "legacy/Dockerfile.a3": "FROM x\nRUN git clone -b v2 https://github.com/o/r.git && git clone https://github.com/o/s.git\n",
}


def codes_by_path(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(f["path"], f["code"], f["severity"]) for f in document["findings"]]


def test_select_ignore_severity_and_per_file_ignores_shape_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = (
        "select: [RL004, RL015]\nseverity: {RL004: warning}\nper-file-ignores:\n  'legacy/*.a3': [RL004]\n"
    )
    write_tree(tmp_path, {**TREE, ".reflint.yaml": config})
    code, document, _ = scan_json(capsys, "--offline", "--cache-dir", str(tmp_path / "cache"))
    assert code == 0
    assert codes_by_path(document) == [
        ("docker/Dockerfile.a2", "RL004", "warning"),
        ("docker/Dockerfile.a3", "RL004", "warning"),
        ("legacy/Dockerfile.a2", "RL004", "warning"),
        ("legacy/Dockerfile.a2", "RL004", "warning"),
        ("legacy/Dockerfile.a3", "RL015", "warning"),
    ]
    code, document, _ = scan_json(
        capsys, "--offline", "--cache-dir", str(tmp_path / "cache"), "--select", "RL015"
    )
    assert codes_by_path(document) == [("legacy/Dockerfile.a3", "RL015", "warning")]
    code, document, _ = scan_json(
        capsys, "--offline", "--cache-dir", str(tmp_path / "cache"), "--ignore", "RL004"
    )
    assert codes_by_path(document) == [("legacy/Dockerfile.a3", "RL015", "warning")]


def test_head_tracking_remotes_in_the_config_turn_rl015_off_for_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_tree(
        tmp_path, {**TREE, ".reflint.yaml": "select: [RL015]\nhead-tracking-remotes: [github.com/o/s]\n"}
    )
    _, document, _ = scan_json(capsys, "--offline", "--cache-dir", str(tmp_path / "cache"))
    assert document["findings"] == []
    write_tree(tmp_path, {".reflint.yaml": "ignore: [RL015]\n"})
    _, document, _ = scan_json(
        capsys, "--offline", "--cache-dir", str(tmp_path / "cache"), "--select", "RL015"
    )
    assert document["findings"] == []
    assert os.path.isdir(tmp_path / "legacy")
    assert json.dumps(document["summary"]["findings"]) == '{"error": 0, "warning": 0, "info": 0}'
