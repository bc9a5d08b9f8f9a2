"""A script that ``bash -n`` accepts is never a file error: bash is the oracle (the tests run it; reflint
runs no shell). Each case is a construct that tree-sitter-bash refused on a real script, cut down; the
clone after it shows that the rest of the script is read."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ascend_reflint.extract import ExtractError, extract_file
from ascend_reflint.model import FileKind, SourceFile

CLONE = "git clone -b v1 https://github.com/o/r.git\n"

CASES = {
    # Megatron-LM tools/bisect.sh: a bad substitution fails only when it runs
    "bad substitution": 'log "Copied: $(ls "${that sGOLDEN_DIR}"/golden_values*.json)"\n',
    # TransformerEngine qa/L3_pytorch_FA_versions_test/test.sh: test's string comparison
    "escaped < in test": 'if [ "${fa_version}" \\< "3.0.0" ]\nthen\n  pip3 install x[cu13]==4.4.2\nfi\n',
    # vllm-ascend csrc/scripts/package/common/sh/install_common_parser.sh
    "escaped > in test": 'if [ "${block}" \\> "${max}" ]; then max="${block}"; fi\n',
    # vllm-ascend csrc/scripts/package/ops_transformer/scripts/opp_common.sh
    "dollar before a closing parenthesis": 'for f in $(ls -1 ${p} | grep "so"$); do echo "$f"; done\n',
    # vllm-ascend csrc/scripts/package/ops_transformer/scripts/opp_uninstall.sh
    "function named unset…": 'unsetenv() {\n  echo "unset"\n}\nunsetenv\n',
    # Megatron-LM tests/functional_tests/shell_test_utils/_run_training.sh
    "substring offset from a variable": 'VALUE="${ARGUMENT:$KEY_LENGTH+1}"\n',
    # MindSpeed-LLM tests/0day/glm4-9b-0414/ckpt_convert_glm4_0414_mcore2hf.sh
    "backquotes around a line break": "python convert.py \\\n   --save-dir ./out/\n`\n`\n",
}


def bash_accepts(script: str, tmp_path: Path) -> bool:
    path = tmp_path / "oracle.sh"
    path.write_text(script, encoding="utf-8")
    bash = shutil.which("bash")
    assert bash is not None
    return subprocess.run([bash, "-n", str(path)], capture_output=True, check=False).returncode == 0


def extract(script: str) -> SourceFile:
    source = SourceFile(path="s.sh", abspath="/x/s.sh", kind=FileKind.SHELL, text=script)
    extract_file(source)
    return source


@pytest.mark.parametrize("construct", sorted(CASES))
def test_what_bash_accepts_is_read_to_the_end(construct: str, tmp_path: Path) -> None:
    script = CASES[construct] + CLONE
    assert bash_accepts(script, tmp_path)

    source = extract(script)

    assert (source.error, [(pin.ref, pin.span.line) for pin in source.pins]) == (
        None,
        [("v1", script.count("\n"))],
    )


def test_what_bash_refuses_is_still_an_error(tmp_path: Path) -> None:
    script = 'if [ "$a" = b ]; then\n' + CLONE
    assert not bash_accepts(script, tmp_path)

    with pytest.raises(
        ExtractError, match=r"^line 1: shell syntax error: 'if' is never closed \('fi' is missing\)$"
    ):
        extract(script)


def test_every_fixture_script_that_bash_accepts_is_read_without_error(tmp_path: Path) -> None:
    scripts = sorted(Path(__file__).resolve().parents[1].rglob("*.sh"))
    assert scripts
    for script in scripts:
        text = script.read_text(encoding="utf-8", errors="replace")
        if bash_accepts(text, tmp_path):
            assert extract(text).error is None, script
