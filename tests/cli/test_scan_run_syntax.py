"""RL021 (a Dockerfile ``RUN`` that is not valid shell) through ``reflint scan``: exact findings for what
bash refuses, and silence on what it accepts (each trap's shell text is checked with ``bash -n`` here).

The RUN texts are written for these tests, cut down from shapes seen in real Dockerfiles;
``benchmarks/run_syntax_oracle.py`` compares every RUN of the real repositories with ``bash -n``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import Scan

from ascend_reflint.cli import main
from ascend_reflint.extract import budget

BROKEN = """\
FROM ubuntu:22.04
RUN if [ -n "$REF" ]; then \\
      echo "$REF"; \\
    echo done
RUN pip install "torch==2.1 && echo ok
RUN test -f /opt/x && then echo y
RUN apt-get update;; apt-get install -y curl
RUN ["bash", "-c", "set -e; (cd /src && make"]
RUN <<EOT
set -e
for f in a b; do
  echo $f
EOT
RUN git clone --branch v1 https://github.com/o/r.git && cd r && make)
RUN make && ; make install
RUN for x do echo "$x"; done && [ "$A" = b ) ]
"""

WHY = "the shell refuses it, so the build fails at this RUN"

#: Shell texts that bash accepts, each a RUN of the trap Dockerfile (under ``SHELL ["/bin/bash", "-c"]``).
BASH_ACCEPTS = [
    # bash-only syntax, under a bash SHELL
    'arr=(a b) && for x in "${arr[@]}"; do [[ -n "$x" ]] && echo "${x//a/b}"; done',
    # a bad substitution fails only when the line runs: `bash -n` reads anything up to the `}`
    'echo "${PYTHON VERSION}" && echo ${ X}',
    # a compound command followed by a reserved word with no `;` between
    'if [ -n "$A" ]; then if [ -n "$B" ]; then echo b; fi else echo a; fi',
    'case "$X" in a) echo a;; *) echo b;; esac',
    # test's string comparison, and a `$` that ends a word before `)`
    'if [ "$V" \\< "3.0" ]; then echo old; fi && echo $(ls | grep "so"$)',
    "echo fi done then && X=then",
    # a parenthesis in an expansion's word or escaped in a case pattern, which the grammar reads as syntax
    'echo ${x//)/} "${x:?err)}" && case "$x" in *\\)*) echo p;; esac',
    # an escaped backquote: a command substitution nested in another
    "echo `echo \\`echo hi\\``",
    # loops over an empty word list and over the positional parameters
    'for x in; do echo "$x"; done && for x do echo "$x"; done',
    # a command substitution whose text starts with a subshell (no arithmetic: no `))` closes it)
    'echo $((echo a) ) && ((cd /tmp && pwd) ) && X="$((echo b) )"',
    # a parenthesis in a regular expression's bracket expression
    "[[ x =~ [)] ]] && [[ x =~ a[()]b ]]",
    # `[` is a command whose words are checked when it runs; `[x` is a word (a malformed exec form is shell
    # form: BuildKit's parseMaybeJSON)
    '[ \\( "$A" = b \\) ] || [ "$A" = b -o "$B" = c ] && [ x y z w ]',
    "[x",
]
TRAPS = (
    "FROM ubuntu:22.04 AS bash\n"
    'SHELL ["/bin/bash", "-o", "pipefail", "-c"]\n'
    + "".join(f"RUN {text}\n" for text in BASH_ACCEPTS)
    + """\
RUN cat <<'EOF' > /etc/app.conf
[section]
key = "value with a quote left open
fi )
EOF
RUN <<EOF
if [ -f /etc/app.conf ]; then
  echo ok
fi
EOF
RUN git clone --branch <branch> https://github.com/o/r.git && pip install {{ package }} %(extra)s
RUN ["python3", "-c", "print('(unclosed')"]
FROM ubuntu:22.04 AS sh
RUN [[ -n "$X" ]] && echo x
"""
)
#: A template whose two branches, both kept when its syntax is masked, open an `if` each: rendered, one.
TEMPLATE = """\
FROM ubuntu:22.04
RUN {% if cuda %}if [ -d /usr/local/cuda ]; then{% else %}if [ -d /opt/rocm ]; then{% endif %} \\
      echo gpu; \\
    fi
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def rl021(line: int, column: int, what: str) -> str:
    """The text-format line of an RL021 finding in ``Dockerfile``."""
    return f"Dockerfile:{line}:{column}: RL021 [error] this RUN is not valid shell: {what}; {WHY}"


def test_rl021_reports_each_run_that_is_not_valid_shell_where_the_edit_goes(
    project: Path, scan: Scan
) -> None:
    (project / "Dockerfile").write_text(BROKEN)

    code, out, _ = scan("--offline", "--select", "RL021", "-q", "Dockerfile")

    assert code == 1
    assert out == [
        rl021(2, 5, "'if' is never closed ('fi' is missing)"),
        rl021(5, 17, "the quote '\"' is never closed"),
        rl021(6, 23, "syntax error near 'then'"),
        rl021(7, 19, "syntax error near ';;'"),
        rl021(8, 29, "'(' is never closed (')' is missing)"),
        rl021(11, 1, "'for' is never closed ('done' is missing)"),
        rl021(14, 69, "syntax error near ')'"),
        rl021(15, 13, "syntax error near ';'"),
        rl021(16, 44, "syntax error near ')'"),
    ]


def test_the_pins_of_a_run_that_is_not_valid_shell_are_still_read(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "Dockerfile").write_text(BROKEN)

    assert main(["refs", "Dockerfile"]) == 0
    assert capsys.readouterr().out == "Dockerfile:14:24: github.com/o/r v1 (clone-branch)\n"


def test_rl021_is_silent_on_what_bash_accepts(project: Path, scan: Scan, tmp_path: Path) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    for text in BASH_ACCEPTS:
        assert subprocess.run([bash, "-n", "-c", text], capture_output=True).returncode == 0, text
    (project / "Dockerfile").write_text(TRAPS)

    code, out, _ = scan("--offline", "--select", "RL021,RL022", "-q", "Dockerfile")

    # Bash syntax under /bin/sh is RL022's, never RL021's.
    assert (code, out) == (
        0,
        [
            "Dockerfile:29:5: RL022 [warning] the test `[[` is bash syntax, but this RUN runs in "
            "/bin/sh (dash on Debian and Ubuntu), which refuses it or runs something else; add "
            '`SHELL ["/bin/bash", "-c"]` before it, or run the script with `bash -c`'
        ],
    )


def test_rl021_leaves_a_templates_runs_to_the_rendered_text(project: Path, scan: Scan) -> None:
    (project / "Dockerfile.j2").write_text(TEMPLATE)

    assert scan("--offline", "--select", "RL021", "-q", "Dockerfile.j2")[:2] == (0, [])


def test_a_run_that_cannot_pin_is_parsed_after_the_pins_so_a_spent_budget_loses_none(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # tree-sitter-bash recovers from 20,000 `)` in about 2 s: past a budget of 0.1 s.
    monkeypatch.setattr(budget, "FLOOR_SECONDS", 0.1)
    monkeypatch.setattr(budget, "SECONDS_PER_BYTE", 0.0)
    (project / "Dockerfile").write_text(
        "FROM ubuntu:22.04\nRUN echo "
        + ")" * 20_000
        + "\nRUN git clone --branch v1 https://github.com/o/r.git\n"
    )

    assert main(["refs", "Dockerfile"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Dockerfile:3:24: github.com/o/r v1 (clone-branch)\n"
    assert captured.err == (
        "Dockerfile: notice: line 2: RUN: the shell parser took more than the file's 0.1 s of CPU time "
        "(tree-sitter-bash recovers slowly from some broken text); reflint reads no more of the file's "
        "shell\n"
    )
