"""Shell text parsed with tree-sitter-bash: the parser, the masking that keeps the grammar safe and offsets
exact, the parsed :class:`Text` with the facts read from it before the walk (:meth:`Text.prescan`), the
cheap tests that a text can pin anything (:func:`may_pin` before parsing, :func:`code_mentions_git` after),
and the first syntax error.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from collections.abc import Iterator
from typing import NamedTuple

import tree_sitter_bash
from tree_sitter import Language, Node, Parser, Tree

from ascend_reflint.extract.budget import ParseBudget, current_budget
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.resolve import Scope, referenced_names
from ascend_reflint.sourcemap import SourceMap

_LANGUAGE = Language(tree_sitter_bash.language())
_LOCAL = threading.local()

#: The most tokens of a shell text parsed (:func:`check_size`: words, operators, quotes, ``$`` and line
#: ends). tree-sitter-bash's tree holds up to some 240 bytes per token, and the walk about as much again: a
#: script of 5 million one-letter commands (10 MiB, under the file-size cap) took 4.5 GB, and crashed the
#: scan under a 2 GiB address-space limit. The longest script of the 13 real repositories in benchmarks/
#: (68 kB) has some 17,000. A long word or a long run of blanks is one token, which costs little.
MAX_TEXT_TOKENS = 500_000
#: What :func:`check_size` counts as one token: a run of characters that are neither blanks nor special to
#: the shell (a word: ``https://github.com/o/r`` is one), or one special character; a line end counts too (a
#: command ends there, and each line costs a source-map entry).
_TOKEN = r"""[^ \t\n\r\f\v;&|()<>"'`$\\{}=]+|[\n;&|()<>"'`$\\{}=]"""
_TOKEN_TEXT = re.compile(_TOKEN)
_TOKEN_DATA = re.compile(_TOKEN.encode())

#: A comment that is an assignment with the ``#`` put in front: ``# MCORE_REF=core_v0.18.0``.
_COMMENTED_ASSIGNMENT = re.compile(
    r"#+[ \t]*(?:(?:export|local|readonly|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)="
)
_GITHUB_EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.DOTALL)
#: Template placeholders that the shell grammar would split or refuse (``{{ ref }}`` is three words,
#: ``<branch>`` two redirections, ``%(ref)s`` a syntax error): read as one word each, as the template means.
_TEMPLATE_PLACEHOLDER = re.compile(
    r"(?<!\$)\{\{-?[ \t]*[A-Za-z_][\w.\-]*[ \t]*-?\}\}"  # {{ name }}
    r"|(?<![<\w])<[A-Za-z_][\w.\-]*>(?![>\w])"  # <name>
    r"|%\([A-Za-z_]\w*\)[sdr]"  # %(name)s
)
#: What bash -n accepts and tree-sitter-bash refuses (each found by comparing the two on real scripts):
#: ``\<``/``\>`` (test's string comparison in ``[ ]``), a ``$`` that ends a word before ``)``
#: (``grep "so"$)``), ``${A:$B+1}`` (a substring offset that starts with a variable), a bad substitution
#: such as ``${that sGOLDEN_DIR}`` or ``${ X}`` whatever it holds (an error only when it runs: ``bash -n``
#: reads anything up to the ``}``), a function whose name starts with ``unset`` (``unsetenv() {``),
#: backquotes around nothing but blanks (an empty command), an escaped parenthesis or backquote (``case``
#: patterns ``*\)*)``, nested command substitution ``\```), and a parenthesis in an expansion's word
#: (``${x//)/}``, ``${x:?err)}``; not one that holds a command substitution, which the grammar reads).
_GRAMMAR_GAPS = re.compile(
    r"\\[<>]"
    r"|(?<!\\)\\[()`]"
    r"|\$\{[A-Za-z_]\w*(?![^}\n]*[$`]\()[^}\s]*[()][^}\n]*\}"
    r"|(?<!\$)\$(?=\))"
    r"|(?<=\$\{)[A-Za-z_]\w*:\$(?=[A-Za-z_{])"
    r"|\$\{(?:[A-Za-z_]\w*)?[ \t][^}\n]*\}"
    r"|(?<![\w$-])unset(?=[\w-]+[ \t]*\(\))"
    r"|`\s*`"
)
#: The bad substitution of :data:`_GRAMMAR_GAPS` (a blank after the name), told apart from an expansion whose
#: word holds a parenthesis (``${x//)/}``, ``${x:?err)}``), where only the parentheses trip the grammar.
_BAD_SUBSTITUTION = re.compile(r"\$\{(?:[A-Za-z_]\w*)?[ \t][^}\n]*\}")
#: A compound command's closing word followed by the reserved word that goes on with the command around it,
#: with no ``;`` between (``…; fi else …``, ``…; done fi``): bash and dash read a reserved word right after
#: a compound command, the grammar wants a terminator; the first blank becomes ``;``. Only where the closing
#: word is a command's first word (after ``;``, ``&`` or a newline), never an argument (``echo fi else``).
_CLOSED_THEN_RESERVED = re.compile(
    r"(?<=[;&\n])([ \t]*(?:fi|done|esac))[ \t](?=[ \t]*(?:else|elif|fi|done|esac)\b)"
)
#: The start of a command (of the text; after an operator, a parenthesis, a brace, ``!`` or a reserved word
#: that a command follows), kept as groups 1 and 2 by the masks that need a command's first word.
_COMMAND_START = r"(^|[;&|(){!\n]|\b(?:then|do|else|elif|if|while|until)\b)([ \t]*)"
#: A ``[`` that starts a command: bash's ``[`` is a command like any other, whose words are checked only
#: when it runs (``[ \( a = b \) ]``, four words or more), where the grammar's is a test expression that
#: it may refuse. Also ``[x``, a word (a malformed exec form, which BuildKit hands to the shell as text:
#: its ``parseMaybeJSON``), which the grammar reads as a test, when it starts a command after a separator or
#: a reserved word: after ``(`` or ``|`` it may be a ``[[ =~`` regular expression's bracket expression.
_TEST_BRACKET = re.compile(_COMMAND_START + r"\[(?=[ \t])")
_BRACKET_WORD = re.compile(r"(^|[;&\n]|\b(?:then|do|else|elif|if|while|until)\b)([ \t]*)\[(?![\[ \t\n])")
#: A loop with an empty word list (``for x in; do``) or none (``for x do``, over the positional
#: parameters): bash accepts both (bash(1) "Compound Commands"); the grammar wants a word after ``in`` and
#: a ``;`` before ``do``, which ``in`` becomes and the blank before ``do`` is given.
_LOOP_WITHOUT_WORDS = re.compile(
    _COMMAND_START + r"((?:for|select)[ \t]+[A-Za-z_]\w*[ \t]+)(in(?=[ \t]*(?:[;\n]|$))|(?=do\b))"
)
#: A ``[[ … =~`` regular expression's first bracket expression (``[)]``): bash reads a ``)`` there as a
#: character of the set, the grammar as one that closes a group.
_REGEX_BRACKET = re.compile(r"(?<==~)([ \t]+[^\s\[]*)(\[\^?\]?[^\]\s]*\])")
#: A backslash that starts a line, and the character it escapes: tree-sitter-bash reads the line break before
#: it as part of a word, which joins the line to the command on the line before (``git clone URL`` then
#: ``\\git clone URL`` is one command whose URL ends in ``\\ngit``). Not ``\\'`` (in a single-quoted
#: string, ``'`` ends it) nor ``\\``` (an escaped backquote nests a command substitution).
_ESCAPE_AT_LINE_START = re.compile(r"(?<=\n)\\[^\r\n'`]")
#: A parenthesis, a quote, or an escaped character (which is neither).
_PARENTHESIS_OR_QUOTE = re.compile(r"""[()"']|\\.""", re.DOTALL)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
#: The commands that build a Dockerfile (see :func:`may_pin`), and what the walk looks for outside comments.
_BUILDS = re.compile(r"docker|podman")
_CODE_MARKERS = re.compile(r"git|npm|yarn|docker|podman")
_ASSIGNMENT_OPERATOR = re.compile(rb"\+?=")
#: What closes each token that opens a construct (bash(1) "QUOTING", "Compound Commands", "EXPANSION").
_OPENED_BY = {
    "if": "fi",
    "for": "done",
    "while": "done",
    "until": "done",
    "select": "done",
    "case": "esac",
    "{": "}",
    "(": ")",
    "((": "))",
    "$(": ")",
    "$((": "))",
    "${": "}",
    "[[": "]]",
    '"': '"',
    "`": "`",
    "'": "'",
}
#: The part of a compound command that each part may come next to (bash(1) "Compound Commands"); a reserved
#: word elsewhere as a command's first word is refused ("syntax error near unexpected token").
_NEXT_PART = {
    "if": {"then"},
    "then": {"elif", "else", "fi"},
    "elif": {"then"},
    "else": {"fi"},
    "for": {"do"},
    "while": {"do"},
    "until": {"do"},
    "select": {"do"},
    "do": {"done"},
    "case": {"esac"},
}
_RESERVED_PARTS = frozenset({"then", "elif", "else", "fi", "do", "done", "esac"})
_CLOSING_WORDS = frozenset({"fi", "done", "esac"})
_COMMAND_LIKE = frozenset({"command", "command_name", "word", "ERROR"})
#: A command separator or operator, then a ``;`` with no command between.
_EMPTY_COMMAND = re.compile(r"(;|&&|\|\||\||&)[ \t\n]*(;)(?!;)")
#: Tokens that the grammar takes where bash refuses them: a ``case`` item's terminator outside a ``case``,
#: and a reserved word that continues or closes a compound command read as a command's name (bash(1)
#: "RESERVED WORDS": they are recognized as the first word of a command).
_STRAY_TOKEN = re.compile(r";;&|;;|;&|\b(?:then|else|elif|fi|do|done|esac)\b")
_LOOP_KEYWORD = re.compile(rb"for|select")

#: Node types that are statements (a command or something holding commands).
STATEMENTS = frozenset(
    {
        "command",
        "list",
        "pipeline",
        "redirected_statement",
        "subshell",
        "compound_statement",
        "if_statement",
        "while_statement",
        "for_statement",
        "c_style_for_statement",
        "case_statement",
        "function_definition",
        "negated_command",
        "declaration_command",
        "unset_command",
    }
)


def _parser() -> Parser:
    """The thread's one parser (tree-sitter parsers are not thread-safe; creating one per text is slow)."""
    parser: Parser | None = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = _LOCAL.parser = Parser(_LANGUAGE)
    return parser


def _mask(text: str) -> str:
    """The text that tree-sitter parses: ASCII, as long as ``text`` in characters, with what breaks the
    grammar hidden. Words, values and positions are always read from ``text`` itself.

    - Each non-ASCII character becomes ``.``, which bash, like the character, reads as part of a word:
      one byte per character makes tree-sitter's byte offsets character offsets, and tree-sitter-bash's
      scanner reads past its tables on some characters (``{`` then U+100000 crashes the process).
    - GitHub's ``${{ expr }}`` (replaced by the runner before the shell starts) becomes ``_`` characters,
      one word; so do template placeholders that the grammar would split or refuse (``{{ ref }}``,
      ``<branch>``, ``%(ref)s``), which a template engine replaces before any shell reads the text.
    - A backslash that ends the text (bash ignores it, the grammar does not) becomes a space.
    - A backslash that starts a line, with the character it escapes, becomes ``..``
      (:data:`_ESCAPE_AT_LINE_START`): an escaped character is part of a word, as ``.`` is, and the grammar
      no longer reads the line break before it as part of the word.
    - Constructs that bash accepts and the grammar does not (:data:`_GRAMMAR_GAPS`) have the characters
      that trip the grammar replaced by ``_``, and a reserved word right after a compound command gets the
      ``;`` that the grammar wants (:data:`_CLOSED_THEN_RESERVED`), so that a script bash can run is never
      a syntax error.
    - Where bash's grammar is looser than tree-sitter-bash's, the text is made to read as bash reads it: a
      ``[`` that starts a command becomes ``_`` (:data:`_TEST_BRACKET`), a loop without words gets the
      words' place (:data:`_LOOP_WITHOUT_WORDS`), a ``)`` in a regular expression's bracket expression
      becomes ``_`` (:data:`_REGEX_BRACKET`), a ``$((`` that is no arithmetic reads as ``$( (``
      (:func:`_subshells_in_double_parentheses`).
    """
    if not text.isascii():
        text = _NON_ASCII.sub(".", text)
    if "${{" in text:
        text = _GITHUB_EXPRESSION.sub(lambda match: "_" * len(match.group()), text)
    if "{{" in text or "<" in text or "%(" in text:
        text = _TEMPLATE_PLACEHOLDER.sub(lambda match: "_" * len(match.group()), text)
    if "\n\\" in text:
        text = _ESCAPE_AT_LINE_START.sub("..", text)
    if "\\" in text or "$" in text or "`" in text or "unset" in text:
        text = _GRAMMAR_GAPS.sub(_fill_gap, text)
    if "fi" in text or "done" in text or "esac" in text:
        text = _CLOSED_THEN_RESERVED.sub(r"\1;", text)
    if "[" in text:
        text = _TEST_BRACKET.sub(r"\1\2_", text)
        text = _BRACKET_WORD.sub(r"\1\2_", text)
        text = _REGEX_BRACKET.sub(_fill_regex_bracket, text)
    if "for" in text or "select" in text:
        text = _LOOP_WITHOUT_WORDS.sub(_fill_loop, text)
    if "((" in text:
        text = _subshells_in_double_parentheses(text)
    end = len(text.rstrip("\r\n"))
    backslashes = end - len(text[:end].rstrip("\\"))
    if backslashes % 2 == 1:
        text = text[: end - 1] + " " + text[end:]
    return text


def _fill_gap(match: re.Match[str]) -> str:
    """A :data:`_GRAMMAR_GAPS` match with what trips the grammar replaced: all but word characters inside a
    bad substitution, parentheses in an expansion's word, ``\\<`` → ``==`` (a binary operator in ``[ ]``, a
    word elsewhere), ``\\(``/``\\)``/``\\``` → ``__`` (a literal character, or a nested command substitution
    that the walk then reads as words), ``A:$`` → ``A:_``, ``unset`` → ``_nset``, empty backquotes → ``_`` …
    ``_``."""
    found = match.group()
    if found.startswith("${") and not _BAD_SUBSTITUTION.fullmatch(found):
        return found.replace("(", "_").replace(")", "_")
    if found.startswith("${"):
        return "${" + re.sub(r"\W", "_", found[2:-1]) + "}"
    if found in ("\\(", "\\)", "\\`"):
        return "__"
    if found.startswith("unset"):
        return "_" + found[1:]
    if found.startswith("\\"):
        return "=="  # still a binary operator inside [ ]; a word elsewhere
    if found.startswith("`"):
        return "_" + found[1:-1] + "_"
    return found[:-1] + "_"


def _fill_regex_bracket(match: re.Match[str]) -> str:
    """A :data:`_REGEX_BRACKET` match with its ``)`` masked, and its ``(`` when a ``)`` was there: bash takes
    ``[)]`` and ``[()]`` and refuses ``[(]``, whose ``(`` it wants closed."""
    bracket = match[2]
    if ")" in bracket:
        bracket = bracket.replace(")", "_").replace("(", "_")
    return match[1] + bracket


def _fill_loop(match: re.Match[str]) -> str:
    """A :data:`_LOOP_WITHOUT_WORDS` match that the grammar reads: ``for x   ;`` for ``for x in;``,
    ``for x;do`` for ``for x do``."""
    head = match[1] + match[2] + match[3]
    return head + "  " if match[4] else head[:-1] + ";"


def _subshells_in_double_parentheses(text: str) -> str:
    """``text`` with each ``((`` (``$((``) that is no arithmetic read as the two parentheses it is: the
    inner parenthesis and the one that closes it become blanks.

    bash reads ``$((`` as an arithmetic expansion (``((`` as an arithmetic command) only when the
    parenthesis that closes the second ``(`` is followed by ``)``; else it is a command substitution
    (a subshell) whose text starts with a subshell: ``$((cd src && make) )`` (bash(1) "Arithmetic
    Expansion", "Command Substitution"; bash -n accepts both). The grammar reads every ``$((`` as
    arithmetic. Parentheses are matched in one pass (:func:`_matching_parentheses`).
    """
    closing = _matching_parentheses(text)
    chars: list[str] | None = None
    for match in re.finditer(r"\((?=\()", text):
        inner = match.start() + 1
        close = closing.get(inner)
        if close is not None and text[close + 1 : close + 2] != ")":
            chars = chars if chars is not None else list(text)
            chars[inner] = chars[close] = " "
    return text if chars is None else "".join(chars)


def _matching_parentheses(text: str) -> dict[int, int]:
    """The offset of the ``)`` that closes each ``(`` of ``text`` that one closes; escaped ones, and those
    in single quotes, left out. Those in double quotes count: ``"$((cd src && make) )"`` is common, a
    lone parenthesis in a double-quoted string inside such a substitution is not."""
    closing: dict[int, int] = {}
    opened: list[int] = []
    in_double = False
    offset = 0
    while (match := _PARENTHESIS_OR_QUOTE.search(text, offset)) is not None:
        token, offset = match[0], match.end()
        if token == '"':
            in_double = not in_double
        elif token == "'" and not in_double:
            end = text.find("'", offset)
            offset = len(text) if end == -1 else end + 1
        elif token == "(":
            opened.append(match.start())
        elif token == ")" and opened:
            closing[opened.pop()] = match.start()
    return closing


class Text:
    """One text parsed as a script: the run's text, or a nested one (``bash -c`` string, heredoc body).

    Offsets are character offsets into ``text``; tree-sitter's byte offsets are the same numbers, because
    the parsed bytes (``data``) are :func:`_mask`'s ASCII text. ``root`` maps offsets to offsets of the
    run's text, which the source map turns into file positions.
    """

    __slots__ = ("_prescan", "_roots", "data", "depth", "text", "tree")

    def __init__(self, text: str, roots: int | list[int], depth: int) -> None:
        self.text = text
        self._roots = roots
        self.depth = depth
        self.data = _mask(text).encode("ascii")
        self.tree: Tree | None = None
        self._prescan: tuple[dict[str, int], dict[str, int]] | None = None

    def root(self, offset: int) -> int:
        """The run-text offset of this text's character at ``offset``."""
        if isinstance(self._roots, int):
            return self._roots + offset
        if not self._roots:
            return 0
        return self._roots[min(offset, len(self._roots) - 1)]

    def roots(self, start: int, end: int) -> int | list[int]:
        """The root mapping for a nested text made of ``self.text[start:end]``."""
        if isinstance(self._roots, int):
            return self._roots + start
        return self._roots[start:end]

    def parse(self) -> Node:
        """Parse the text (once per text: the tree is kept for :meth:`prescan`); returns the root node.

        Raises:
            ExtractError: the parse passed what is left of the file's CPU-time budget
                (:mod:`ascend_reflint.extract.budget`); nothing of the text is read.
        """
        tree = self.tree = _parse_within(self.data, current_budget(len(self.data)))
        if self.depth == 0:
            _LOCAL.last_top = self  # a walk's script, which syntax_problem() may then be asked about
        return tree.root_node

    def node_text(self, node: Node) -> str:
        return self.text[node.start_byte : node.end_byte]

    def prescan(self) -> tuple[dict[str, int], dict[str, int]]:
        """Where each variable is first assigned, and where it is assigned on a commented-out line.

        Returns:
            ``(assigned, commented)``: name → character offset of the first assignment / commented one.
        """
        if self._prescan is None:
            assigned: dict[str, int] = {}
            assert self.tree is not None, "prescan() needs the parsed tree"
            root = self.tree.root_node
            for node in _assigned_names(self.data, root):
                offset = node.start_byte
                name = self.text[offset : node.end_byte]
                if offset < assigned.get(name, len(self.text) + 1):
                    assigned[name] = offset
            self._prescan = (assigned, _commented_assignments(self.text, root))
        return self._prescan


def _parse_within(data: bytes, budget: ParseBudget) -> Tree:
    """``data`` parsed, given up on when the parse passes what is left of ``budget`` (thread CPU time,
    checked by tree-sitter's progress callback, which it calls every hundred or so parse steps).

    The parse that uses the budget up raises :class:`ExtractError`; the file's later texts are read as
    empty, without a word more (that error said that no more is read). A text of more than
    :data:`MAX_TEXT_TOKENS` tokens raises it before it is parsed.
    """
    check_size(data)
    parser = _parser()
    if budget.left <= 0:
        return parser.parse(b"")
    view = memoryview(data)
    started = time.thread_time()
    ends = started + budget.left
    try:
        return parser.parse(
            lambda offset, _point: view[offset:],
            progress_callback=lambda _offset, _error: time.thread_time() > ends,
        )
    except ValueError:  # the progress callback stopped it
        parser.reset()  # else the next parse would go on with this one
        raise ExtractError(_over_budget(budget)) from None
    finally:
        budget.left -= time.thread_time() - started


def check_size(text: str | bytes) -> None:
    """Raise :class:`ExtractError` when the shell text ``text`` (or the bytes that are parsed of it) has more
    than :data:`MAX_TEXT_TOKENS` tokens: it is not parsed, and none of it is read."""
    if len(text) <= MAX_TEXT_TOKENS:
        return  # fewer characters than the cap: fewer tokens
    tokens = _TOKEN_TEXT.finditer(text) if isinstance(text, str) else _TOKEN_DATA.finditer(text)
    if sum(1 for _ in itertools.islice(tokens, MAX_TEXT_TOKENS + 1)) > MAX_TEXT_TOKENS:
        raise ExtractError(
            f"a shell text of more than {MAX_TEXT_TOKENS:,} words, operators and lines, which is more than "
            "reflint parses (the parser holds some 240 bytes for each); reflint reads none of it"
        )


def _over_budget(budget: ParseBudget) -> str:
    return (
        f"the shell parser took more than the file's {budget.seconds:.1f} s of CPU time (tree-sitter-bash "
        "recovers slowly from some broken text); reflint reads no more of the file's shell"
    )


def _assigned_names(data: bytes, root: Node) -> Iterator[Node]:
    """The ``variable_name`` nodes that name an assignment's variable or a ``for``/``select`` loop's.

    Found from the text and checked against the tree (microseconds; a tree-sitter query for the same
    nodes takes milliseconds to compile in each process): an assignment from its ``=`` or ``+=`` token
    (``for ((i = 0; …))`` has blanks around it), a loop from its keyword.
    """
    for match in _ASSIGNMENT_OPERATOR.finditer(data):
        operator = root.descendant_for_byte_range(match.start(), match.end())
        if operator is not None and operator.type in ("=", "+="):
            name = _assignment_name(operator.parent)
            if name is not None:
                yield name
    for match in _LOOP_KEYWORD.finditer(data):
        keyword = root.descendant_for_byte_range(match.start(), match.end())
        loop = keyword.parent if keyword is not None and keyword.type == match.group().decode() else None
        if loop is not None and loop.type == "for_statement":
            variable = loop.child_by_field_name("variable")
            if variable is not None and variable.type == "variable_name":
                yield variable


def _assignment_name(node: Node | None) -> Node | None:
    """The name of the assignment ``node`` when it is a ``variable_name`` (not ``a[1]``), else None."""
    if node is None or node.type != "variable_assignment":
        return None
    name = node.child_by_field_name("name")
    return name if name is not None and name.type == "variable_name" else None


def _commented_assignments(text: str, root: Node) -> dict[str, int]:
    """Variables assigned on commented-out lines (``# REF=v1``): name → offset of the name, from the first
    such comment for each name.

    Each ``#`` is looked up in the tree (a comment starts at one); the text inside a leaf that is not a
    comment holds no comment, so the search goes on after it.
    """
    commented: dict[str, int] = {}
    offset = text.find("#")
    while offset != -1:
        node = root.descendant_for_byte_range(offset, offset + 1)
        resume = offset + 1
        if node is not None and node.type == "comment" and node.start_byte == offset:
            match = _COMMENTED_ASSIGNMENT.match(text, offset, node.end_byte)
            if match:
                commented.setdefault(match.group(1), match.start(1))
            resume = max(node.end_byte, resume)
        elif node is not None and node.child_count == 0:
            resume = max(node.end_byte, resume)
        offset = text.find("#", resume)
    return commented


def may_pin(text: str, scope: Scope | None) -> bool:
    """Whether ``text`` can hold a pin: a cheap test, before anything is parsed or a source map is built.

    Every pin is written with git or given to npm, yarn or pnpm (:mod:`ascend_reflint.extract.pinwords`), in
    the text or in a variable that it uses, so a text that names them neither itself nor through a variable
    of ``scope`` (the variables its caller knows; None when there are none) gives nothing; but for a
    ``docker build`` (``podman build``), which gives another file's build arguments (:mod:`.docker`).
    """
    return (
        may_name_pin(text)
        or (scope is not None and variables_mention_git(text, scope))
        or (_BUILDS.search(text) is not None and "build" in text)
    )


def variables_mention_git(text: str, scope: Scope) -> bool:
    """True when a variable that ``text`` uses has a value in ``scope`` that mentions git (or npm, yarn:
    :func:`~ascend_reflint.extract.pinwords.may_name_pin`)."""
    for name in referenced_names(text):
        binding = scope.get(name)
        if binding is not None and binding.value is not None and may_name_pin(binding.value):
            return True
    return False


def code_mentions_git(text: str, root: Node) -> bool:
    """Whether ``text`` (parsed into ``root``) holds ``git`` (or ``npm``/``yarn``, ``docker``/``podman``, see
    :func:`may_pin`) outside its comments.

    Every pin is a ``git`` command or a ``git+`` URL, written in the script's code or held by a variable
    (see :func:`may_pin`), and the walk never reads a comment: a script that mentions git only in
    comments (``# pip install git+…``, most training scripts) gives what it gives with the comments blanked,
    which is nothing, so it need not be walked. A comment is a leaf, so the smallest node around an
    occurrence is the comment itself when the occurrence is in one (a comment runs to the end of its line
    and starts with ``#``, so ``git`` is either wholly inside it or wholly outside).
    """
    for match in _CODE_MARKERS.finditer(text):
        node = root.descendant_for_byte_range(match.start(), match.end())
        if node is None or node.type != "comment":
            return True
    return False


def _offending(error: Node) -> Node:
    """Where an error really is: tree-sitter's ERROR node may start with well-formed statements."""
    well_formed = STATEMENTS | {"comment", ";", "variable_assignment", "variable_assignments"}
    node = error
    while not node.is_missing and node.child_count:
        inner = next(
            (
                child
                for child in node.children
                if child.has_error or child.is_missing or (node.is_error and child.type not in well_formed)
            ),
            None,
        )
        if inner is None:
            return node
        node = inner
    return node


class SyntaxProblem(NamedTuple):
    """Where a text stops being shell, and what is there.

    Attributes:
        start: the offset of the first character of the offending token (of the end of the text for a
            missing one).
        end: the offset just after it, on its first line (``start`` for a missing token).
        what: ``syntax error near ')'``, ``'if' is never closed ('fi' is missing)``, ``the quote '"' is
            never closed``, ``';' is missing at the end of the text``, ``syntax error at the end of the
            text``.
    """

    start: int
    end: int
    what: str


def first_error(text: Text, root: Node, source_map: SourceMap) -> str:
    """The first syntax error under ``root``: its file line (by ``source_map``) and what is there
    (``line 3: shell syntax error near ')'``, ``line 1: shell syntax error: 'if' is never closed …``)."""
    problem = _problem_in(text, root)
    line = source_map.position(text.root(problem.start))[0]
    what = problem.what
    return (
        f"line {line}: shell {what}"
        if what.startswith("syntax error")
        else f"line {line}: shell syntax error: {what}"
    )


def syntax_problem(text: str) -> SyntaxProblem | None:
    """The first syntax error of ``text`` read as bash reads it, or None for a text bash parses.

    What the grammar refuses (constructs that bash accepts are masked first: :func:`_mask`), and what it
    takes where bash and dash refuse it (:data:`_STRAY_TOKEN`: ``;;`` outside a ``case`` is a command
    separator to the grammar, ``fi; else …`` a command named ``else``; bash says "syntax error near
    unexpected token"). Checked against ``bash -n`` and ``dash -n`` over every RUN of the real
    repositories' Dockerfiles and over mutants of them (``benchmarks/run_syntax_oracle.py``).
    """
    top: Text | None = getattr(_LOCAL, "last_top", None)
    if top is not None and top.tree is not None and top.text == text:
        root = top.tree.root_node  # the walk of a Dockerfile RUN has just parsed it
    else:
        top = Text(text, 0, 0)
        root = top.parse()
    if root.has_error:
        return _problem_in(top, root)
    return _stray_token(top, root)


def _problem_in(text: Text, root: Node) -> SyntaxProblem:
    """Where the first error of a tree that has one is, as bash would say it: a quote, bracket or compound
    command that the end of the text leaves open is named at its opening (bash: "unexpected EOF while
    looking for matching `\"'", "unexpected end of file"); a token that comes where bash wants another is
    named where it is ("syntax error near unexpected token")."""
    first = _first_error(root)
    empty = _empty_command(text, root, first.end_byte)
    if empty is not None:
        return empty
    end = len(text.text.rstrip())
    if first.end_byte >= end:  # the error runs to the end of the text
        opened = _open_at_end(text, first)
        if opened is not None:
            return opened
    return _problem_at(text, root, _offending(first))


def _first_error(root: Node) -> Node:
    """The ERROR or MISSING node that starts first (the root when the tree has none)."""
    first: Node | None = None
    pending = [root]
    while pending:
        node = pending.pop()
        if node.is_error or node.is_missing:
            if first is None or node.start_byte < first.start_byte:
                first = node
            continue
        pending.extend(child for child in node.children if child.has_error or child.is_missing)
    return first or root


def _empty_command(text: Text, root: Node, before: int) -> SyntaxProblem | None:
    """A ``;`` that ends no command (``a; ; b``, ``a && ;``) before offset ``before``: the grammar gives up
    on the statements around it, bash says "syntax error near unexpected token `;'"."""
    for match in _EMPTY_COMMAND.finditer(text.text, 0, before):
        tokens = [root.descendant_for_byte_range(*match.span(group)) for group in (1, 2)]
        if all(node is not None and node.type in (";", "&&", "||", "|", "&") for node in tokens):
            start = match.start(2)
            return SyntaxProblem(start, start + 1, "syntax error near ';'")
    return None


def _open_at_end(text: Text, error: Node) -> SyntaxProblem | None:
    """The innermost quote, bracket or compound command that ``error`` (an ERROR node that runs to the end
    of the text, or a MISSING one at its end) opens and never closes, or the reserved word out of place
    before it; None when there is neither.

    A MISSING closer is the last child of the construct it closes, which starts with its opener (a
    ``string`` with ``"``, a ``subshell`` with ``(``). An ERROR's children are the tokens and commands the
    grammar could not fit: they are read in order as bash reads them (:func:`_error_children`).
    """
    if error.is_missing:
        construct = error.parent
        if construct is not None and construct.type == "do_group":  # `done` closes the loop around it
            construct = construct.parent
        opener = construct.children[0] if construct is not None and construct.children else None
        if opener is None or _OPENED_BY.get(text.node_text(opener)) != error.type:
            return None
        return _never_closed(opener.start_byte, text.node_text(opener), error.type)
    return _error_children(text, error)


class _Open(NamedTuple):
    """A construct that an ERROR's children open: its opener, the opener's offset, and the last part read
    (the opener, then ``then``, ``do`` …) with its child's index."""

    opener: str
    start: int
    part: str
    part_index: int


def _error_children(text: Text, error: Node) -> SyntaxProblem | None:
    """Read the children of an ERROR node as bash reads a compound command's parts: openers and closers
    matched in order, and each reserved word (a keyword token, or a command's name that the grammar misread)
    checked against the part before it (:data:`_NEXT_PART`): ``fi`` after ``then …``, never right after it
    (bash wants a command between) nor after ``do``. The first misplaced word is the problem; else the
    innermost opener left open."""
    pending: list[_Open] = []
    for index, child in enumerate(error.children):
        word = text.node_text(child)
        first = word.split(None, 1)[0] if word.strip() else ""
        reserved = first in _RESERVED_PARTS and (child.type in _COMMAND_LIKE or child.type == first)
        top = pending[-1] if pending else None
        if reserved:
            if top is None or first not in _NEXT_PART.get(top.part, ()) or top.part_index == index - 1:
                end = child.start_byte + len(first)
                return SyntaxProblem(child.start_byte, end, f"syntax error near {first!r}")
            pending.pop()
            if first not in _CLOSING_WORDS:
                pending.append(top._replace(part=first, part_index=index))
        elif top is not None and not top.opener.isalpha() and word == _OPENED_BY[top.opener]:
            pending.pop()
        elif child.is_error and word.startswith("'") and "'" not in word[1:]:
            pending.append(_Open("'", child.start_byte, "'", index))
        elif not child.is_named and word in _OPENED_BY:
            pending.append(_Open(word, child.start_byte, word, index))
    if not pending:
        return None
    innermost = pending[-1]
    return _never_closed(innermost.start, innermost.opener, _OPENED_BY[innermost.opener])


def _never_closed(start: int, opener: str, closer: str) -> SyntaxProblem:
    """The problem of ``opener``, at ``start``, that nothing closes."""
    if opener in ('"', "'", "`"):
        return SyntaxProblem(start, start + 1, f"the quote {opener!r} is never closed")
    return SyntaxProblem(start, start + len(opener), f"{opener!r} is never closed ({closer!r} is missing)")


def _problem_at(text: Text, root: Node, node: Node) -> SyntaxProblem:
    """The token at ``node`` (an offending node under ``root``): a MISSING node is named by the token after
    it, which bash stops at (``(if …; )``: "near unexpected token `)'"), or is the end of the text."""
    start = node.start_byte
    if node.is_missing:
        rest = text.text[start:]
        after = start + len(rest) - len(rest.lstrip())
        if after == len(text.text):
            return SyntaxProblem(start, start, f"{node.type!r} is missing at the end of the text")
        found = root.descendant_for_byte_range(after, after + 1)
        node = found if found is not None else node
        start = node.start_byte
    snippet = text.node_text(node).strip().split("\n", 1)[0][:40]
    if not snippet:
        return SyntaxProblem(start, start, "syntax error at the end of the text")
    start = text.text.find(snippet, start)
    return SyntaxProblem(start, start + len(snippet), f"syntax error near {snippet!r}")


def _stray_token(text: Text, root: Node) -> SyntaxProblem | None:
    """The first :data:`_STRAY_TOKEN`: a case terminator outside a ``case`` item, a reserved word that is
    the first word of a command, or one that ends a part with no command (``then fi``: bash wants a list
    of commands between)."""
    for match in _STRAY_TOKEN.finditer(text.text):
        node = root.descendant_for_byte_range(match.start(), match.end())
        parent = node.parent if node is not None else None
        if node is None or parent is None or (node.start_byte, node.end_byte) != match.span():
            continue
        if match.group().startswith(";"):
            stray = node.type == match.group() and parent.type != "case_item"
        elif node.type == match.group():  # a keyword right after `then`, `do`, `else`: an empty list
            before = node.prev_sibling
            stray = before is not None and (
                before.type in ("then", "do") or (before.type == "else_clause" and before.child_count == 1)
            )
        else:  # bash reads it as a reserved word only as the first word of a command (not after `X=1`)
            command = parent.parent
            stray = parent.type == "command_name" and command is not None and command.children[0] == parent
        if stray:
            return SyntaxProblem(match.start(), match.end(), f"syntax error near {match.group()!r}")
    return None
