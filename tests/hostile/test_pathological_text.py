"""Text shaped to make a parser, a pattern or a mask do superlinear work costs linear time.

Each input here took minutes to hours before its fix (figures in the test), though no file is over a few
hundred kilobytes; the file-size cap (10 MiB) bounds nothing when the work is quadratic in a line's length.
The runs are bounded by CPU time (:func:`cpu_bounded`): far above what a linear reading takes (well under
a second of work), far below what the quadratic one did, so a regression is killed and fails the test.
"""

from __future__ import annotations

import json
import resource
from collections.abc import Callable
from pathlib import Path

from .support import ADDRESS_SPACE, json_output, run_reflint, write_tree

#: CPU seconds a run here may use: each needs about one (mostly Python's start-up).
CPU_SECONDS = 15


def cpu_bounded(seconds: int = CPU_SECONDS) -> Callable[[], None]:
    """A ``preexec_fn`` that caps the child's address space (as :func:`support.bounded`) and CPU time."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))

    return limit


def _pins(tree: Path) -> list[tuple[str, int, int, str | None]]:
    completed = run_reflint(["refs", "--format", "json", "--no-cache"], tree, preexec_fn=cpu_bounded())
    assert (completed.returncode, completed.stderr) == (0, "")
    document = json_output(completed)
    assert document["errors"] == []
    return [(pin["path"], pin["line"], pin["column"], pin["ref"]) for pin in document["pins"]]


def test_spaces_before_a_hash_that_starts_no_comment_in_a_requirements_file(tmp_path: Path) -> None:
    # pip's comment pattern (^|\s+)#.*$, searched as it is, tries every space of the run: 16,000 spaces
    # took 2.4 s, 200,000 about six minutes.
    requirement = "git+https://github.com/NVIDIA/Megatron-LM.git@core_r0.18.0#egg=megatron"
    write_tree(tmp_path, {"requirements.txt": requirement + " " * 200_000 + "\n"})

    assert _pins(tmp_path) == [("requirements.txt", 1, requirement.index("core_r0") + 1, "core_r0.18.0")]


def test_a_long_ref_and_a_run_of_question_marks_are_masked_in_linear_time(tmp_path: Path) -> None:
    # Credential masking runs over every ref and URL printed. Its user-information pattern tried each letter
    # of a run as the start of a scheme (a ref of 100,000 letters: 15.6 s; 200,000: a minute); its secret
    # query pattern each "?" of a run as the start of a parameter name (50,000: 130 s).
    long_ref = "a" * 200_000
    question_marks = "?" * 50_000
    write_tree(
        tmp_path,
        {
            "a.sh": f"git clone --branch {long_ref} https://github.com/o/r.git\n",
            "b.sh": f"git clone --branch v1 https://github.com/o/r.git{question_marks}\n",
        },
    )

    assert _pins(tmp_path) == [("a.sh", 1, 20, long_ref), ("b.sh", 1, 20, "v1")]


def test_many_fenced_blocks_and_comments_in_markdown(tmp_path: Path) -> None:
    # Each fence looked for the next ``` and the next ~~~ with str.find (the absent one read to the end),
    # each block counted its line from the top, and each fence was tested against every HTML comment:
    # this README (1.5 MB) took 108 s.
    fences = "<!-- c -->\n```text\n```\n```bash\n: git\n```\n" * 20_000 + "```text\n```\n" * 80_000
    write_tree(
        tmp_path,
        {
            "README.md": fences + "```bash\ngit clone -b v1 https://github.com/o/r\n```\n",
            "a.sh": "git clone -b v2 https://github.com/o/s\n",
        },
    )

    assert _pins(tmp_path) == [("README.md", 280_002, 14, "v1"), ("a.sh", 1, 14, "v2")]


def test_variables_that_double_on_each_line_are_left_unresolved(tmp_path: Path) -> None:
    # A=$A$A forty times over is a terabyte: each kind that expands variables ran out of memory (a file
    # error under the test's 2 GiB; a runner's whole memory without a limit).
    doubled = [f"A{n + 1}" for n in range(40)]
    write_tree(
        tmp_path,
        {
            "x.sh": "A0=x\n"
            + "".join(f'{name}="$A{n}$A{n}"\n' for n, name in enumerate(doubled))
            + 'git clone -b "$A40" https://github.com/o/r\n',
            "Dockerfile": "FROM x\nARG A0=x\n"
            + "".join(f"ARG {name}=${{A{n}}}${{A{n}}}\n" for n, name in enumerate(doubled))
            + "RUN git clone -b $A40 https://github.com/o/s\n",
            "docker-bake.hcl": 'variable "A0" { default = "x" }\n'
            + "".join(
                f'variable "{name}" {{ default = "${{A{n}}}${{A{n}}}" }}\n' for n, name in enumerate(doubled)
            )
            + 'target "t" { context = "https://github.com/o/t.git#${A40}" }\n',
        },
    )

    # The bake context is unresolved as a whole, so it is no git context: no pin, and no file error.
    assert _pins(tmp_path) == [("Dockerfile", 43, 18, None), ("x.sh", 42, 15, None)]


def test_code_blocks_nested_in_code_blocks_in_restructuredtext(tmp_path: Path) -> None:
    # A code block's body is literal text, but each directive in it was read as a block of its own with
    # the rest of the body: 500 nested blocks (250 kB) took 26 s, these 1,200 (2 MB) over a minute; and each
    # block counted its line from the top of the file.
    nested = "".join(" " * depth + ".. code-block:: bash\n\n" for depth in range(0, 3600, 3))
    write_tree(
        tmp_path,
        {
            "README.rst": nested + " " * 3600 + "git clone -b v1 https://github.com/o/r\n",
            "a.sh": "git clone -b v2 https://github.com/o/s\n",
        },
    )

    assert _pins(tmp_path) == [("README.rst", 2401, 3614, "v1"), ("a.sh", 1, 14, "v2")]


def test_a_shell_command_that_the_parser_recovers_from_slowly_is_bounded(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "a.sh": "git clone --branch v1 https://github.com/o/r.git\n",
            "b.sh": "git clone --branch " + ")" * 128_000 + " https://github.com/o/s.git\n",
        },
    )

    completed = run_reflint(["refs", "--format", "json", "--no-cache"], tmp_path, preexec_fn=cpu_bounded(8))

    # tree-sitter-bash's error recovery is quadratic: 64,000 ')' in one command took it 18 s, 1 MB over
    # an hour; the file's parse is given up on at its CPU budget (2 s + 4 µs a byte).
    assert completed.returncode == 0
    document = json_output(completed)
    assert [(error["path"], error["message"]) for error in document["errors"]] == [
        (
            "b.sh",
            "the shell parser took more than the file's 2.5 s of CPU time (tree-sitter-bash recovers slowly "
            "from some broken text); reflint reads no more of the file's shell",
        )
    ]
    assert [(pin["path"], pin["line"], pin["column"], pin["ref"]) for pin in document["pins"]] == [
        ("a.sh", 1, 20, "v1")
    ]


def test_a_file_whose_shell_parse_ran_out_of_time_is_not_cached(tmp_path: Path) -> None:
    # What a file gives when its parse is given up on depends on the machine's speed and load: kept in the
    # extraction cache, a run on a loaded machine would decide every later run's result.
    write_tree(
        tmp_path,
        {
            "a.sh": "git clone --branch v1 https://github.com/o/r.git\n",
            "Dockerfile": "FROM x\nRUN git clone --branch " + ")" * 128_000 + " https://github.com/o/s.git\n",
        },
    )
    refs = ["refs", "--format", "json", "--cache-dir", str(tmp_path / ".cache")]

    runs = [run_reflint(refs, tmp_path, preexec_fn=cpu_bounded()) for _ in range(2)]

    assert [(run.returncode, run.stderr) for run in runs] == [(0, ""), (0, "")]
    for document in map(json_output, runs):
        assert [(pin["path"], pin["ref"]) for pin in document["pins"]] == [("a.sh", "v1")]
        assert document["notices"] == [
            {
                "path": "Dockerfile",
                "message": "line 2: RUN: the shell parser took more than the file's 2.5 s of CPU time "
                "(tree-sitter-bash recovers slowly from some broken text); reflint reads no more of the "
                "file's shell",
            }
        ]
    (entries,) = (tmp_path / ".cache" / "extract").iterdir()
    assert len(list(entries.iterdir())) == 1  # a.sh's


def test_blanks_in_a_python_assignment_of_a_notebook(tmp_path: Path) -> None:
    # A notebook's NAME = value lines are read for the values IPython gives $NAME: the pattern's lazy value
    # before optional blanks and a comment tried every blank of a run as the value's end (40,000 blanks:
    # 15 s; these 200,000, six minutes).
    source = ["a = x" + " " * 200_000 + "y\n", "!git clone -b v1 https://github.com/o/r\n"]
    notebook = {"cells": [{"cell_type": "code", "source": source}], "metadata": {}, "nbformat": 4}
    write_tree(
        tmp_path, {"x.ipynb": json.dumps(notebook), "a.sh": "git clone -b v2 https://github.com/o/s\n"}
    )

    assert _pins(tmp_path) == [("a.sh", 1, 14, "v2"), ("x.ipynb", 1, 200_072, "v1")]


def _scan_findings(tree: Path) -> list[tuple[str, int, int, str]]:
    """``scan --offline`` of ``tree`` (CPU-bounded): each finding's code, line, column and message."""
    scan = ["scan", "--offline", "--format", "json", "--no-cache", "--cache-dir", str(tree / ".cache")]
    completed = run_reflint(scan, tree, preexec_fn=cpu_bounded())
    assert (completed.returncode, completed.stderr) == (0, "")
    document = json_output(completed)
    assert document["errors"] == []
    return [(f["code"], f["line"], f["column"], f["message"]) for f in document["findings"]]


def test_make_variables_that_double_or_multiply_are_given_up_on(tmp_path: Path) -> None:
    # B doubles on each of 40 lines (4 TiB, if it were made); A9 names A8 eight times, which names A7
    # eight times …: 8**9 references (before: killed for memory, or six minutes and 134 MB).
    lines = [
        "B := x",
        *["B := $(B)$(B)"] * 40,
        "A0 = x",
        *(f"A{n + 1} = " + f"$(A{n})" * 8 for n in range(9)),
    ]
    recipe = "all:\n\tgit clone -b $(B) https://github.com/o/q\n\tgit clone -b $(A9) https://github.com/o/r\n"
    write_tree(tmp_path, {"Makefile": "\n".join(lines) + "\n" + recipe})

    unresolved = "cannot be resolved statically ({}), so it was not checked"
    assert _scan_findings(tmp_path) == [
        (
            "RL009",
            53,
            15,
            'ref "$(B)" of github.com/o/q '
            + unresolved.format("a make variable's value would be longer than 65,536 characters"),
        ),
        (
            "RL009",
            54,
            15,
            'ref "$(A9)" of github.com/o/r '
            + unresolved.format("expanding this Makefile's variables took over 200,000 references: given up"),
        ),
    ]


def test_many_recipes_over_many_make_variables(tmp_path: Path) -> None:
    # Each recipe got every variable expanded afresh and the whole file's line index rebuilt: 4,000
    # variables and recipes took 34 s, 8,000 over two minutes.
    count = 8000
    variables = "".join(f"V{n} = v{n}\n" for n in range(count))
    recipes = "".join(f"\tgit clone -b $(V{n}) https://github.com/o/r{n}\n" for n in range(count))
    write_tree(tmp_path, {"Makefile": variables + "all:\n" + recipes})

    pins = _pins(tmp_path)

    assert len(pins) == count
    assert [pins[0], pins[-1]] == [
        ("Makefile", count + 2, 15, "v0"),
        ("Makefile", 2 * count + 1, 15, f"v{count - 1}"),
    ]


def test_a_recipe_of_many_computed_make_expansions(tmp_path: Path) -> None:
    # Each expansion that only make can compute counted the ones before it: 20,000 took 13 s.
    computed = "$(shell abcdefgh)" * 40_000
    write_tree(tmp_path, {"Makefile": f"all:\n\tgit clone -b v1 https://github.com/o/r {computed}\n"})

    assert _pins(tmp_path) == [("Makefile", 2, 15, "v1")]


def test_many_exec_form_runs(tmp_path: Path) -> None:
    # Each exec-form pin searched every exec-form RUN and split the whole file again: 8,000 took 7 s,
    # 16,000 about 25 s.
    count = 16_000
    runs = "".join(f'RUN ["git", "clone", "-b", "v{n}", "https://github.com/o/r{n}"]\n' for n in range(count))
    write_tree(tmp_path, {"Dockerfile": "FROM x\n" + runs})

    pins = _pins(tmp_path)

    assert len(pins) == count
    assert [pins[0], pins[-1]] == [
        ("Dockerfile", 2, 29, "v0"),
        ("Dockerfile", count + 1, 29, f"v{count - 1}"),
    ]


def test_many_clones_each_checked_out(tmp_path: Path) -> None:
    count = 20_000
    script = "".join(
        f"git clone https://github.com/o/r{n} /src/r{n}\ncd /src/r{n} && git checkout v{n}\n"
        for n in range(count)
    )
    write_tree(tmp_path, {"x.sh": script})

    pins = _pins(tmp_path)

    assert len(pins) == count
    assert [pins[0], pins[-1]] == [("x.sh", 2, 28, "v0"), ("x.sh", 2 * count, 32, f"v{count - 1}")]


def test_one_remote_at_a_thousand_refs_in_two_kinds_of_file(tmp_path: Path) -> None:
    count = 1000
    write_tree(
        tmp_path,
        {
            "a.sh": "".join(f"git clone -b a{n} https://github.com/o/r\n" for n in range(count)),
            "Dockerfile": "FROM x\n"
            + "".join(f"RUN git clone -b d{n} https://github.com/o/r\n" for n in range(count)),
        },
    )
    scan = ["scan", "--offline", "--select", "RL005", "--format", "json", "--no-cache"]

    completed = run_reflint(
        [*scan, "--cache-dir", str(tmp_path / ".cache")], tmp_path, preexec_fn=cpu_bounded()
    )

    assert (completed.returncode, completed.stderr) == (0, "")
    findings = json_output(completed)["findings"]
    assert len(findings) == 2 * count
    # Each finding names three other refs, counts the rest it looked at, and lists 20 related places: the
    # output grows with the refs, not with their square.
    assert {len(finding["related"]) for finding in findings} == {20}
    assert findings[0]["message"] == (
        'github.com/o/r is pinned at "d0" here, but at "a0" in a.sh and at "a1" in a.sh and at "a2" in a.sh '
        "and at least 17 other refs; the files of folder '.' should pin one ref (or list the remote under "
        "drift-allowed-remotes)"
    )


#: A file beside the hostile ones, whose finding the scan must keep.
BESIDE = {"a.sh": "git clone --branch v1 https://github.com/o/r.git\n"}


def _scan(
    tmp_path: Path, files: dict[str, str]
) -> tuple[int, list[tuple[object, ...]], list[tuple[str, str]]]:
    """Scan ``files`` and :data:`BESIDE` offline under the CPU and memory bounds: the exit code, the errors
    (path, line, message) and the findings (code, path)."""
    write_tree(tmp_path, {**BESIDE, **files})
    completed = run_reflint(
        ["scan", "--format", "json", "--offline", "--no-cache"], tmp_path, preexec_fn=cpu_bounded()
    )
    document = json_output(completed)
    errors = [(error["path"], error.get("line"), error["message"]) for error in document["errors"]]
    return (
        completed.returncode,
        errors,
        [(finding["code"], finding["path"]) for finding in document["findings"]],
    )


def test_a_shell_text_of_millions_of_commands_is_not_parsed(tmp_path: Path) -> None:
    # tree-sitter-bash's tree holds some 450 bytes per one-letter command, the walk as much again: 3 MB of
    # them took 30 s and 1.2 GB, a 10 MiB script (under the file-size cap) crashed the scan under a 2 GiB
    # address-space limit (SIGSEGV: every other file's findings lost). A long word costs little: it is read.
    commands = "git clone --branch v3 https://github.com/o/t.git\n" + "x;" * 1_500_000 + "\n"
    long_word = "echo " + "a" * 3_000_000 + " && git clone --branch v2 https://github.com/o/s.git\n"

    too_long = (
        "a shell text of more than 500,000 words, operators and lines, which is more than reflint parses "
        "(the parser holds some 240 bytes for each); reflint reads none of it"
    )
    assert _scan(tmp_path, {"b.sh": commands, "c.sh": long_word}) == (
        1,
        [("b.sh", None, too_long)],
        [("RL010", "a.sh"), ("RL010", "c.sh")],
    )


def test_a_dockerfile_of_too_many_instructions_is_not_read(tmp_path: Path) -> None:
    # Each instruction cost some 1 kB and 80 µs: a 10 MiB Dockerfile of "RUN x" lines took 2 GB and minutes,
    # and crashed the scan (MemoryError) under a 2 GiB address-space limit.
    dockerfile = "FROM x\nRUN git clone --branch v3 https://github.com/o/t.git\n" + "RUN x\n" * 60_000

    assert _scan(tmp_path, {"Dockerfile": dockerfile}) == (
        1,
        [("Dockerfile", 50_001, "more than 50,000 instructions; reflint reads none of the file")],
        [("RL010", "a.sh")],
    )


def test_a_run_of_many_continuation_lines_is_read_in_linear_time(tmp_path: Path) -> None:
    # Each continuation line was added to the instruction's text by copying it: 160,000 short lines took
    # 35 s, 320,000 (2.2 MB) four minutes; these 90,000 longer ones (2.7 MB) longer still.
    clone = "RUN git clone --branch v1 https://github.com/o/r.git && \\\n"
    more = "echo aaaaaaaaaaaaaaaaaaaa && \\\n" * 90_000
    write_tree(tmp_path, {"Dockerfile": "FROM x\n" + clone + more + "x\n"})

    assert _pins(tmp_path) == [("Dockerfile", 2, 24, "v1")]


def test_a_recipe_or_a_block_of_too_many_lines_is_not_read_and_documentation_is(tmp_path: Path) -> None:
    # Extraction holds some hundreds of bytes per line: a Makefile of 3.5 million recipe lines (10 MiB) took
    # 1.9 GB, a requirements file of 300,000 pins 0.7 GB and 38 s. A block of documentation is held to it:
    # its lines were assembled one by one (a 10 MiB fence: 0.9 GB).
    files = {
        "Makefile": "all:\n\tgit clone --branch v3 https://github.com/o/t.git\n" + "\tx\n" * 150_000,
        "README.md": "text\n" * 150_000 + "```bash\ngit clone --branch v2 https://github.com/o/s.git\n```\n",
        "install.md": "```bash\ngit clone --branch v4 https://github.com/o/u.git\n"
        + "x\n" * 150_000
        + "```\n",
    }

    assert _scan(tmp_path, files) == (
        1,
        [
            ("Makefile", None, "more than 100,000 lines, more than any recipe holds"),
            ("install.md", 2, "a block of more than 100,000 lines, more than any recipe holds"),
        ],
        [("RL010", "README.md"), ("RL010", "a.sh")],
    )


def test_a_yaml_flow_list_of_too_many_items_is_not_read(tmp_path: Path) -> None:
    # Each node cost some 1 kB and 35 µs, and a flow list holds any number on one line: a GitLab CI script
    # of 3.5 million items (10 MiB) took 3.5 GB.
    gitlab_ci = (
        "build:\n  script: [" + "x, " * 300_000 + "git clone --branch v2 https://github.com/o/s.git]\n"
    )

    assert _scan(tmp_path, {".gitlab-ci.yml": gitlab_ci}) == (
        1,
        [(".gitlab-ci.yml", 2, "more than 200,000 YAML nodes, more than any recipe holds")],
        [("RL010", "a.sh")],
    )


def test_a_toml_array_of_too_many_strings_is_not_read(tmp_path: Path) -> None:
    # Each git URL became a pin of some 4 kB, and an array holds any number on one line: 250,000 of them
    # (10 MiB) took 1.1 GB and 47 s.
    items = '"b @ git+https://github.com/o/s.git@v2", ' * 60_000
    pyproject = f'[project]\nname = "x"\ndependencies = [{items}]\n'

    assert _scan(tmp_path, {"pyproject.toml": pyproject}) == (
        1,
        [("pyproject.toml", 3, "more than 50,000 strings, more than any recipe holds")],
        [("RL010", "a.sh")],
    )


def test_a_notebook_cell_of_millions_of_escapes_is_read_in_bounded_memory(tmp_path: Path) -> None:
    # The pattern of a JSON string kept a backtracking point per character: a 10 MiB cell took 1.2 GB.
    # The cell's JSON strings as written: the second with 1.5 million \u escapes.
    strings = (
        '"!git clone --branch v3 https://github.com/o/t.git\\n", "x = \'' + "\\u0041" * 1_500_000 + "'\\n\""
    )
    cell = '{"cell_type": "code", "metadata": {}, "outputs": [], "source": [' + strings + "]}"
    write_tree(tmp_path, {"a.ipynb": '{"cells": [' + cell + '], "metadata": {}, "nbformat": 4}\n'})

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))

    completed = run_reflint(["refs", "--format", "json", "--no-cache"], tmp_path, preexec_fn=limit)

    assert (completed.returncode, completed.stderr) == (0, "")
    assert [(pin["path"], pin["line"], pin["ref"]) for pin in json_output(completed)["pins"]] == [
        ("a.ipynb", 1, "v3")
    ]
