"""The packs shipped in rules/: read without pydantic at run time, validated with the full model here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ascend_reflint.check.pack_schema import RulePack
from ascend_reflint.check.packs import bundled_packs, bundled_rules_dir, parse_pack, read_shipped_pack
from ascend_reflint.check.policy import Policy, PolicyError, ShippedPack

REPOSITORY = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPOSITORY / "rules").glob("*.yaml"))


def test_there_are_shipped_packs() -> None:
    assert [path.name for path in SHIPPED] == ["ascend.yaml"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_every_shipped_pack_is_valid_and_read_alike_without_the_model(path: Path) -> None:
    """A bad edit of a shipped pack fails here: the scan itself reads it without validation."""
    text = path.read_text(encoding="utf-8")
    validated = parse_pack(text, str(path))
    plain = read_shipped_pack(text, str(path))
    assert isinstance(plain, ShippedPack)  # the fast reader took it: no fallback to the model at run time
    assert Policy.from_packs([plain]) == Policy.from_packs([validated])
    assert (plain.name, plain.description) == (validated.name, validated.description)


def test_the_readme_example_is_read_alike_with_and_without_the_model() -> None:
    readme = (REPOSITORY / "rules" / "README.md").read_text(encoding="utf-8")
    example = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    plain = read_shipped_pack(example, "README.md")
    assert isinstance(plain, ShippedPack)
    assert plain.variant_groups[0].label == "gpu-images"
    assert Policy.from_packs([plain]) == Policy.from_packs([parse_pack(example, "README.md")])


def test_a_shipped_pack_the_fast_reader_refuses_is_validated_for_the_message(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("name: x\ntag-pinned: [github.com/a/b]\n", encoding="utf-8")
    with pytest.raises(PolicyError) as raised:
        bundled_packs(tmp_path)
    assert str(raised.value) == (
        f"{tmp_path / 'a.yaml'}:2:1: tag-pinned: unknown key (did you mean 'tag-pinned-remotes'?)"
    )


@pytest.mark.parametrize(
    "text",
    [
        "name: x\nvariant-tokens: [on, a2]\n",  # YAML 1.1 (PyYAML) reads `on` as true; YAML 1.2 as "on"
        "name: x\ntag_pinned_remotes: [github.com/A/B]\n",  # snake_case keys: the model takes them too
        "name: x\nvariant-groups: [{files: ['docker/*'], allowed-drift: [GitHub.com/A/B.git]}]\n",
    ],
)
def test_the_fast_reader_gives_what_the_model_gives_or_leaves_the_pack_to_it(text: str) -> None:
    read = read_shipped_pack(text, "p.yaml")
    assert Policy.from_packs([read]) == Policy.from_packs([parse_pack(text, "p.yaml")])


def test_a_pack_that_only_the_model_reads_right_comes_from_the_model() -> None:
    read = read_shipped_pack("name: x\nvariant-tokens: [on]\n", "p.yaml")
    assert isinstance(read, RulePack)
    assert read.variant_tokens == ("on",)


def test_the_default_rules_folder_holds_the_shipped_packs() -> None:
    assert Path(str(bundled_rules_dir())) == REPOSITORY / "rules"


def test_a_scan_without_a_config_file_loads_neither_pydantic_nor_ruamel(tmp_path: Path) -> None:
    """Importing them costs more than scanning a small repository; only a user's file needs them."""
    (tmp_path / "Dockerfile").write_text(
        "FROM ubuntu\nRUN git clone --branch v1 https://github.com/a/b.git\n", encoding="utf-8"
    )
    (tmp_path / "install.sh").write_text(
        "#!/bin/bash\npip install git+https://github.com/a/b.git@v2\n", encoding="utf-8"
    )
    cache = str(tmp_path / "cache")
    program = (
        "import sys\n"
        "from ascend_reflint.cli import main\n"
        f"main(['scan', '--offline', '--cache-dir', {cache!r}, 'Dockerfile', 'install.sh'])\n"
        "print(sorted({name.split('.')[0] for name in sys.modules} & {'pydantic', 'ruamel'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.splitlines()[-1] == "[]"
    (tmp_path / ".reflint.yaml").write_text("ignore: [RL015]\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.splitlines()[-1] == "['pydantic', 'ruamel']"
