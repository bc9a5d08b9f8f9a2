"""The words of a command line and its options: the word protocol, option tables and :func:`parse_options`.

Options are read as git's parse-options reads them (``--opt=value`` or ``--opt value``, ``-ovalue`` or
``-o value``, bundled short flags, unambiguous prefixes of long options, options mixed with positionals);
the tables of each command are in :mod:`ascend_reflint.extract.commands.git`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple, Protocol


class CommandWord(Protocol):
    """One word of a command, as the shell extractor sees it.

    ``display`` is the word with quoting removed and expansions (``$V``, ``${V:-d}``, ``$(cmd)``) kept as
    written; ``literal_prefix`` is the start of ``display`` up to the first expansion (all of it for a
    word without expansions). Options are recognised from ``literal_prefix`` only.
    """

    @property
    def display(self) -> str: ...

    @property
    def literal_prefix(self) -> str: ...


class LiteralWord:
    """A word that is its own text, with no quoting and no expansion: an exec-form argument
    (``RUN ["bash", "-c", "…"]``), which no shell reads."""

    __slots__ = ("display",)

    def __init__(self, display: str) -> None:
        self.display = display

    @property
    def literal_prefix(self) -> str:
        """All of the word."""
        return self.display


class WordPart(NamedTuple):
    """A value inside the word list: the word at index ``word``, from ``offset`` display characters into it
    to its end.

    ``--branch=v1`` gives ``WordPart(i, 9)``; ``--branch v1`` gives ``WordPart(i + 1, 0)``.
    """

    word: int
    offset: int = 0


class OptionTable(NamedTuple):
    """The options of one command.

    Attributes:
        with_value: canonical long names of options that take a value (``--opt=v`` or ``--opt v``).
        optional_value: canonical names whose value may only be given as ``--opt=v``.
        flags: canonical long names that take no value.
        short: short option letter → canonical long name.
        aliases: other long spellings → canonical long name (``recursive`` → ``recurse-submodules``).
        abbreviations: accept unambiguous prefixes of long names (git's parse-options does).
    """

    with_value: frozenset[str]
    flags: frozenset[str] = frozenset()
    optional_value: frozenset[str] = frozenset()
    short: Mapping[str, str] = MappingProxyType({})
    aliases: Mapping[str, str] = MappingProxyType({})
    abbreviations: bool = True

    def canonical(self, name: str) -> str | None:
        """The canonical long name for ``name`` (without ``--``), or None when unknown or ambiguous."""
        name = self.aliases.get(name, name)
        if name in self.with_value or name in self.flags or name in self.optional_value:
            return name
        if not self.abbreviations or not name:
            return None
        known = (*self.with_value, *self.flags, *self.optional_value, *self.aliases)
        matches = {self.aliases.get(k, k) for k in known if k.startswith(name)}
        return matches.pop() if len(matches) == 1 else None


class ParsedOptions:
    """The result of :func:`parse_options`.

    Attributes:
        options: ``(canonical name, index of the option word, value or None)`` in order; unknown options
            appear with their name as written (``"x"`` for ``-x``, ``"frob"`` for ``--frob``).
        positionals: indexes of the words that are not options or option values, in order.
        double_dash: the number of positionals seen before ``--`` (``len(positionals)`` when none).
    """

    __slots__ = ("double_dash", "options", "positionals")

    def __init__(self) -> None:
        self.options: list[tuple[str, int, WordPart | None]] = []
        self.positionals: list[int] = []
        self.double_dash: int | None = None

    def last(self, *names: str) -> tuple[str, int, WordPart | None] | None:
        """The last option given among ``names`` (later options override earlier ones), or None."""
        found = None
        for option in self.options:
            if option[0] in names:
                found = option
        return found

    def has(self, *names: str) -> bool:
        """True when any of ``names`` was given."""
        return any(option[0] in names for option in self.options)


def parse_options(
    words: Sequence[CommandWord], table: OptionTable, start: int = 0, stop_at_positional: bool = False
) -> ParsedOptions:
    """Split ``words[start:]`` into options (with their values) and positionals, as git's parse-options does.

    Args:
        words: the command's words.
        table: the command's options.
        start: the index of the first word to read.
        stop_at_positional: stop at the first positional (it and everything after are positionals).

    Returns:
        The options and positionals, with indexes into ``words``.
    """
    parsed = ParsedOptions()
    index = start
    while index < len(words):
        word = words[index]
        prefix = word.literal_prefix
        if parsed.double_dash is not None or not prefix.startswith("-") or word.display == "-":
            parsed.positionals.append(index)
            if stop_at_positional:
                parsed.positionals.extend(range(index + 1, len(words)))
                return parsed
        elif word.display == "--":
            parsed.double_dash = len(parsed.positionals)
        elif prefix.startswith("--"):
            index = _long_option(words, index, table, parsed)
        else:
            index = _short_options(words, index, table, parsed)
        index += 1
    return parsed


def _long_option(words: Sequence[CommandWord], index: int, table: OptionTable, parsed: ParsedOptions) -> int:
    prefix = words[index].literal_prefix
    name, equals, _ = prefix[2:].partition("=")
    canonical = table.canonical(name)
    if canonical is None:
        parsed.options.append((name, index, WordPart(index, len(name) + 3) if equals else None))
        return index
    if equals:
        parsed.options.append((canonical, index, WordPart(index, len(name) + 3)))
        return index
    if canonical in table.with_value and index + 1 < len(words):
        parsed.options.append((canonical, index, WordPart(index + 1)))
        return index + 1
    parsed.options.append((canonical, index, None))
    return index


def _short_options(
    words: Sequence[CommandWord], index: int, table: OptionTable, parsed: ParsedOptions
) -> int:
    word = words[index]
    prefix = word.literal_prefix
    for position in range(1, len(prefix)):
        letter = prefix[position]
        canonical = table.short.get(letter)
        if canonical is None:
            parsed.options.append((letter, index, None))
            continue
        if canonical not in table.with_value:
            parsed.options.append((canonical, index, None))
            continue
        if position + 1 < len(word.display):  # sticked value: -bv1, -j8
            parsed.options.append((canonical, index, WordPart(index, position + 1)))
            return index
        if index + 1 < len(words):
            parsed.options.append((canonical, index, WordPart(index + 1)))
            return index + 1
        parsed.options.append((canonical, index, None))
        return index
    return index
