"""Hypothesis strategies for build recipes: text shaped like shell scripts, Dockerfiles, workflows and
requirement files (real commands, options, URLs and refs, quoted and expanded every way the formats allow,
with noise), so that random examples do pin refs and reach the extractors' corners."""

from __future__ import annotations

import json

from hypothesis import strategies as st

URLS = (
    "https://github.com/NVIDIA/Megatron-LM.git",
    "https://gitcode.com/Ascend/MindSpeed",
    "git@github.com:vllm-project/vllm-ascend.git",
    "ssh://git@github.com/sgl-project/sgl-kernel-npu",
    "https://alice:tok@github.com/a/b.git",
    "file:///srv/git/r.git",
    "/srv/git/r.git",
    "ext::sh",
    "$REPO",
    "${REPO}",
    "${REPO:-https://github.com/a/b}",
    "https://github.com/$OWNER/b.git",
    "${{ matrix.repo }}",
    "$(cat url)",
)
REFS = (
    "v1",
    "core_r0.18.0",
    "core_v0.18.0",
    "release/v1",
    "3f601f7ac1c062c46502646ff04c535013bfca00",
    "a84a248",
    "$REF",
    "${REF}",
    "${REF:-v2}",
    "${REF-v3}",
    "${{ matrix.ref }}",
    "é-tag",
    "日本",
    "[red]x[/red]",
    "v1.0.0rc1",
)
#: Characters and words that break things: quotes, escapes, expansions, line ends, control characters.
NOISE = (
    "'",
    '"',
    "\\",
    "$",
    "`",
    "$(",
    ")",
    "${",
    "}",
    "{",
    "(",
    ";",
    "&",
    "|",
    "#",
    "=",
    "@",
    "<<",
    ">",
    "*",
    "\t",
    "\r",
    "\r\n",
    "\x00",
    "\x1b[31m",
    "\u202e",
    "\u2028",
    "\x85",
    "\ufeff",
    "é",
    "日本",
    "\\\n",
    "--",
)


def _quoted(word: str) -> st.SearchStrategy[str]:
    """``word`` as written: bare, in single or double quotes, half-quoted, or ANSI-C quoted."""
    return st.sampled_from((word, f"'{word}'", f'"{word}"', f'"{word[:1]}"{word[1:]}', f"$'{word}'"))


def _word(values: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.sampled_from(values).flatmap(_quoted)


_REF = _word(REFS)
_URL = _word(URLS)
_CLONE_OPTION = st.one_of(
    st.tuples(st.sampled_from(("--branch", "-b", "--branch=", "-b")), _REF).map(
        lambda t: t[0] + t[1] if t[0].endswith("=") else f"{t[0]} {t[1]}"
    ),
    st.sampled_from(
        (
            "--depth 1",
            "--depth=1",
            "--recursive",
            "--single-branch",
            "--shallow-since=2024-01-01",
            "-q",
            "--no-checkout",
            "--filter=blob:none",
            "--origin up",
            "--",
        )
    ),
)


@st.composite
def _clone(draw: st.DrawFn) -> str:
    """``git clone`` with options before or after the repository, and a directory or not."""
    words = [*draw(st.lists(_CLONE_OPTION, max_size=3)), draw(_URL)]
    directory = draw(st.sampled_from(("", " repo", " /opt/repo", " $DIR", " Megatron-LM")))
    prefix = draw(st.sampled_from(("git clone ", "git clone ", "git -C /opt clone ", "git -c a.b=c clone ")))
    return prefix + " ".join(draw(st.permutations(words))) + directory


_CHECKOUT = st.tuples(
    st.sampled_from(("cd repo && ", "cd /opt/repo && ", "cd Megatron-LM && ", "git -C repo ", "")),
    st.sampled_from(
        ("git checkout ", "git switch ", "git reset --hard ", "git checkout -b x ", "git fetch origin ")
    ),
    _REF,
).map("".join)
_PIP = st.tuples(
    st.sampled_from(
        ("pip install ", "pip3 install -U ", "python -m pip install --no-deps ", "uv pip install ")
    ),
    st.sampled_from(("", "-e ", "name @ ")),
    _URL.map(lambda url: f"git+{url}"),
    st.sampled_from(("", "@")),
    st.one_of(st.just(""), _REF),
    st.sampled_from(("", "#egg=x", "#subdirectory=python")),
).map(lambda t: t[0] + t[1] + t[2] + (t[3] + t[4] if t[3] else "") + t[5])
_ASSIGNMENT = st.tuples(
    st.sampled_from(("", "export ", "local ", "readonly ", "declare -x ", "# ")),
    st.sampled_from(("REF", "REPO", "OWNER", "DIR")),
    st.one_of(_REF, _URL),
).map(lambda t: f"{t[0]}{t[1]}={t[2]}")
_NOISE = st.one_of(st.sampled_from(NOISE), st.text(max_size=6))
_COMMAND = st.one_of(
    _clone(),
    _CHECKOUT,
    _PIP,
    _ASSIGNMENT,
    st.tuples(st.sampled_from(("sudo ", "env A=1 ", "time ", "exec ", "echo ", "bash -c ")), _clone()).map(
        "".join
    ),
    _NOISE,
)
_SEPARATOR = st.sampled_from(("\n", " && ", "; ", " || ", " | ", " \\\n    && ", " &\n", "\n\n# comment\n"))


@st.composite
def shell_scripts(draw: st.DrawFn) -> str:
    """A shell script: commands joined by separators, some wrapped in ``$( )``, ``if``, ``bash -c`` or a
    heredoc fed to a shell, with noise anywhere."""
    parts: list[str] = []
    for command in draw(st.lists(_COMMAND, max_size=8)):
        wrapper = draw(
            st.sampled_from(
                (
                    "{}",
                    "{}",
                    "{}",
                    "x=$({})",
                    "if true; then\n{}\nfi",
                    "( {} )",
                    "bash -c '{}'",
                    'sh -c "{}"',
                    "bash <<EOF\n{}\nEOF",
                    "f() {{ {}; }}\nf",
                    "for v in 1; do {}; done",
                    "{} # trailing",
                )
            )
        )
        parts.append(wrapper.format(command) + draw(_SEPARATOR))
        if draw(st.booleans()):
            parts.append(draw(_NOISE))
    return "".join(parts)


def _exec_form(command: str) -> str:
    """``RUN ["word", …]``. No word ends in a character that JSON escapes (``"``, ``\\``): a span that
    ends on an escape stops inside it, a known limitation (see ``test_fixture_spans.py``)."""
    return "RUN " + json.dumps([word.rstrip('"\\') for word in command.split(" ")], ensure_ascii=False)


_RUN = st.one_of(
    st.tuples(_COMMAND, _SEPARATOR, _COMMAND).map(lambda t: "RUN " + "".join(t).replace("\n", " \\\n")),
    shell_scripts().map(lambda script: "RUN " + script.replace("\n", " \\\n")),
    shell_scripts().map(lambda script: f"RUN <<EOF\n{script}\nEOF"),
    _clone().map(_exec_form),
)
_INSTRUCTION = st.one_of(
    _RUN,
    _RUN,
    st.sampled_from(
        (
            "FROM ubuntu:22.04",
            "FROM base AS build",
            "ARG REF=v1",
            "ARG REPO=https://github.com/a/b",
            "ARG DIR",
            "ENV REF=core_v0.18.0",
            "ENV A=1 B=2",
            "WORKDIR /opt/repo",
            "WORKDIR $DIR",
            "# syntax=docker/dockerfile:1",
            "# escape=`",
            'SHELL ["/bin/bash", "-c"]',
            "USER root",
            "ONBUILD RUN git clone https://github.com/a/b",
            "COPY . /src",
        )
    ),
    _NOISE,
)


@st.composite
def dockerfiles(draw: st.DrawFn) -> str:
    """A Dockerfile: instructions (RUN in shell form with continuations, heredoc and exec form, ARG, ENV,
    WORKDIR, stages, parser directives) with noise."""
    return "\n".join(draw(st.lists(_INSTRUCTION, max_size=8))) + draw(st.sampled_from(("", "\n", "\\")))


def _block(script: str, indent: str) -> str:
    return "\n".join(indent + line if line else line for line in script.split("\n"))


@st.composite
def _run_value(draw: st.DrawFn) -> str:
    """A ``run:`` value in every YAML scalar style, indented for a step at six spaces."""
    script = draw(shell_scripts())
    style = draw(st.sampled_from(("|", "|-", "|+", ">", ">-", "plain", "single", "double", "|2")))
    if style == "plain":
        return " " + script.replace("\n", "\n          ")
    if style == "single":
        return " '" + script.replace("'", "''").replace("\n", "\n\n          ") + "'"
    if style == "double":
        return " " + json.dumps(script)
    return f" {style}\n" + _block(script, "          ")


_USES = (
    st.tuples(
        st.sampled_from(
            ("actions/checkout", "NVIDIA/Megatron-LM", "a/b/path", "./local", "docker://alpine", "a")
        ),
        st.sampled_from(("@", "@", "")),
        st.one_of(st.sampled_from(REFS), st.just("")),
        st.sampled_from(("", " # v4.2.2", "\n  ")),
    )
    .map("".join)
    .flatmap(lambda text: st.sampled_from((text, f"'{text}'", f'"{text}"', f">\n          {text}")))
)


@st.composite
def workflows(draw: st.DrawFn) -> str:
    """A workflow: env at three levels, jobs whose steps ``uses:`` actions and ``run:`` scripts in every
    scalar style, anchors and aliases, shells, and noise lines."""
    lines = ["on: push", "env:", f"  REF: {draw(st.sampled_from(REFS))}", "jobs:"]
    for job in range(draw(st.integers(0, 3))):
        lines += [
            f"  job{job}:",
            "    runs-on: " + draw(st.sampled_from(("ubuntu-latest", "windows-latest"))),
        ]
        if draw(st.booleans()):
            lines += ["    env:", f"      REPO: {draw(st.sampled_from(URLS))}"]
        lines.append("    steps:" + draw(st.sampled_from(("", " &steps"))))
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(("uses", "run", "run", "noise")))
            if kind == "uses":
                lines.append("      - uses: " + draw(_USES))
            elif kind == "run":
                shell = draw(st.sampled_from(("", "        shell: bash\n", "        shell: pwsh\n")))
                lines.append(f"      - name: step\n{shell}        run:" + draw(_run_value()))
            else:
                lines.append("      " + draw(_NOISE))
        if job and draw(st.booleans()):
            lines.append("    steps: *steps")
    return "\n".join(lines) + "\n"


_REQUIREMENT = st.one_of(
    _PIP.map(lambda line: line.split("install ", 1)[1]),
    st.sampled_from(
        (
            "x==1",
            "-r other.txt",
            "--index-url https://pypi.org/simple",
            "# comment",
            "\\",
            "",
            "git+https://github.com/a/b@v1 ; python_version < '3.9'",
            "git+https://${TOKEN}@github.com/a/b@v2",
        )
    ),
    _NOISE,
)


@st.composite
def requirement_files(draw: st.DrawFn) -> str:
    """A pip requirements file: ``git+`` URLs with refs and fragments, continuations, comments, noise."""
    lines = draw(st.lists(_REQUIREMENT, max_size=8))
    return "\n".join(line + draw(st.sampled_from(("", " \\", "  # c"))) for line in lines)


@st.composite
def pyprojects(draw: st.DrawFn) -> str:
    """A pyproject.toml whose dependency arrays hold ``name @ git+URL@REF`` in every TOML string style."""
    requirements = draw(st.lists(_PIP.map(lambda line: "name @ " + line.split("install ", 1)[1]), max_size=4))
    styles = ('"{}"', "'{}'", '"""{}"""', "'''{}'''")
    quoted = [draw(st.sampled_from(styles)).format(r.replace('"', "").replace("'", "")) for r in requirements]
    table = draw(
        st.sampled_from(
            (
                "[project]\ndependencies",
                "[build-system]\nrequires",
                "[project.optional-dependencies]\nextra",
                "[dependency-groups]\ndev",
            )
        )
    )
    return f"{table} = [\n  " + ",\n  ".join(quoted) + "\n]\n" + draw(st.sampled_from(("", "x = ", "[")))


def _toml_string(draw: st.DrawFn, text: str) -> str:
    """``text`` as a TOML string literal in a drawn style (a basic string with an escape or two)."""
    style = draw(st.sampled_from(("basic", "literal", "multi", "escaped")))
    if style == "literal" and "'" not in text:
        return f"'{text}'"
    if style == "multi":
        return '"""' + text.replace("\\", "\\\\").replace('"', '\\"') + '"""'
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    if style == "escaped" and escaped:
        escaped = f"\\u{ord(escaped[0]):04x}" + escaped[1:]
    return f'"{escaped}"'


@st.composite
def tool_sources(draw: st.DrawFn) -> str:
    """A pyproject.toml with uv sources and Poetry git dependencies: inline tables, lists of tables with
    markers, table headers, every string style, and traps (comments, another tool's table)."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        header = draw(st.sampled_from(("[tool.uv.sources]", "[tool.poetry.dependencies]", "[tool.other]")))
        name = draw(st.sampled_from(("a", "b-c", '"q.d"')))
        url, ref = (
            _toml_string(draw, draw(st.sampled_from(URLS))),
            _toml_string(draw, draw(st.sampled_from(REFS))),
        )
        key = draw(st.sampled_from(("tag", "branch", "rev")))
        entry = f"{{ git = {url}, {key} = {ref} }}"
        form = draw(st.sampled_from(("inline", "list", "comment")))
        body = {
            "inline": f"{name} = {entry}",
            "list": f"{name} = [\n  {entry},  # c\n]",
            "comment": f"# {name} = {entry}",
        }
        lines += [header, body[form]]
    return "\n".join(lines) + "\n"


@st.composite
def gitmodules(draw: st.DrawFn) -> str:
    """A .gitmodules: submodule sections with paths, URLs (quoted, relative, with comments), branches."""
    lines: list[str] = []
    for index in range(draw(st.integers(1, 4))):
        lines.append(f'[submodule "m{index}"]')
        url = draw(st.sampled_from((*URLS, "../sibling.git", "./x")))
        quote = draw(st.sampled_from(("", '"')))
        lines += [
            f"\tpath = m{index}",
            f"\turl = {quote}{url}{quote}{draw(st.sampled_from(('', ' # c', ' ;c')))}",
        ]
        lines += draw(
            st.lists(
                st.sampled_from(("\tbranch = main", "\tbranch = .", "\tshallow = true", "\tshallow")),
                max_size=2,
            )
        )
        lines += draw(st.lists(_NOISE, max_size=1))
    return "\n".join(lines) + "\n"


@st.composite
def pre_commit_configs(draw: st.DrawFn) -> str:
    """A .pre-commit-config.yaml: remote, local and meta repos, revs quoted every way, frozen comments."""
    entries: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        repo = draw(st.sampled_from((*URLS, "local", "meta")))
        rev = draw(st.sampled_from(REFS))
        quoted = draw(st.sampled_from((rev, json.dumps(rev), "'" + rev.replace("'", "''") + "'")))
        comment = draw(st.sampled_from(("", "  # frozen: v1.2.3", " # note")))
        entries.append(f"  - repo: {json.dumps(repo)}\n    rev: {quoted}{comment}\n    hooks: [{{id: x}}]")
    return "repos:\n" + "\n".join(entries) + "\n"
