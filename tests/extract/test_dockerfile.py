"""Dockerfile reading (ascend_reflint.extract.dockerfile): what each RUN hands the shell extractor, where
every character of it sits in the file, and which ARG/ENV values it sees.

These tests replace the shell session with a recorder, so they pin the Dockerfile side of the contract:
the exact shell text, its source map, the scope, the working directory and the stage of every RUN.
Pins end to end (with the real shell extractor) are in test_dockerfile_pins.py.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import pytest

from ascend_reflint.extract import ExtractError
from ascend_reflint.extract import shell as shell_module
from ascend_reflint.extract.dockerfile import extract_dockerfile
from ascend_reflint.model import (
    CommandIssue,
    EnvSetting,
    FileKind,
    Invocation,
    Origin,
    Resolution,
    SourceFile,
    Span,
)
from ascend_reflint.resolve import Binding, Expansion, Provenance, Scope, expand
from ascend_reflint.sourcemap import SourceMap


@dataclass
class Run:
    """One ``ShellSession.run`` call as the recorder saw it."""

    text: str
    source_map: SourceMap
    scope: Scope
    cwd: str
    stage: str | None

    def at(self, needle: str, occurrence: int = 0) -> tuple[int, int]:
        """The file (line, column) of the ``occurrence``-th ``needle`` in the shell text."""
        index = -1
        for _ in range(occurrence + 1):
            index = self.text.index(needle, index + 1)
        return self.source_map.position(index)

    def value(self, word: str) -> Expansion:
        """The word's value here (where the value is written is tested in test_provenance.py)."""
        return expand(word, self.scope)._replace(provenance=None)


@dataclass
class Recorder:
    """Stands in for ShellSession; records what the Dockerfile extractor hands it."""

    path: str
    kind: FileKind
    scope: Scope
    stage: str | None = None
    cwd: str = ""
    notices: list[str] = field(default_factory=list)
    issues: list[CommandIssue] = field(default_factory=list)
    invocations: list[Invocation] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)

    def run(self, text: str, source_map: SourceMap, system_shell: object = None) -> None:
        self.runs.append(Run(text, source_map, self.scope, self.cwd, self.stage))

    def finish(self) -> list[object]:
        return []


@pytest.fixture
def sessions(monkeypatch: pytest.MonkeyPatch) -> list[Recorder]:
    created: list[Recorder] = []

    def factory(path: str, kind: FileKind, scope: Scope, stage: str | None = None) -> Recorder:
        session = Recorder(path, kind, scope, stage)
        created.append(session)
        return session

    monkeypatch.setattr(shell_module, "ShellSession", factory)
    return created


def extract(text: str, build_args: dict[str, str] | None = None) -> SourceFile:
    source = SourceFile(path="docker/Dockerfile", abspath="/x/docker/Dockerfile", kind=FileKind.DOCKERFILE)
    source.text = textwrap.dedent(text).lstrip("\n")
    extract_dockerfile(source, build_args or {})
    return source


def runs(sessions: list[Recorder]) -> list[Run]:
    return [run for session in sessions for run in session.runs]


# --- line reading -----------------------------------------------------------------------------------


def test_continuation_joins_lines_and_drops_comment_and_empty_lines(sessions: list[Recorder]) -> None:
    # dockerfile-parse joins these lines into a value that cannot be mapped back to file positions.
    extract(
        """
        FROM ubuntu
        RUN echo start && \\
            # git checkout old-ref \\
            git clone https://x/a.git && \\

          cd a && git checkout v1
        """
    )
    (run,) = runs(sessions)
    assert run.text == "echo start &&     git clone https://x/a.git &&   cd a && git checkout v1"
    assert run.at("echo") == (2, 5)
    assert run.at("git clone") == (4, 5)
    assert run.at("git checkout") == (6, 11)
    assert run.at("v1") == (6, 24)
    assert run.source_map.span(run.text.index("v1"), run.text.index("v1") + 2) == Span(6, 24, 6, 26)


def test_backslash_then_spaces_continues_but_escaped_backslash_does_not(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN git clone \\  \n  https://x/a.git\nRUN git clone u \\\\\nRUN git fetch\n")
    assert [run.text for run in runs(sessions)] == [
        "git clone   https://x/a.git",
        "git clone u \\\\",
        "git fetch",
    ]
    assert runs(sessions)[0].at("https") == (3, 3)


def test_escape_directive_makes_backtick_the_continuation(sessions: list[Recorder]) -> None:
    extract("# escape=`\nFROM a\nRUN git clone `\n    https://x/a.git C:\\dir\\\n")
    (run,) = runs(sessions)
    assert run.text == "git clone     https://x/a.git C:\\dir\\"
    assert run.at("https") == (4, 5)


def test_crlf_line_endings_and_a_byte_order_mark_keep_positions(sessions: list[Recorder]) -> None:
    extract("\ufeffFROM a\r\nRUN git clone \\\r\n  -b v1 u\r\nRUN <<EOF\r\ngit fetch\r\nEOF\r\n")
    first, second = runs(sessions)
    assert (first.text, first.at("v1")) == ("git clone   -b v1 u", (3, 6))
    assert (second.text, second.at("fetch")) == ("git fetch\n", (5, 5))


def test_directive_after_a_comment_is_only_a_comment(sessions: list[Recorder]) -> None:
    extract("# a comment\n# escape=`\nFROM a\nRUN git clone \\\n  u\n")
    assert runs(sessions)[0].text == "git clone   u"


def test_repeated_or_bad_directive_is_an_error(sessions: list[Recorder]) -> None:
    with pytest.raises(ExtractError, match="line 2: only one escape parser directive"):
        extract("# escape=`\n# escape=\\\nFROM a\n")
    with pytest.raises(ExtractError, match="invalid escape token"):
        extract("# escape=x\nFROM a\n")


def test_run_flags_and_leading_whitespace_are_not_shell_text(sessions: list[Recorder]) -> None:
    extract("FROM a\n  run --mount=type=cache,target=/root/.cache --network=host  git clone u\n")
    (run,) = runs(sessions)
    assert run.text == "git clone u"
    assert run.at("git") == (2, 62)


def test_run_without_git_is_not_handed_to_the_shell(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN apt-get update && pip install torch\nRUN echo git\n")
    assert [run.text for run in runs(sessions)] == ["echo git"]


def test_run_using_a_variable_whose_value_names_git_is_handed_to_the_shell(sessions: list[Recorder]) -> None:
    extract("FROM a\nENV PKG=git+https://x/a.git@v1\nRUN pip install $PKG\nRUN pip install $OTHER\n")
    assert [run.text for run in runs(sessions)] == ["pip install $PKG"]


# --- heredocs ---------------------------------------------------------------------------------------


def test_heredoc_body_is_the_script_and_is_not_read_as_instructions(sessions: list[Recorder]) -> None:
    # dockerfile-parse (its issue #145) reads heredoc body lines as instructions.
    source = extract(
        """
        FROM ubuntu
        RUN <<EOF
        git clone --branch v1 https://x/a.git
        FROM bogus AS not_a_stage
        EOF
        RUN git fetch
        """
    )
    first, second = runs(sessions)
    assert first.text == "git clone --branch v1 https://x/a.git\nFROM bogus AS not_a_stage\n"
    assert first.at("v1") == (3, 20)
    assert second.text == "git fetch"
    assert {run.stage for run in runs(sessions)} == {"0"}
    assert source.notices == []


def test_chomped_and_quoted_heredocs(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN <<-'EOS'\n\tgit clone u\n\tEOS\nRUN <<\"EOF\"\ngit fetch\nEOF\n")
    first, second = runs(sessions)
    assert first.text == "\tgit clone u\n"
    assert first.at("git") == (3, 2)
    assert second.text == "git fetch\n"
    assert second.at("git") == (6, 1)


def test_heredoc_fed_to_a_shell_is_the_script(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN bash -ex <<EOF\ngit clone u\nEOF\n")
    (run,) = runs(sessions)
    assert run.text == "git clone u\n"
    assert run.at("git") == (3, 1)


def test_heredoc_fed_to_python_is_skipped_with_a_notice(sessions: list[Recorder]) -> None:
    source = extract(
        "FROM a\nRUN python3 <<EOF\nimport os\nos.system('git clone u')\nEOF\n"
        "RUN <<EOF\n#!/usr/bin/env python3\nprint('git')\nEOF\nRUN python3 <<EOF\nprint(1)\nEOF\n"
    )
    assert runs(sessions) == []
    assert source.notices == [
        "line 2: RUN heredoc is run by python3, not a shell; not scanned for pins",
        "line 6: RUN heredoc is run by python3, not a shell; not scanned for pins",
    ]


def test_shebang_shell_heredoc_is_the_script(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN <<EOF\n#!/bin/bash\ngit clone u\nEOF\n")
    assert runs(sessions)[0].text == "#!/bin/bash\ngit clone u\n"


def test_data_heredoc_goes_to_the_shell_in_a_brace_group_holding_its_body(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN cat <<EOF > /etc/x && git clone u\nline\nEOF\n")
    (run,) = runs(sessions)
    assert run.text == "{ cat <<EOF > /etc/x\nline\nEOF\n} && git clone u"
    assert run.at("{") == (2, 5)  # inserted: mapped to the command name
    assert run.at("git") == (2, 27)
    assert run.at("line") == (3, 1)
    assert run.at("EOF", 1) == (4, 1)
    assert run.at("}") == (4, 4)  # inserted: mapped just after the terminator


def test_of_several_heredocs_on_one_command_the_last_on_standard_input_counts(
    sessions: list[Recorder],
) -> None:
    extract("FROM a\nRUN cat <<A <<-B 3<<C && git fetch\na1\nA\n\tb1\n\tB\nc1\nC\n")
    (run,) = runs(sessions)
    assert run.text == "{ cat  <<-B \n\tb1\nB\n} && git fetch"
    assert (run.at("<<-B"), run.at("b1"), run.at("B", 1), run.at("git")) == ((2, 13), (5, 2), (6, 2), (2, 26))


@pytest.mark.parametrize(
    ("line", "body"),
    [
        ("RUN <<EOT bash", "git clone u\n"),
        ("RUN <<EOT sh -ex", "git clone u\n"),
        ("RUN 0<<EOT bash -e", "git clone u\n"),
        ("RUN <<-EOT", "\tgit clone u\n"),
        ('RUN <<"EOT"', "git clone u\n"),
        ("RUN <<'EOT' bash", "git clone u\n"),
    ],
)
def test_heredoc_on_a_shell_s_standard_input_before_or_after_it_is_the_script(
    sessions: list[Recorder], line: str, body: str
) -> None:
    terminator = "\tEOT" if "<<-" in line else "EOT"
    source = extract(f"FROM a\n{line}\n{body}{terminator}\n")
    (run,) = runs(sessions)
    assert run.text == body
    assert run.at("git") == (3, body.index("git") + 1)
    assert source.notices == []


def test_two_heredocs_fed_to_shells_each_go_in_a_brace_group(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN <<A bash && <<B sh -e\ngit clone a\nA\ngit clone b\nB\n")
    (run,) = runs(sessions)
    assert run.text == " { bash <<A\ngit clone a\nA\n} &&  { sh -e <<B\ngit clone b\nB\n}"
    assert [run.at("<<A"), run.at("git clone a"), run.at("<<B"), run.at("git clone b")] == [
        (2, 5),
        (3, 1),
        (2, 17),
        (5, 1),
    ]


def test_the_buildkit_example_of_two_heredocs_in_one_run(sessions: list[Recorder]) -> None:
    # The Dockerfile reference, "Here-Documents" (with "git" in a body, so that the RUN is read).
    extract("FROM a\nRUN <<FILE1 cat > file1 && <<FILE2 cat > file2\nI am\nfirst\nFILE1\ngit\nFILE2\n")
    (run,) = runs(sessions)
    assert (
        run.text == " { cat > file1 <<FILE1\nI am\nfirst\nFILE1\n} &&  { cat > file2 <<FILE2\ngit\nFILE2\n}"
    )


def test_semicolon_after_a_heredoc_and_reserved_words_stay_outside_the_group(
    sessions: list[Recorder],
) -> None:
    # BuildKit splits heredoc words at blanks only: `<<A;` would open a heredoc named "A;".
    extract("FROM a\nRUN if true; then bash <<A ; fi; git fetch\ngit clone u\nA\n")
    (run,) = runs(sessions)
    assert run.text == "if true; then { bash <<A\ngit clone u\nA\n} ; fi; git fetch"


def test_heredoc_of_a_compound_command_stays_with_its_body_after_the_line(sessions: list[Recorder]) -> None:
    extract("FROM a\nRUN while read r; do git fetch $r; done <<A && git fetch\norigin\nA\n")
    (run,) = runs(sessions)
    assert run.text == "while read r; do git fetch $r; done <<A && git fetch\norigin\nA"


def test_unterminated_heredoc_is_an_error_after_earlier_runs(sessions: list[Recorder]) -> None:
    source = SourceFile(
        path="D", abspath="/D", kind=FileKind.DOCKERFILE, text="FROM a\nRUN git fetch\nRUN <<EOF\nx\n"
    )
    with pytest.raises(ExtractError, match="line 3: unterminated heredoc <<EOF"):
        extract_dockerfile(source, {})
    assert [run.text for run in runs(sessions)] == ["git fetch"]


# --- exec form --------------------------------------------------------------------------------------


def test_exec_form_shell_c_string_maps_into_the_json_string(sessions: list[Recorder]) -> None:
    extract('FROM a\nRUN ["/bin/bash", "-ceuxo", "pipefail", "git clone -b v1 https://x/a.git"]\n')
    (run,) = runs(sessions)
    assert run.text == "git clone -b v1 https://x/a.git"
    assert run.at("v1") == (2, 55)


def test_exec_form_shell_c_string_with_escapes(sessions: list[Recorder]) -> None:
    extract('FROM a\nRUN ["sh", "-c", "echo \\"x\\" && git checkout \\u0076"]\n')
    (run,) = runs(sessions)
    assert run.text == 'echo "x" && git checkout v'
    assert run.at('"x"') == (2, 24)
    assert run.at("x") == (2, 26)
    assert run.at("git") == (2, 33)
    assert run.at("v") == (2, 46)


def test_exec_form_program_becomes_shell_words(sessions: list[Recorder]) -> None:
    extract('FROM a\nRUN ["git", "clone", "-b", "v1", "https://x/a.git", "my dir", "it\'s"]\n')
    (run,) = runs(sessions)
    assert run.text == "git clone -b v1 https://x/a.git 'my dir' 'it'\\''s'"
    assert run.at("v1") == (2, 29)
    assert run.at("https") == (2, 35)
    start = run.text.index("'my dir'")
    assert run.source_map.span(start, start + len("'my dir'")) == Span(2, 53, 2, 61)


def test_exec_form_array_of_non_strings_is_reported(sessions: list[Recorder]) -> None:
    source = extract('FROM a\nRUN ["git", 1]\n')
    assert runs(sessions) == []
    assert source.notices == [
        "line 2: RUN exec-form arguments must be a JSON array of strings; not scanned for pins"
    ]


def test_non_posix_shell_is_skipped_with_a_notice(sessions: list[Recorder]) -> None:
    source = extract('FROM a\nSHELL ["powershell", "-command"]\nRUN git clone u\n')
    assert runs(sessions) == []
    assert source.notices == ["line 3: RUN runs in powershell (SHELL on line 2); not scanned for pins"]


# --- stages, ARG, ENV, WORKDIR ----------------------------------------------------------------------


def test_each_stage_has_its_own_session_and_label(sessions: list[Recorder]) -> None:
    extract("FROM a AS Builder\nRUN git fetch\nFROM b\nRUN git fetch\nFROM builder AS final\nRUN git fetch\n")
    assert [(session.stage, len(session.runs)) for session in sessions] == [
        ("Builder", 1),
        ("1", 1),
        ("final", 1),
    ]
    assert [(session.path, session.kind) for session in sessions] == [
        ("docker/Dockerfile", FileKind.DOCKERFILE)
    ] * 3


def test_global_arg_is_visible_only_when_redeclared(sessions: list[Recorder]) -> None:
    extract(
        """
        ARG REF=v1
        ARG OTHER=o1
        FROM a
        ARG REF
        RUN git checkout $REF $OTHER
        """
    )
    (run,) = runs(sessions)
    assert run.value("$REF") == Expansion("v1")
    assert run.value("$OTHER") == Expansion(
        None,
        Resolution.EMPTY,
        "ARG OTHER on line 2 is global; this stage does not redeclare it",
    )


def test_stage_default_beats_global_default_and_build_arg_beats_both(sessions: list[Recorder]) -> None:
    # dockerfile-parse lets the global default win.
    text = "ARG REF=global\nFROM a\nARG REF=stage\nARG B=${REF}-x\nRUN git checkout $REF\n"
    extract(text)
    extract(text, {"REF": "cli"})
    first, second = runs(sessions)
    assert (first.value("$REF"), first.value("$B")) == (Expansion("stage"), Expansion("stage-x"))
    assert (second.value("$REF"), second.value("$B")) == (Expansion("cli"), Expansion("cli-x"))


def test_arg_without_value_is_unresolved_and_default_operator_uses_the_default(
    sessions: list[Recorder],
) -> None:
    extract("FROM a\nARG MCORE_REF\nARG TARGETARCH\nRUN git checkout ${MCORE_REF:-core_v0.18.0}\n")
    (run,) = runs(sessions)
    assert run.scope.get("MCORE_REF") == Binding(
        None, Resolution.UNRESOLVED, "ARG MCORE_REF has no default and no --build-arg"
    )
    assert run.value("${MCORE_REF:-core_v0.18.0}") == Expansion("core_v0.18.0")
    assert run.value("$TARGETARCH").note == "ARG TARGETARCH is set by BuildKit from the platform"


def test_docker_value_quoting_and_the_default_operator(sessions: list[Recorder]) -> None:
    # dockerfile-parse reads ${V:-def} as ":-def}".
    extract(
        """
        FROM a
        ARG V
        ARG BR=rel
        ENV A="v 1" B='$BR' C=\\$BR D=${V:-def} E=x${BR}y F="${BR}" G=a\\ b
        RUN git checkout $A
        """
    )
    (run,) = runs(sessions)
    values = {name: run.scope.get(name) for name in "ABCDEFG"}

    def written(line: int, column: int, end_column: int, verbatim: bool = True) -> Provenance:
        return Provenance(Origin("docker/Dockerfile", Span(line, column, line, end_column)), verbatim)

    assert values == {
        "A": Binding("v 1", provenance=written(4, 8, 11)),  # the quotes excluded
        "B": Binding("$BR", provenance=written(4, 16, 19)),
        "C": Binding("$BR", provenance=written(4, 23, 27, verbatim=False)),  # \$BR is wider than $BR
        "D": Binding("def", provenance=written(4, 35, 38)),  # the default, where a fix edits it
        "E": Binding("xrely"),  # partly written here, partly BR's
        "F": Binding("rel", provenance=written(3, 8, 11)),  # BR's value, where BR is defined
        "G": Binding("a b", provenance=written(4, 62, 66, verbatim=False)),
    }


def test_env_both_syntaxes_and_env_settings(sessions: list[Recorder]) -> None:
    source = extract(
        """
        FROM a
        ENV K=V K2="v 2" \\
            EMPTY=
        ENV LEGACY  some value
        ENV X=1
        ENV X=2 Y=$X
        RUN git checkout $LEGACY
        """
    )
    assert source.env == [
        EnvSetting("K", "V", Span(2, 7, 2, 8), "image"),
        EnvSetting("K2", "v 2", Span(2, 12, 2, 17), "image"),
        EnvSetting("EMPTY", "", Span(3, 5, 3, 10), "image"),
        EnvSetting("LEGACY", "some value", Span(4, 13, 4, 23), "image"),
        EnvSetting("X", "1", Span(5, 7, 5, 8), "image"),
        EnvSetting("X", "2", Span(6, 7, 6, 8), "image"),
        EnvSetting("Y", "1", Span(6, 11, 6, 13), "image"),
    ]
    assert runs(sessions)[0].value("$LEGACY") == Expansion("some value")


def test_env_from_the_base_image_stays_unresolved(sessions: list[Recorder]) -> None:
    source = extract("FROM a\nENV PATH=/opt/bin:$PATH\n")
    assert source.env == [EnvSetting("PATH", None, Span(2, 10, 2, 24), "image")]


def test_from_stage_inherits_its_variables_workdir_and_shell(sessions: list[Recorder]) -> None:
    extract(
        """
        FROM a AS base
        ARG REF=v1
        ENV REPO=https://x/a.git
        WORKDIR /src
        SHELL ["/bin/bash", "-c"]
        FROM base AS build
        RUN git clone $REPO && git checkout $REF
        FROM a
        RUN git clone $REPO
        """
    )
    build, other = runs(sessions)
    assert (build.value("$REPO"), build.value("$REF"), build.cwd) == (
        Expansion("https://x/a.git"),
        Expansion("v1"),
        "/src",
    )
    assert other.value("$REPO") == Expansion(
        None,
        Resolution.EMPTY,
        "ENV REPO is set only in build stage base (line 3), which this stage is not built from",
    )
    assert other.cwd == ""


def test_from_resolves_global_args_to_find_the_base_stage(sessions: list[Recorder]) -> None:
    extract(
        "ARG WHICH=1\nFROM a AS fetch_1\nENV REF=v1\nFROM fetch_${WHICH} AS fetch\nRUN git checkout $REF\n"
    )
    assert runs(sessions)[0].value("$REF") == Expansion("v1")


def test_workdir_sets_the_session_cwd(sessions: list[Recorder]) -> None:
    extract(
        """
        FROM a
        RUN git clone u
        WORKDIR /workspace/
        RUN git clone u
        WORKDIR TransformerEngine
        RUN git checkout v1
        ARG SUB=sub
        WORKDIR ../${SUB}
        RUN git checkout v1
        WORKDIR $UNKNOWN
        RUN git checkout v1
        """
    )
    assert [run.cwd for run in runs(sessions)] == [
        "",
        "/workspace",
        "/workspace/TransformerEngine",
        "/workspace/sub",
        "",
    ]


def test_each_run_sees_only_the_values_set_before_it(sessions: list[Recorder]) -> None:
    extract("FROM a\nENV REF=v1\nRUN git checkout $REF\nENV REF=v2\nRUN git checkout $REF\n")
    assert [run.value("$REF") for run in runs(sessions)] == [Expansion("v1"), Expansion("v2")]


def test_onbuild_run_is_scanned_in_its_own_session(sessions: list[Recorder]) -> None:
    extract("FROM a AS fetch\nARG REPO=https://x/a.git\nONBUILD RUN git clone ${REPO} \\\n  && cd a\n")
    (run,) = runs(sessions)
    assert run.text == "git clone ${REPO}   && cd a"
    assert run.at("git") == (3, 13)
    assert run.value("${REPO}") == Expansion("https://x/a.git")
    assert len(sessions) == 2


# --- RL012: variables the file shows empty at a RUN ------------------------------------------------


def test_empty_hints_name_the_line_that_sets_the_variable(sessions: list[Recorder]) -> None:
    extract(
        """
        FROM a
        # ARG MCORE_REF=core_v0.18.0
        RUN git checkout $MCORE_REF $LATE $SHELLVAR $NEVER ${MCORE_REF:-x}
        ARG LATE=v1
        RUN SHELLVAR=v2 && git fetch
        """
    )
    first, second = runs(sessions)
    assert first.value("$MCORE_REF") == Expansion(
        None, Resolution.EMPTY, "MCORE_REF is set only on a commented-out line (2)"
    )
    assert first.value("$LATE") == Expansion(
        None, Resolution.EMPTY, "ARG LATE is set only after this RUN, on line 4"
    )
    assert first.value("$SHELLVAR") == Expansion(
        None, Resolution.EMPTY, "SHELLVAR is assigned only in the RUN on line 5, whose shell ends with it"
    )
    assert first.value("$NEVER") == Expansion(None, Resolution.UNRESOLVED, "$NEVER is not set in this file")
    assert first.value("${MCORE_REF:-x}") == Expansion("x")
    assert second.scope.empty_hint("SHELLVAR") is None
