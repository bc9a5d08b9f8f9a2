"""The GitHub Action (action.yml) and the README's example workflow.

The action's steps are run as the runner runs a composite action's ``shell: bash`` steps (``bash --noprofile
--norc -eo pipefail FILE``, with the inputs substituted into the step's ``env``) in a temporary workspace
with ``GITHUB_WORKSPACE``, ``GITHUB_OUTPUT``, ``GITHUB_STEP_SUMMARY`` and ``GITHUB_ACTION_PATH`` set. The
install step is not run (it would build reflint from PyPI packages); the scan step finds the ``reflint``
of the Python running the tests, or a stand-in that records its arguments.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from expected import MEGATRON_RELEASE_BRANCH
from integration_support import (
    BAD_DOCKERFILE,
    BAD_REF_COLUMN,
    BAD_REF_END_COLUMN,
    BAD_REF_LINE,
    BRANCH_PIN_CODE,
    PROJECT_ROOT,
    fake_github,
    sarif_schema_errors,
)
from ruamel.yaml import YAML

ACTION_FILE = PROJECT_ROOT / "action.yml"
README = PROJECT_ROOT / "README.md"
_INPUT = re.compile(r"\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}")
_OUTPUT = re.compile(r"\$\{\{\s*steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)\s*\}\}")
#: A stand-in for reflint: writes its arguments as JSON to $ARGV_FILE and exits with $EXIT_CODE.
FAKE_REFLINT = """#!{python}
import json, os, sys
with open(os.environ["ARGV_FILE"], "w") as handle:
    json.dump(sys.argv[1:], handle)
sys.exit(int(os.environ["EXIT_CODE"]))
"""
#: A stand-in for python3 and the venv's python: appends its arguments to $CALLS_FILE; ``-m venv DIR``
#: makes DIR/bin/python, a link to itself.
FAKE_PYTHON = """#!{python}
import json, os, sys
with open(os.environ["CALLS_FILE"], "a") as handle:
    handle.write(json.dumps(sys.argv[1:]) + "\\n")
if sys.argv[1:3] == ["-m", "venv"]:
    os.makedirs(os.path.join(sys.argv[3], "bin"))
    os.symlink(os.path.abspath(sys.argv[0]), os.path.join(sys.argv[3], "bin", "python"))
"""


def load_yaml(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def action() -> dict[str, Any]:
    return dict(load_yaml(ACTION_FILE))


def step(step_id_or_name: str) -> dict[str, Any]:
    for entry in action()["runs"]["steps"]:
        if step_id_or_name in (entry.get("id"), entry.get("name")):
            return dict(entry)
    raise AssertionError(f"no step {step_id_or_name!r} in action.yml")


def step_env(
    entry: dict[str, Any], inputs: dict[str, str], outputs: dict[str, dict[str, str]]
) -> dict[str, str]:
    """The step's ``env`` with ``${{ inputs.NAME }}`` replaced by the input's value (or its default) and
    ``${{ steps.ID.outputs.NAME }}`` by ``outputs`` (empty when not given, as on the runner)."""
    values = {name: str(spec.get("default", "")) for name, spec in action()["inputs"].items()}
    unknown = set(inputs) - set(values)
    assert not unknown, f"not inputs of the action: {unknown}"
    values.update(inputs)

    def output(match: re.Match[str]) -> str:
        return outputs.get(match.group(1), {}).get(match.group(2), "")

    return {
        key: _OUTPUT.sub(output, _INPUT.sub(lambda m: values[m.group(1)], str(value)))
        for key, value in entry.get("env", {}).items()
    }


def run_step(
    entry: dict[str, Any],
    inputs: dict[str, str],
    environ: dict[str, str],
    workspace: Path,
    outputs: dict[str, dict[str, str]] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run one ``run:`` step as the runner does; ``outputs`` are the earlier steps' (step id → name →
    value), for ``${{ steps.ID.outputs.NAME }}`` in its ``env``."""
    script = workspace.parent / f"step-{entry.get('id', 'x')}.sh"
    script.write_text(entry["run"], encoding="utf-8")
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=workspace,
        env={**environ, **step_env(entry, inputs, outputs or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


def runner_environment(tmp_path: Path, path_first: Path) -> dict[str, str]:
    """A GitHub-like environment: the runner's variables, each file variable an empty temporary file."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    for name in ("output", "summary", "path", "env"):
        (tmp_path / name).write_text("")
    return {
        "PATH": f"{path_first}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
        "GITHUB_PATH": str(tmp_path / "path"),
        "GITHUB_ENV": str(tmp_path / "env"),
        "GITHUB_ACTION_PATH": str(PROJECT_ROOT),
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "org/repo",
        "GITHUB_SHA": "0123abcd",
        "RUNNER_TEMP": str(tmp_path),
    }


def test_action_passes_the_github_actions_schema() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-actions",
            str(ACTION_FILE),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def run_steps() -> list[dict[str, Any]]:
    """The action's ``run:`` steps (the others use actions/cache)."""
    return [dict(entry) for entry in action()["runs"]["steps"] if "run" in entry]


def test_scripts_take_inputs_only_through_the_environment() -> None:
    for entry in run_steps():
        assert entry["shell"] == "bash"
        assert "${{" not in entry["run"], entry["name"]
        syntax = subprocess.run(
            ["bash", "-n"], input=entry["run"], capture_output=True, text=True, timeout=60
        )
        assert (syntax.returncode, syntax.stderr) == (0, ""), entry["name"]


def test_outputs_come_from_the_scan_step() -> None:
    assert {name: spec["value"] for name, spec in action()["outputs"].items()} == {
        "sarif-file": "${{ steps.scan.outputs.sarif-file }}",
        "exit-code": "${{ steps.scan.outputs.exit-code }}",
    }


def fake_reflint(tmp_path: Path) -> Path:
    folder = tmp_path / "fakebin"
    folder.mkdir()
    program = folder / "reflint"
    program.write_text(FAKE_REFLINT.format(python=sys.executable), encoding="utf-8")
    program.chmod(0o755)
    return folder


def test_scan_step_with_default_inputs(tmp_path: Path) -> None:
    environ = runner_environment(tmp_path, fake_reflint(tmp_path))
    environ.update(ARGV_FILE=str(tmp_path / "argv.json"), EXIT_CODE="0")
    cache_dir = str(tmp_path / "reflint-cache")
    completed = run_step(step("scan"), {}, environ, tmp_path / "workspace", {"cache-key": {"dir": cache_dir}})
    assert completed.returncode == 0, completed.stderr
    assert json.loads((tmp_path / "argv.json").read_text()) == [
        "scan", "--fail-on", "error", "--cache-dir", cache_dir, "--cache-ttl", "86400",
        "--format", "github", "--sarif-file", f"{tmp_path}/reflint.sarif", "--", ".",
    ]  # fmt: skip
    # The stand-in wrote no SARIF file, so the output names none (the upload step is keyed on it).
    assert (tmp_path / "output").read_text() == "exit-code=0\n"


def test_scan_step_passes_every_input_and_records_reflint_s_exit_code(tmp_path: Path) -> None:
    environ = runner_environment(tmp_path, fake_reflint(tmp_path))
    environ.update(ARGV_FILE=str(tmp_path / "argv.json"), EXIT_CODE="1")
    inputs = {
        "paths": "docker\n'scripts/with space.sh'",
        "format": "github, text",
        "fail-on": "warning",
        "offline": "true",
        "credentials-for": "github.com\n git.corp.example:8443, ",
        "args": "--exclude 'third_party/**' --build-arg MEGATRON_REF=$HOME",
        "sarif-file": "out/reflint.sarif",
        "cache-ttl": "600",
    }
    completed = run_step(step("scan"), inputs, environ, tmp_path / "workspace", {"cache-key": {"dir": "c"}})
    # The scan step records the code; the last step exits with it, after the cache is saved.
    assert completed.returncode == 0
    assert json.loads((tmp_path / "argv.json").read_text()) == [
        "scan", "--fail-on", "warning", "--cache-dir", "c", "--cache-ttl", "600", "--offline",
        "--credentials-for", "github.com,,git.corp.example:8443,,",
        "--format", "github", "--format", "text", "--sarif-file", "out/reflint.sarif",
        "--exclude", "third_party/**", "--build-arg", "MEGATRON_REF=$HOME",
        "--", "docker", "scripts/with space.sh",
    ]  # fmt: skip
    assert (tmp_path / "output").read_text() == "exit-code=1\n"
    last = run_step(
        step("Exit with reflint's exit code"),
        {},
        environ,
        tmp_path / "workspace",
        {"scan": {"exit-code": "1"}},
    )
    assert last.returncode == 1


def test_the_cache_is_restored_from_the_latest_and_saved_once_a_day_whatever_the_scan_found() -> None:
    steps = action()["runs"]["steps"]
    names = [entry.get("id") or entry["name"] for entry in steps]
    assert names == [
        "cache-key",
        "restore-pip",
        "Install reflint",
        "Save pip's cache",
        "restore",
        "scan",
        "Save reflint's cache",
        "Exit with reflint's exit code",
    ]
    restore, save = steps[4], steps[6]
    # Pinned to a full commit id (the tag named in a comment, as pinact writes it).
    assert restore["uses"] == "actions/cache/restore@27d5ce7f107fe9357f9df03efb73ab90386fccae"
    assert save["uses"] == "actions/cache/save@27d5ce7f107fe9357f9df03efb73ab90386fccae"
    key = "reflint-refs-${{ runner.os }}-${{ steps.cache-key.outputs.day }}"
    assert restore["with"] == {
        "path": "${{ steps.cache-key.outputs.dir }}",
        "key": key,
        "restore-keys": "reflint-refs-${{ runner.os }}-",
    }
    assert save["with"] == {"path": "${{ steps.cache-key.outputs.dir }}", "key": key}
    assert restore["if"] == "inputs.cache == 'true'"
    # A pull_request_target run saves into the base branch's scope, which later runs restore, after it may
    # have run a stranger's code: it restores, never saves.
    assert save["if"] == (
        "inputs.cache == 'true' && steps.restore.outputs.cache-hit != 'true' "
        "&& steps.scan.outputs.cache-written == 'true' && github.event_name != 'pull_request_target'"
    )
    assert step("scan")["env"]["REFLINT_CACHE_DIR"] == "${{ steps.cache-key.outputs.dir }}"


def test_the_cache_step_names_a_folder_outside_the_workspace_and_the_day(tmp_path: Path) -> None:
    environ = runner_environment(tmp_path, Path(sys.executable).parent)
    completed = run_step(step("cache-key"), {}, environ, tmp_path / "workspace")
    assert completed.returncode == 0, completed.stderr
    dir_line, day_line, *pip_lines = (tmp_path / "output").read_text().splitlines()
    assert dir_line == f"dir={tmp_path}/reflint-cache"
    assert re.fullmatch(r"day=\d{4}-\d{2}-\d{2}", day_line)
    constraints = hashlib.sha256((PROJECT_ROOT / "action-constraints.txt").read_bytes()).hexdigest()[:16]
    assert pip_lines == [
        f"pip-dir={tmp_path}/reflint-pip-cache",
        f"python={sys.version_info.major}.{sys.version_info.minor}",
        f"constraints={constraints}",
    ]


def test_pip_s_cache_is_keyed_on_the_python_and_the_constraints_and_saved_when_it_missed() -> None:
    restore, save = step("restore-pip"), step("Save pip's cache")
    key = (
        "reflint-pip-${{ runner.os }}-${{ steps.cache-key.outputs.python }}-"
        "${{ steps.cache-key.outputs.constraints }}"
    )
    assert restore["uses"] == save["uses"].replace("/save@", "/restore@")
    assert restore["with"] == save["with"] == {"path": "${{ steps.cache-key.outputs.pip-dir }}", "key": key}
    assert (restore["if"], save["if"]) == (
        "inputs.cache == 'true'",
        "inputs.cache == 'true' && steps.restore-pip.outputs.cache-hit != 'true' "
        "&& github.event_name != 'pull_request_target'",
    )
    assert step("Install reflint")["env"] == {"PIP_CACHE_DIR": "${{ steps.cache-key.outputs.pip-dir }}"}


def test_the_constraints_pin_every_package_that_the_install_needs() -> None:
    """Each requirement of reflint and of its build backend, and theirs in turn (as installed with the
    tests, markers evaluated for this Python), has exactly one ``==`` constraint that applies here."""
    pinned: dict[str, list[str]] = {}
    for line in (PROJECT_ROOT / "action-constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate():
                [specifier] = requirement.specifier
                assert specifier.operator == "==", line
                pinned.setdefault(canonicalize_name(requirement.name), []).append(specifier.version)
    pyproject = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    needed: set[str] = set()
    pending = [*pyproject["project"]["dependencies"], *pyproject["build-system"]["requires"]]
    while pending:
        requirement = Requirement(pending.pop())
        name = canonicalize_name(requirement.name)
        applies = requirement.marker is None or requirement.marker.evaluate({"extra": ""})
        if name in needed or not applies:
            continue
        needed.add(name)
        pending.extend(metadata.requires(name) or [])
    assert sorted(needed - set(pinned)) == []
    assert {name: versions for name, versions in pinned.items() if len(versions) != 1} == {}


def test_action_scans_a_workspace_into_annotations_sarif_and_a_job_summary(tmp_path: Path) -> None:
    (tmp_path / "remotes").mkdir()
    environ = runner_environment(tmp_path, Path(sys.executable).parent)
    environ.update(fake_github(tmp_path / "remotes"))
    workspace = tmp_path / "workspace"
    (workspace / "Dockerfile").write_text(BAD_DOCKERFILE, encoding="utf-8")

    outputs = {"cache-key": {"dir": str(tmp_path / "reflint-cache")}}
    completed = run_step(step("scan"), {}, environ, workspace, outputs)

    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.splitlines() == [
        f"::error file=Dockerfile,line={BAD_REF_LINE},col={BAD_REF_COLUMN},endLine={BAD_REF_LINE},"
        f"endColumn={BAD_REF_END_COLUMN},title={BRANCH_PIN_CODE} branch-pin::{MEGATRON_RELEASE_BRANCH}",
        "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked (0 cached), 0 not checked)",
    ]
    # The report is in $RUNNER_TEMP: the work tree gets no untracked file.
    assert (tmp_path / "output").read_text() == (
        f"sarif-file={tmp_path}/reflint.sarif\ncache-written=true\nexit-code=1\n"
    )
    assert sorted(path.name for path in workspace.iterdir()) == ["Dockerfile"]

    sarif = json.loads((tmp_path / "reflint.sarif").read_text(encoding="utf-8"))
    assert sarif_schema_errors(sarif) == []
    (result,) = sarif["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == (BRANCH_PIN_CODE, "error")
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "Dockerfile", "uriBaseId": "%SRCROOT%"},
        "region": {
            "startLine": BAD_REF_LINE,
            "startColumn": BAD_REF_COLUMN,
            "endLine": BAD_REF_LINE,
            "endColumn": BAD_REF_END_COLUMN,
        },
    }

    # The job summary: Markdown, underscores escaped, a link to the line at the commit.
    escaped = MEGATRON_RELEASE_BRANCH.replace("_", "\\_")
    assert (tmp_path / "summary").read_text(encoding="utf-8").splitlines() == [
        "### reflint",
        "",
        "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked (0 cached), 0 not checked)",
        "",
        "| Severity | Rule | Location | Message |",
        "| --- | --- | --- | --- |",
        f"| error | {BRANCH_PIN_CODE} branch-pin | [Dockerfile:{BAD_REF_LINE}:{BAD_REF_COLUMN}]"
        f"(https://github.com/org/repo/blob/0123abcd/Dockerfile#L{BAD_REF_LINE}) | {escaped} |",
    ]


def readme_workflow() -> str:
    """The first ```yaml block of the README's "## GitHub Action" section."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## GitHub Action\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert section, 'README.md has no "## GitHub Action" section'
    block = re.search(r"^```ya?ml\n(.*?)^```", section.group(1), re.MULTILINE | re.DOTALL)
    assert block, 'the "## GitHub Action" section has no ```yaml block'
    return block.group(1)


def test_readme_example_workflow_passes_the_github_workflows_schema(tmp_path: Path) -> None:
    workflow = tmp_path / "reflint.yml"
    workflow.write_text(readme_workflow(), encoding="utf-8")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-workflows",
            str(workflow),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_readme_example_uploads_the_sarif_file_that_the_action_writes(tmp_path: Path) -> None:
    workflow = tmp_path / "reflint.yml"
    workflow.write_text(readme_workflow(), encoding="utf-8")
    document = load_yaml(workflow)
    (job,) = document["jobs"].values()
    steps = job["steps"]
    (reflint,) = [s for s in steps if str(s.get("uses", "")).startswith("ascend-reflint/reflint@")]
    (upload,) = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    assert set(reflint.get("with", {})) <= set(action()["inputs"])
    # The upload takes the Action's sarif-file output (hashFiles() sees only the workspace), also when
    # reflint failed the job on findings, never when it wrote no report.
    output = f"${{{{ steps.{reflint['id']}.outputs.sarif-file }}}}"
    assert upload["with"]["sarif_file"] == output
    # Not on a fork's pull request, whose token is read-only: the upload would fail the job.
    assert upload["if"] == (
        f"${{{{ !cancelled() && steps.{reflint['id']}.outputs.sarif-file != '' "
        "&& (github.event_name != 'pull_request' "
        "|| github.event.pull_request.head.repo.full_name == github.repository) }}"
    )
    permissions = job.get("permissions", document.get("permissions", {}))
    assert (permissions.get("security-events"), permissions.get("actions")) == ("write", "read")


def test_formats_in_args_cannot_take_the_sarif_file(tmp_path: Path) -> None:
    (tmp_path / "remotes").mkdir()
    environ = runner_environment(tmp_path, Path(sys.executable).parent)
    environ.update(fake_github(tmp_path / "remotes"))
    workspace = tmp_path / "workspace"
    (workspace / "Dockerfile").write_text(BAD_DOCKERFILE, encoding="utf-8")
    inputs = {"format": "text", "args": "--format json --output ../r.json"}

    completed = run_step(
        step("scan"), inputs, environ, workspace, {"cache-key": {"dir": str(tmp_path / "c")}}
    )

    assert completed.returncode == 0, completed.stderr
    assert json.loads((tmp_path / "r.json").read_text())["findings"][0]["code"] == BRANCH_PIN_CODE
    assert sarif_schema_errors(json.loads((tmp_path / "reflint.sarif").read_text(encoding="utf-8"))) == []


def test_a_warm_run_asks_no_remote_and_offline_works_after_the_first_run(tmp_path: Path) -> None:
    (tmp_path / "remotes").mkdir()
    environ = runner_environment(tmp_path, Path(sys.executable).parent)
    environ.update(fake_github(tmp_path / "remotes"))
    workspace = tmp_path / "workspace"
    (workspace / "Dockerfile").write_text(BAD_DOCKERFILE, encoding="utf-8")
    outputs = {"cache-key": {"dir": str(tmp_path / "reflint-cache")}}  # what actions/cache restores

    runs = [
        run_step(step("scan"), inputs, environ, workspace, outputs)
        for inputs in ({}, {}, {"offline": "true"})
    ]

    summary = (
        "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked ({} cached), 0 not checked)"
    )
    assert [run.stdout.splitlines()[-1] for run in runs] == [
        summary.format(0),
        summary.format(1),
        summary.format(1),
    ]


def test_install_step_installs_the_action_s_checkout_into_its_own_venv(tmp_path: Path) -> None:
    fakebin = tmp_path / "fakebin"
    fakebin.mkdir()
    (fakebin / "python3").write_text(FAKE_PYTHON.format(python=sys.executable), encoding="utf-8")
    (fakebin / "python3").chmod(0o755)
    environ = runner_environment(tmp_path, fakebin)
    environ["CALLS_FILE"] = str(tmp_path / "calls")
    completed = run_step(step("Install reflint"), {}, environ, tmp_path / "workspace")
    assert completed.returncode == 0, completed.stderr
    venv = tmp_path / "reflint-venv"
    calls = [json.loads(line) for line in (tmp_path / "calls").read_text().splitlines()]
    pip = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    constraints = ["--constraint", str(PROJECT_ROOT / "action-constraints.txt")]
    # The build backend first, at its pinned version; then reflint, built with it.
    assert calls == [
        ["-m", "venv", str(venv)],
        [*pip, *constraints, "hatchling"],
        [*pip, *constraints, "--no-build-isolation", str(PROJECT_ROOT)],
    ]
    assert (tmp_path / "path").read_text() == f"{venv}/bin\n"
