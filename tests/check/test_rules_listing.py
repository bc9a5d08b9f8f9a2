"""``reflint rules`` from an installed wheel, and the rule table of ``docs/rules.md``, against the rule
registry."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from ascend_reflint.check import all_rules
from ascend_reflint.report.rules_doc import fix_kind

REPOSITORY = Path(__file__).resolve().parents[2]


def test_reflint_rules_runs_from_a_non_editable_install_of_the_wheel(tmp_path: Path) -> None:
    """Build the wheel, install it with pip into a folder of its own (no editable link to the checkout),
    and run its ``reflint`` script from elsewhere: the rule packs must come from inside the wheel."""
    from hatchling.builders import wheel as wheel_builder  # in the test extras: a missing one fails

    (wheel,) = wheel_builder.WheelBuilder(str(REPOSITORY)).build(directory=str(tmp_path / "dist"))
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--target",
            str(site),
            wheel,
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    environment = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
    program = "import ascend_reflint.check.packs as p; print(p.bundled_rules_dir())"
    located = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert located.stdout.strip() == str(site / "ascend_reflint" / "rules")
    listed = subprocess.run(
        [str(site / "bin" / "reflint"), "rules", "--format", "json"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (listed.returncode, listed.stderr) == (0, "")
    records = json.loads(listed.stdout)
    assert [(r["code"], r["name"], r["severity"], r["needs_lookup"], r["fix"]) for r in records] == [
        (r.code, r.name, r.severity.label, r.needs_lookup, fix_kind(r.fixes)) for r in all_rules()
    ]
    # Every doc, whole, as the checkout's rules have it: the wheel ships them all.
    assert [r["doc"] for r in records] == [r.doc for r in all_rules()]
    text = subprocess.run(
        [str(site / "bin" / "reflint"), "rules", "RL099"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert text.stdout.splitlines()[0] == "RL099 unused-ignore [info] (no lookup; no fix)"


def test_the_rule_table_in_the_docs_lists_every_rule() -> None:
    doc = (REPOSITORY / "docs" / "rules.md").read_text(encoding="utf-8")
    section = doc.split("\n## ", 1)[0]
    # Each row has the anchor that SARIF's helpUri points at (ascend_reflint.report.sarif.RULE_HELP_URI).
    rows = re.findall(
        r'^\| <a id="(rl\d{3})"></a>(RL\d{3}) \| `([a-z-]+)` \| (\w+) \| (yes|no) \| ([a-z ]+) \| (.+) \|$',
        section,
        re.MULTILINE,
    )
    assert rows == [
        (
            r.code.lower(),
            r.code,
            r.name,
            r.severity.label,
            "yes" if r.needs_lookup else "no",
            fix_kind(r.fixes) or "no",
            r.doc.splitlines()[0],
        )
        for r in all_rules()
    ]


def test_the_config_examples_in_the_docs_are_valid() -> None:
    from ascend_reflint.config import parse_toml_config, parse_yaml_config

    doc = (REPOSITORY / "docs" / "configuration.md").read_text(encoding="utf-8")
    section = doc.split("\n## ", 1)[0]
    yaml_example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    toml_example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    settings = parse_yaml_config(yaml_example, "docs/configuration.md")
    assert settings.per_file_ignores == {"docker/legacy/**": ("RL002", "RL015")}
    assert settings.env_pairs[0].workflows == (".github/workflows/gpu_*",)
    toml_settings = parse_toml_config(toml_example, "docs/configuration.md")
    assert toml_settings.variant_groups == settings.variant_groups
    assert toml_settings.severity == settings.severity
