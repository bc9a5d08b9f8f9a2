"""Makefile extraction: recipe lines are shell, run with the make variables the file sets.

Facts used here (GNU make manual: "Writing Recipes", "How to Use Variables", "Conditional Parts of
Makefiles", "Splitting Lines"):

- A recipe line starts with a tab (or ``.RECIPEPREFIX``) after a rule line (``targets: prerequisites``), or
  follows ``;`` on the rule line itself. Blank lines and make comments among recipe lines do not end the
  recipe; any other line does. Each recipe line runs in a shell of its own (all of a rule's lines in one
  with ``.ONESHELL:``), so ``cd`` does not carry over to the next line while what ``git clone`` made on
  disk does: one :class:`~ascend_reflint.extract.shell.ShellSession` reads every recipe line of the file,
  in file order, one ``run`` each.
- In a recipe, a backslash-newline is passed to the shell as it is (the shell joins the lines), less the
  tab that starts the next line; the prefixes ``@`` (silent), ``-`` (ignore errors) and ``+`` (always run)
  are make's, not the shell's.
- Make expands a recipe line before the shell sees it, after the whole makefile is read: ``$(NAME)`` and
  ``${NAME}`` are make variables, ``$$`` is a ``$`` for the shell. Variables are recursive (``=``,
  ``define``: expanded when used, with the last value of what they name), simple (``:=``, ``::=``,
  ``:::=``: expanded where assigned), conditional (``?=``: only when not yet set) or appended to (``+=``);
  ``!=`` runs a shell command and functions (``$(shell …)``, ``$(subst …)``, …), computed names and
  automatic variables (``$@``, ``$<``) are known only when make runs: unresolved. A variable the file never
  sets comes from make's command line or the environment (make expands it to nothing when neither sets
  it): unresolved, never empty. A value assigned inside ``ifeq``/``ifdef``… is taken when nothing set the
  variable before it, and is unresolved when two assignments disagree.

How the recipe reaches the shell extractor with the file's positions: the text is assembled with a
:class:`~ascend_reflint.sourcemap.SourceMapBuilder`; ``$(NAME)`` becomes ``${NAME}`` (the same length) and
the shell's scope binds ``NAME`` to make's value; every other make expansion becomes a shell expansion of
the same length that is unresolved (``${_M0_}``, or ``$*`` for a two-character one); ``$$`` becomes one
``$``. A pin's ``ref_text`` is then what the file holds at its span; a value that one assignment holds
whole, on one line (``REF := v1.2``, or ``TAG = $(REF)``, which copies it), carries where it is written, so
that a finding about the ref and its fix go to the assignment, as for a shell variable. Make variables share
the shell's names, so ``$$NAME`` in a recipe also reads make's ``NAME`` (make exports only some variables: a
small over-approximation).
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from dataclasses import dataclass, field

from ascend_reflint.extract.commands import SHELLS
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.model import Pin, Resolution, SourceFile, Span
from ascend_reflint.resolve import MAX_VALUE_LENGTH, Binding, Provenance, Scope
from ascend_reflint.sourcemap import SourceMapBuilder

_ASSIGNMENT = re.compile(
    r"^(?P<modifiers>(?:(?:export|override|private)\s+)*)(?P<name>[^\s:#=?+!$()]+|\$[({][^)}]*[)}])\s*"
    r"(?P<op>:::=|::=|:=|\?=|\+=|!=|=)\s*(?P<value>.*)$"
)
_DEFINE = re.compile(
    r"^(?:(?:export|override)\s+)*define\s+(?P<name>\S+)\s*(?P<op>:::=|::=|:=|\?=|\+=|!=|=)?\s*$"
)
_CONDITIONAL = re.compile(r"^(ifeq|ifneq|ifdef|ifndef)\b")
_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_RECIPE_PREFIXES = "@-+ \t"
#: A value that is one reference and nothing else (``$(TAG)``, ``${TAG}``): a copy of that variable.
_WHOLE_REFERENCE = re.compile(r"\$\(([A-Za-z0-9_.-]+)\)|\$\{([A-Za-z0-9_.-]+)\}")
#: How many variable references one file's expansions may follow in all: recursive variables that each
#: name the one before several times (``A2 = $(A1)$(A1)…``) would otherwise take exponential time.
_MAX_REFERENCES = 200_000
_TOO_MANY_REFERENCES = (
    f"expanding this Makefile's variables took over {_MAX_REFERENCES:,} references: given up"
)
_TOO_LONG = f"a make variable's value would be longer than {MAX_VALUE_LENGTH:,} characters"
#: Variables whose value is make's own, set when it runs.
_MAKE_NOTE = "$({name}) is not set in this Makefile (make takes it from its command line or the environment)"


def extract_makefile(source: SourceFile) -> None:
    """Fill ``source.pins`` and ``source.notices`` from a Makefile's recipes.

    Args:
        source: the file, with ``text`` read; its ``path`` and ``kind`` go into every pin.
    """
    from ascend_reflint.extract.shell import ShellSession

    text = source.text
    assert text is not None
    if not may_name_pin(text):  # every pin is written with git, or given to npm, yarn, pnpm
        return
    reader = _Reader(source.path, text)
    reader.read()
    shell = reader.shell()
    if shell is not None:
        if reader.recipes:
            source.notices.append(f"recipes run in {shell} (SHELL on line {reader.shell_line}): not read")
        return
    session = ShellSession(source.path, source.kind, Scope())
    lines_of = _LineOf(text)
    for recipe in reader.recipes:
        built, masks = _shell_text(text, recipe, lines_of)
        session.scope = reader.scope(masks)
        try:
            session.run(built.text, built.source_map)
        except ExtractError as error:
            source.notices.append(f"line {recipe.line}: the recipe is not valid shell: {error}")
    lines = text.split("\n")
    source.pins.extend(_written_in_file(pin, lines) for pin in session.finish())
    source.notices.extend(session.notices)


@dataclass(slots=True)
class _Recipe:
    """One shell invocation: pieces of the file (start offset, end offset), in order, and its first line."""

    line: int
    pieces: list[tuple[int, int]] = field(default_factory=list)


@dataclass(slots=True)
class _Variable:
    """A make variable: recursive (``value`` unexpanded) or simple (expanded), or unresolved (``note``).

    ``provenance`` is where its value is written when one assignment holds all of it as it is (``REF :=
    v1.2`` on one line); ``copies`` names the variable whose value it is when it is assigned exactly one
    reference (``REF = $(TAG)``), whose provenance it then has.
    """

    value: str | None
    recursive: bool
    note: str | None = None
    provenance: Provenance | None = None
    copies: str | None = None


class _Reader:
    """Reads a Makefile's lines: variables, conditionals, rules and their recipe lines."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.variables: dict[str, _Variable] = {}
        self.references_left = _MAX_REFERENCES
        #: The final values of the variables as the shell sees them (:meth:`scope`), once the file is read.
        self.final_scope: Scope | None = None
        self.recipes: list[_Recipe] = []
        self.conditionals: list[int] = []
        self.one_shell = ".ONESHELL:" in text
        self.shell_line = 0
        #: The recipe of the current rule under ``.ONESHELL:`` (its lines run in one shell).
        self.current: _Recipe | None = None

    # Reading

    def read(self) -> None:
        index, in_recipe = 0, False
        while index < len(self.lines):
            line = self.lines[index].rstrip("\r")
            if line.startswith("\t") and in_recipe:
                index = self._recipe_line(index)
                continue
            first = index
            logical, index = self._logical(index)
            stripped = _without_comment(logical).strip()
            if not stripped:
                continue
            number = index  # the logical line's last physical line, 1-based
            define = _DEFINE.match(stripped)
            if define is not None:
                index = self._define(define, index)
                in_recipe = False
            elif self._directive(stripped, number):
                pass
            elif (assignment := _ASSIGNMENT.match(stripped)) is not None:
                self._assign(assignment, number, one_line=index - first == 1)
                in_recipe = False
            else:
                in_recipe = self._rule(stripped, index - 1)
                self.current = None

    def _logical(self, index: int) -> tuple[str, int]:
        """The non-recipe line at ``index`` with its continuations joined by one space; the index after."""
        parts: list[str] = []
        while index < len(self.lines):
            line = self.lines[index].rstrip("\r")
            index += 1
            stripped = line.rstrip()
            backslashes = len(stripped) - len(stripped.rstrip("\\"))
            if backslashes % 2 == 1:
                parts.append(stripped[:-1].rstrip() if not parts else stripped[:-1].strip())
                continue
            parts.append(line if not parts else line.strip())
            break
        return " ".join(parts), index

    def _recipe_line(self, index: int) -> int:
        """Record the recipe line at ``index`` (continuations included); return the index after it."""
        line_text = self.lines[index]
        start = self.starts[index] + 1  # after the tab
        while start < self.starts[index] + len(line_text) and self.text[start] in _RECIPE_PREFIXES:
            start += 1
        recipe = _Recipe(index + 1)
        if self.current is not None:
            recipe = self.current  # .ONESHELL: the rule's lines go to one shell, a line break between
            last = recipe.pieces[-1][1]
            if self.text.startswith("\n", last):
                recipe.pieces[-1] = (recipe.pieces[-1][0], last + 1)
        while True:
            end = self.starts[index] + len(self.lines[index].rstrip("\r"))
            stripped = self.lines[index].rstrip("\r")
            backslashes = len(stripped) - len(stripped.rstrip("\\"))
            continues = backslashes % 2 == 1 and index + 1 < len(self.lines)
            recipe.pieces.append((start, end + 1 if continues else end))
            index += 1
            if not continues:
                break
            start = self.starts[index] + (1 if self.lines[index].startswith("\t") else 0)
        if recipe is not self.current and (
            recipe.pieces[0][0] < recipe.pieces[-1][1] or len(recipe.pieces) > 1
        ):
            self.recipes.append(recipe)
            if self.one_shell:
                self.current = recipe
        return index

    def _define(self, define: re.Match[str], index: int) -> int:
        """``define NAME [op]`` … ``endef``: a (multi-line) variable; returns the index after ``endef``."""
        body: list[str] = []
        number = index
        while index < len(self.lines):
            line = self.lines[index].rstrip("\r")
            index += 1
            if line.strip().startswith("endef"):
                break
            body.append(line)
        self._set(define.group("name"), define.group("op") or "=", "\n".join(body), number)
        return index

    def _directive(self, stripped: str, number: int) -> bool:
        """Conditionals and other directives; True when ``stripped`` is one."""
        word = stripped.split(None, 1)[0]
        if _CONDITIONAL.match(stripped):
            self.conditionals.append(number)
        elif word == "else":
            if _CONDITIONAL.match(stripped[4:].strip()) and self.conditionals:
                self.conditionals[-1] = number
        elif word == "endif":
            if self.conditionals:
                self.conditionals.pop()
        elif word in ("include", "-include", "sinclude", "vpath", "unexport", "undefine"):
            if word == "undefine":
                self.variables.pop(stripped.split()[-1], None)
        elif word == "export" and "=" not in stripped:
            pass  # exporting names: make's values are visible to the shell here already
        else:
            return False
        return True

    def _assign(self, match: re.Match[str], number: int, one_line: bool) -> None:
        name = match.group("name")
        if "$" in name:
            name_value = self.expand(name)[0]
            if name_value is None:
                return
            name = name_value
        value = match.group("value")
        self._set(name, match.group("op"), value, number, self._written(value, number) if one_line else None)

    def _written(self, value: str, number: int) -> Provenance | None:
        """Where ``value``, assigned on line ``number`` (one physical line), is written: the end of the line
        before its comment, when it is there as it is."""
        line = _without_comment(self.lines[number - 1].rstrip("\r")).rstrip()
        if not value or not line.endswith(value):
            return None
        column = len(line) - len(value) + 1
        return Provenance.written(self.path, Span(number, column, number, column + len(value)), value)

    def _set(self, name: str, op: str, value: str, number: int, written: Provenance | None = None) -> None:
        old = self.variables.get(name)
        new: _Variable
        if op == "?=" and old is not None:
            return
        if op == "!=":
            new = _Variable(None, False, f"$({name}) is the output of a shell command (line {number})")
        elif op == "+=" and old is not None:
            if old.value is None:
                return
            if old.recursive:
                new = _Variable(f"{old.value} {value}" if old.value else value, True)
            else:
                appended, note = self.expand(value)
                joined = f"{old.value} {appended}" if old.value else appended
                new = _Variable(joined if note is None else None, False, note)
        elif op in (":=", "::=", ":::="):
            expanded, note = self.expand(value)
            new = _Variable(expanded, False, note)
            self._set_provenance(new, value, written)
            if new.copies is not None:  # expanded here: the copy is of the value the variable has now
                new.provenance, new.copies = self.provenance_of(new.copies), None
        else:
            new = _Variable(value, True)
            self._set_provenance(new, value, written)
        if self.conditionals and old is not None and self._final(old) != self._final(new):
            new = _Variable(
                None,
                False,
                f"$({name}) is set differently depending on the conditional on line {self.conditionals[-1]} "
                f"(line {number})",
            )
        elif self.conditionals and old is not None:
            new.provenance = new.copies = None  # two assignments hold the value: no one place to edit
        if name == "SHELL":
            self.shell_line = number
        self.variables[name] = new

    @staticmethod
    def _set_provenance(variable: _Variable, value: str, written: Provenance | None) -> None:
        """Record where ``variable``'s ``value`` is written: here when it holds no reference, else the
        variable it copies when it is one whole reference."""
        if "$" not in value:
            variable.provenance = written
        elif (reference := _WHOLE_REFERENCE.fullmatch(value)) is not None:
            variable.copies = reference.group(1) or reference.group(2)

    def provenance_of(self, name: str, depth: int = 0) -> Provenance | None:
        """Where the value of the variable ``name`` is written, following the variables it copies."""
        variable = self.variables.get(name)
        if variable is None or variable.value is None or depth > 16:
            return None
        if variable.copies is not None:
            return self.provenance_of(variable.copies, depth + 1)
        return variable.provenance

    def _rule(self, stripped: str, index: int) -> bool:
        """A rule line (``targets: prerequisites [; recipe]``): True when it starts a recipe."""
        colon = _outside_references(stripped, ":")
        if colon is None:
            return False
        rest = stripped[colon + 1 :].lstrip(":")
        target_specific = _ASSIGNMENT.match(rest.strip())
        if target_specific is not None:
            name = target_specific.group("name")
            self.variables[name] = _Variable(
                None, False, f"$({name}) is set for the target {stripped[:colon].strip()} (line {index + 1})"
            )
            return True
        semicolon = _outside_references(self.lines[index], ";")
        if semicolon is not None and self.lines[index].count(":") and semicolon > self.lines[index].find(":"):
            start = self.starts[index] + semicolon + 1
            end = self.starts[index] + len(self.lines[index].rstrip("\r"))
            while start < end and self.text[start] in _RECIPE_PREFIXES:
                start += 1
            if start < end:
                self.recipes.append(_Recipe(index + 1, [(start, end)]))
        return True

    # Values

    def _final(self, variable: _Variable) -> str | None:
        if variable.value is None:
            return None
        return self.expand(variable.value)[0] if variable.recursive else variable.value

    def expand(self, text: str, depth: int = 0) -> tuple[str | None, str | None]:
        """Expand make references in ``text`` with the variables as they stand; ``(value, None)`` or
        ``(None, why)``."""
        if "$" not in text:
            return text, None
        out: list[str] = []
        index = length = 0
        while index < len(text):
            char = text[index]
            if char != "$" or index + 1 >= len(text):
                out.append(char)
                index += 1
                continue
            following = text[index + 1]
            if following == "$":
                out.append("$")
                index += 2
                continue
            if following in "({":
                end = _closing(text, index + 1)
                value, note = self.reference(text[index + 2 : end - 1], depth)
                index = end
            else:
                value, note = self.reference(following, depth)
                index += 2
            if value is None:
                return None, note
            out.append(value)
            length += len(value)
            if length > MAX_VALUE_LENGTH:
                return None, _TOO_LONG
        return "".join(out), None

    def reference(self, inner: str, depth: int = 0) -> tuple[str | None, str | None]:
        """The value of ``$(inner)``: a variable, or ``(None, why)`` for what only make knows."""
        if depth > 16:
            return None, "make variables nest too deeply"
        if self.references_left <= 0:
            return None, _TOO_MANY_REFERENCES
        self.references_left -= 1
        if not _NAME.fullmatch(inner):
            if "$" in inner and " " not in inner and ":" not in inner:
                name, note = self.expand(inner, depth + 1)
                if name is None:
                    return None, note
                inner = name
            else:
                return None, f"make computes $({inner.split(None, 1)[0]} …) when it runs"
        variable = self.variables.get(inner)
        if variable is None:
            if len(inner) == 1 and not inner.isalnum():
                return None, f"${inner} is an automatic variable, set when make runs the rule"
            return None, _MAKE_NOTE.format(name=inner)
        if variable.value is None:
            return None, variable.note
        if not variable.recursive:
            return variable.value, None
        return self.expand(variable.value, depth + 1)

    def scope(self, masks: dict[str, str]) -> Scope:
        """The shell's variables for a recipe: make's variables by name (final values, expanded once for all
        recipes: the file has been read), and the masks of :func:`_shell_text` (unresolved)."""
        if self.final_scope is None:
            self.final_scope = Scope()
            for name in self.variables:
                value, note = self.reference(name)
                binding = (
                    Binding(value, provenance=self.provenance_of(name))
                    if value is not None
                    else Binding(None, Resolution.UNRESOLVED, note)
                )
                self.final_scope.set(name, binding)
        scope = self.final_scope.child()
        for mask, written in masks.items():
            if mask in self.variables:
                continue  # bound above
            if written.startswith("$(") or written.startswith("${"):
                inner = written[2:-1]
                if _NAME.fullmatch(inner) and inner not in self.variables:
                    note = _MAKE_NOTE.format(name=inner)
                else:
                    note = self.reference(inner)[1] or f"make computes {written} when it runs"
            else:
                note = f"{written} is an automatic variable, set when make runs the rule"
            scope.set(mask, Binding(None, Resolution.UNRESOLVED, note))
        return scope

    def shell(self) -> str | None:
        """The ``SHELL`` the file sets when it is not a POSIX shell (its recipes are then not read)."""
        variable = self.variables.get("SHELL")
        if variable is None:
            return None
        value = self._final(variable)
        program = posixpath.basename(value.split()[0]) if value and value.split() else ""
        return None if program in SHELLS or not value else value


def _shell_text(text: str, recipe: _Recipe, lines: _LineOf) -> tuple[SourceMapBuilder, dict[str, str]]:
    """The shell text of a recipe line, and the shell names it uses for make's expansions (see the module
    docstring): name → the expansion as written (``NAME`` → ``$(NAME)``; ``_M0_`` → ``$(shell …)``).
    ``lines`` gives positions in ``text`` (one for the whole file: building one per recipe was quadratic)."""
    out = SourceMapBuilder()
    masks: dict[str, str] = {}
    computed = 0  # how many names of masks start with _M (the next mask's number)
    for start, end in recipe.pieces:
        position = start
        while position < end:
            dollar = text.find("$", position, end)
            if dollar == -1:
                out.copy(text[position:end], *lines.position(position))
                break
            out.copy(text[position:dollar], *lines.position(position))
            following = text[dollar + 1] if dollar + 1 < end else ""
            if following == "$":
                out.copy("$", *lines.position(dollar))
                position = dollar + 2
            elif following in ("(", "{") and following:
                close = _closing(text, dollar + 1, end)
                written = text[dollar:close]
                inner = written[2:-1]
                if _NAME.fullmatch(inner) and close <= end and written[-1] in ")}":
                    replacement = "${" + inner + "}"
                    name = inner
                else:
                    replacement = _mask(computed, written)
                    name = replacement[2:-1] if replacement.startswith("${") else ""
                if name and name not in masks:
                    masks[name] = written
                    computed += name.startswith("_M")
                _copy_same_length(out, replacement, written, dollar, lines)
                position = close
            elif following:
                replacement = "$" + following if following in "@*?" or following.isalnum() else "$*"
                out.copy(replacement, *lines.position(dollar))
                position = dollar + 2
            else:
                out.copy("$", *lines.position(dollar))
                position = dollar + 1
    return out, masks


def _mask(index: int, written: str) -> str:
    """A shell expansion as long as ``written`` that no one sets: ``${_M0_…}``, or ``$*`` when too short."""
    name = f"_M{index}"
    width = len(written.split("\n", 1)[0])
    if width - 3 >= len(name):
        return "${" + name + "_" * (width - 3 - len(name)) + "}"
    return "$*" + " " * max(0, width - 2)


def _copy_same_length(
    out: SourceMapBuilder, replacement: str, written: str, start: int, lines: _LineOf
) -> None:
    """Copy ``replacement`` for the ``written`` text at ``start``, character by character where they line
    up (a line break of ``written`` keeps its place)."""
    for offset, (char, original) in enumerate(zip(replacement, written, strict=False)):
        out.copy(char if original != "\n" else "\n", *lines.position(start + offset))


class _LineOf:
    """1-based (line, column) of offsets of a text."""

    def __init__(self, text: str) -> None:
        from ascend_reflint.sourcemap import LineIndex

        self._index = LineIndex(text)

    def position(self, offset: int) -> tuple[int, int]:
        return self._index.position(offset)


def _closing(text: str, opening: int, end: int | None = None) -> int:
    """The offset after the bracket closing the ``(`` or ``{`` at ``opening`` (the same kind nests)."""
    end = len(text) if end is None else end
    pair = {"(": ")", "{": "}"}[text[opening]]
    depth = 0
    for index in range(opening, end):
        if text[index] == text[opening]:
            depth += 1
        elif text[index] == pair:
            depth -= 1
            if depth == 0:
                return index + 1
    return end


def _outside_references(line: str, char: str) -> int | None:
    """The index of the first ``char`` of ``line`` outside ``$(…)``/``${…}``, or None."""
    depth = 0
    for index, current in enumerate(line):
        if current in "({" and index and line[index - 1] == "$":
            depth += 1
        elif current in ")}" and depth:
            depth -= 1
        elif current == char and depth == 0:
            return index
    return None


def _without_comment(line: str) -> str:
    """``line`` without its make comment (``#`` not escaped and not inside a reference)."""
    index = _outside_references(line, "#")
    while index is not None and index and line[index - 1] == "\\":
        following = _outside_references(line[index + 1 :], "#")
        index = None if following is None else index + 1 + following
    return line if index is None else line[:index]


def _written_in_file(pin: Pin, lines: list[str]) -> Pin:
    """``pin`` with ``ref_text`` as the file holds it at the pin's span (the shell saw ``${NAME}`` where the
    file has ``$(NAME)``, ``$`` where it has ``$$``)."""
    if not pin.ref_text or "$" not in pin.ref_text:
        return pin
    span = pin.span
    if span.line != span.end_line:
        return pin
    written = lines[span.line - 1][span.column - 1 : span.end_column - 1]
    return dataclasses.replace(pin, ref_text=written)
