"""Dockerfile extraction: ARG/ENV per build stage, WORKDIR, and RUN bodies handed to the shell extractor.

The file is read the way BuildKit's Dockerfile frontend reads it (moby/buildkit ``frontend/dockerfile``:
``parser/parser.go``, ``parser/line_parsers.go``, ``parser/directives.go``, ``shell/lex.go`` and
``dockerfile2llb/convert.go``; the "Dockerfile reference" says the same in prose):

- Parser directives (``# escape=``` ``, ``# syntax=``, ``# check=``) are read only before the first comment,
  blank line or instruction. The escape token (``\\`` or a backtick) continues a line when it is the last
  character before optional spaces or tabs and is not itself escaped.
- Inside a continuation, comment lines and blank lines are dropped; the next line's text follows the
  previous one directly, leading whitespace kept.
- ``RUN``/``COPY``/``ADD`` (also under ``ONBUILD``) in shell form may carry heredocs: every word of the line
  that is ``[n]<<[-]NAME`` opens one, and its body is the lines up to one equal to NAME (after leading tabs
  with ``<<-``). A ``RUN`` whose command is just ``<<NAME`` runs the body with the shell (or with its ``#!``
  interpreter); any other command line gets the heredocs appended and goes to the shell whole. reflint
  reads ``RUN [<<NAME] prog [-options] [<<NAME]`` with ``prog`` a shell as that shell's script, and lays
  other command lines out so that tree-sitter-bash reads them as the shell does (see
  :func:`.heredocs.heredoc_command`).
- ``RUN ["prog", "arg", …]`` (exec form) runs ``prog`` without a shell: no variable is expanded.
- ``ARG``/``ENV`` values are unquoted and expanded by Docker's own word lexer. A global ``ARG`` (before the
  first ``FROM``) is seen in a stage only when the stage redeclares it (``ARG NAME``), taking the global
  value; ``--build-arg`` overrides every declared ``ARG``; each ``ARG``/``ENV`` applies from its line on, in
  order (``dispatchArg`` adds the value to the stage's environment). All values of one ``ENV`` line are
  expanded before any of them is set.
- ``FROM stage`` starts from that earlier stage's state: its environment (ARG and ENV values), working
  directory and ``SHELL``.

reflint does not parse with the ``dockerfile-parse`` package: it turns heredoc bodies into instructions
(its issue #145), misreads ``${V:-default}``, lets a global ARG default beat a stage's own, and joins
continuation lines into a ``value`` that cannot be mapped back to file positions, which every pin needs.
The scanner here follows BuildKit and keeps each character's position; dockerfile-parse is the test
suite's independent oracle of where instructions start and end (``tests/extract/test_dockerfile_oracle.py``
lists its known departures from BuildKit).

Modules, each importing only those above it: :mod:`.words` (Docker's word lexer), :mod:`.execform` (JSON
arrays), :mod:`.lines` (lines into instructions, heredocs), :mod:`.heredocs` (RUN with heredocs laid out
for the shell), :mod:`.runs` (RUN → shell text) and :mod:`.stages` (build stages, dispatch, the entry
point).
"""

from ascend_reflint.extract.dockerfile.stages import extract_dockerfile

__all__ = ["extract_dockerfile"]
