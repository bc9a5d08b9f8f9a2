"""Shell extraction: the pins that a shell script, a Dockerfile ``RUN`` or a workflow ``run:`` block makes.

A script is parsed with tree-sitter-bash and walked in execution order, once, with an explicit stack (never
Python recursion, so that deeply nested input cannot exhaust the interpreter's stack). The walk keeps the
state that decides what a command means: variables (assignments, ``export``/``declare``/``local``/
``readonly``, ``unset``, ``read``, ``for``), the current directory (``cd``, ``pushd``/``popd``, ``git -C``,
``env -C``), and the clones made so far, so that ``git clone URL && cd NAME && git checkout REF`` is one pin.

What is extracted:

- ``git clone`` (via CLONE, CLONE_BRANCH, or CHECKOUT for each later ``git checkout``/``switch``/
  ``reset --hard`` in the clone's directory: every checkout is a pin of its own, with the clone's options
  and the ``fetched_ref`` that a ``git fetch … REF`` in the clone brought in before it; a clone that is
  checked out later gives no pin of its own);
- ``git init [DIR]``, ``git remote add``/``set-url NAME URL``, ``git fetch [REMOTE|URL] REF`` and ``git pull``
  (see :mod:`.repos`): a checkout of ``FETCH_HEAD``, of ``REMOTE/REF`` or of a fetched name is a CHECKOUT
  pin of that remote's URL; ``FETCH_HEAD`` is pinned at the ref where the fetch names it; a fetch of a URL
  that nothing checks out is one pin of its own (its ``clone_span`` is the ``git fetch`` words);
  ``git pull REMOTE REF`` is a checkout of REF; ``git clone --revision REF`` one of REF;
- pip VCS requirements, ``git+URL[@REF][#fragment]`` given to ``pip``/``python -m pip``/``uv pip``
  install (via PIP_VCS).

A ref written as nothing (``--branch ""``, ``git checkout ''``, ``git+URL@``) is a pin with ``ref`` and
``ref_text`` ``""`` and resolution EMPTY ("the ref is empty"): git and pip refuse it. Its span is the
quotes (the ``@`` for pip), since what is between them has no width. A ref written as a variable whose
value is empty is UNRESOLVED, not EMPTY: recipes give an optional build argument an empty default, which
the build sets, and test it before use (vllm-ascend: ``ARG VLLM_COMMIT=""`` … ``if [ -n "$VLLM_COMMIT" ];
then … git fetch --depth 1 $VLLM_REPO "$VLLM_COMMIT"``), so nothing about the ref is known statically.

Functions run where they are called, with their arguments (``$1`` … ``$9``, ``$#``, ``$@``, ``shift``,
``local`` variables in a frame of their own): a pin inside one is one pin per distinct call, whose
``call_sites`` are the calls; a function never called is read once at the end with its parameters unset.
Arrays (``A=(…)``, ``A+=(…)``, ``A[i]=v``, ``declare -a``) keep their elements: ``"${A[@]}"`` is a word per
element, spanned where the element is written; ``${A[i]}`` an element. Directories known only as
expressions are tracked as such (:mod:`.dirs`). Commands that fail as written are recorded as command
issues: an option left without its value (RL018), a checkout outside the clone it means (RL019).

What runs is read: commands behind wrappers (``sudo``, ``env``, ``time``, ``exec``, …), in lists,
pipelines, subshells, ``if``/``for``/``while``/``case``, functions (read where they are first called, or at
the end when never called), command substitutions, ``bash -c STRING``/``eval STRING``, and heredocs or
here-strings fed to a shell (``bash <<EOF``), whose text is parsed again with positions mapped back into
the file. What does not run is not read: comments, arguments of ``echo``/``printf``, heredocs written to
files, ``cmd | bash`` (the piped text is not known statically).

Positions: tree-sitter reports byte offsets; they are turned into character offsets of the text and then
into file positions through the caller's :class:`~ascend_reflint.sourcemap.SourceMap`. Spans exclude
quotes: for ``--branch "$TAG"`` the ref span and ``ref_text`` are ``$TAG``.

Modules, each importing only those above it: :mod:`.words` (quoting), :mod:`.parse` (tree-sitter, the
cheap pre-filters), :mod:`.values` (expansion to values and spans), :mod:`.dirs`, :mod:`.state` (the
environment, the sink), :mod:`.repos` (clones and their pins), :mod:`.command` (the :class:`Command` record
and the :class:`Walker` protocol that handlers get), the handlers :mod:`.builtins`, :mod:`.shells`,
:mod:`.git` and :mod:`.pip`, :mod:`.walker` (the stack and the table of commands) and :mod:`.session` (the
entry points). Command-line syntax is :mod:`ascend_reflint.extract.commands`'.
"""

from ascend_reflint.extract.shell.parse import SyntaxProblem, may_pin, syntax_problem
from ascend_reflint.extract.shell.session import ShellSession, extract_shell_file

__all__ = ["ShellSession", "SyntaxProblem", "extract_shell_file", "may_pin", "syntax_problem"]
