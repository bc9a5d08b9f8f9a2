"""Read output as the GitHub Actions runner does and list the workflow commands it would obey.

The rules, from actions/runner:

- ``src/Runner.Common/ProcessInvoker.cs`` reads a step's stdout and stderr with ``StreamReader.ReadLine``:
  a line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``;
- ``src/Runner.Common/ActionCommand.cs``, ``TryParseV2``: the line is trimmed of leading white space
  (``String.TrimStart``, which trims what ``Char.IsWhiteSpace`` calls white space); if it then starts with
  ``::``, the command info runs to the next ``::`` (searched from index 2), its name to the first space;
  properties are ``key=value`` separated by ``,``; the rest is the data;
- ``TryParse`` (legacy, tried when ``TryParseV2`` fails): ``##[`` anywhere, the command info up to the next
  ``]``, the name to the first space, properties separated by ``;``;
- ``src/Runner.Worker/ActionCommandManager.cs``: only registered commands are obeyed, names compared
  without regard to case; ``stop-commands`` with data TOKEN makes the runner ignore every command until
  one named TOKEN.

.NET may compare ``StartsWith``/``IndexOf`` with the current culture, whose ICU collation skips
"ignorable" characters (soft hyphen, zero-width joiners, variation selectors …): :func:`obeyed` with
``skip_ignorable=True`` reads the output with those characters removed first, a stricter reading than
the runner's ordinal one.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

#: The runner's registered commands (ActionCommandManager and its command extensions), lower-cased.
#: ``internal-set-repo-path`` is registered only for the runner's own plugins; it is listed to be strict.
REGISTERED = frozenset(
    {
        "stop-commands",
        "set-env",
        "set-output",
        "save-state",
        "add-mask",
        "add-path",
        "add-matcher",
        "remove-matcher",
        "debug",
        "warning",
        "error",
        "notice",
        "group",
        "endgroup",
        "echo",
        "internal-set-repo-path",
    }
)
#: The properties reflint's annotations have (report/github.py).
_ANNOTATION_PROPERTIES = frozenset({"file", "line", "col", "endLine", "endColumn", "title"})
_ANNOTATION_TITLE = re.compile(r"RL\d{3} [a-z0-9-]+|reflint could not read this file")
_LINE_END = re.compile(r"\r\n|\r|\n")
#: Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt) beyond the Cf and Cc categories.
_IGNORABLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2065\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8"
    "\U000e0000-\U000e0fff]"
)


@dataclass(frozen=True)
class Command:
    """A command the runner would obey.

    Attributes:
        name: as written (the runner compares it without regard to case).
        properties: key → unescaped value.
        data: the unescaped data.
        line: the whole line it was found in.
        legacy: True for the ``##[name]`` form.
    """

    name: str
    properties: dict[str, str] = field(default_factory=dict)
    data: str = ""
    line: str = ""
    legacy: bool = False


def _is_white_space(char: str) -> bool:
    """.NET ``Char.IsWhiteSpace``: separators (Zs, Zl, Zp), U+0009 to U+000D and U+0085."""
    return unicodedata.category(char) in ("Zs", "Zl", "Zp") or char in "\t\n\x0b\x0c\r\x85"


def _unescape(text: str, mappings: tuple[tuple[str, str], ...]) -> str:
    for escaped, plain in mappings:
        text = text.replace(escaped, plain)
    return text


_DATA = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
_PROPERTY = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))
_LEGACY = (("%3B", ";"), ("%0D", "\r"), ("%0A", "\n"), ("%5D", "]"), ("%25", "%"))


def parse_v2(line: str, registered: frozenset[str]) -> Command | None:
    """``TryParseV2``: ``::name key=value,…::data`` after leading white space."""
    start = 0
    while start < len(line) and _is_white_space(line[start]):
        start += 1
    message = line[start:]
    if not message.startswith("::"):
        return None
    end = message.find("::", 2)
    if end < 0:
        return None
    info = message[2:end]
    name = info.split(" ", 1)[0]
    if name.lower() not in registered:
        return None
    properties: dict[str, str] = {}
    if " " in info:
        for pair in info.split(" ", 1)[1].strip().split(","):
            key, sep, value = pair.partition("=")
            if pair and key and sep and value:
                properties[key] = _unescape(value, _PROPERTY)
    return Command(name, properties, _unescape(message[end + 2 :], _DATA), line)


def parse_legacy(line: str, registered: frozenset[str]) -> Command | None:
    """``TryParse``: ``##[name key=value;…]data`` anywhere in the line."""
    prefix = line.find("##[")
    if prefix < 0:
        return None
    bracket = line.find("]", prefix)
    if bracket < 0:
        return None
    info = line[prefix + 3 : bracket]
    name = info.split(" ", 1)[0]
    if name.lower() not in registered:
        return None
    properties: dict[str, str] = {}
    if " " in info:
        for pair in info.split(" ", 1)[1].split(";"):
            key, sep, value = pair.partition("=")
            if pair and key and sep and value:
                properties[key] = _unescape(value, _LEGACY)
    return Command(name, properties, _unescape(line[bracket + 1 :], _LEGACY), line, legacy=True)


def obeyed(output: str, skip_ignorable: bool = False) -> list[Command]:
    """Every command the runner would obey in ``output`` (one stream: stdout or stderr), in order.

    Args:
        output: what a step wrote to one stream.
        skip_ignorable: remove format, control (other than line ends) and default-ignorable characters
            first, as a culture-sensitive comparison would skip them.
    """
    if skip_ignorable:
        output = "".join(
            char
            for char in output
            if char in "\r\n" or not (unicodedata.category(char) in ("Cf", "Cc") or _IGNORABLE.match(char))
        )
    registered = set(REGISTERED)
    stop_token: str | None = None
    commands: list[Command] = []
    for line in _LINE_END.split(output):
        command = parse_v2(line, frozenset(registered)) or parse_legacy(line, frozenset(registered))
        if command is None:
            continue
        if stop_token is not None:
            if command.name.lower() == stop_token.lower():
                registered.discard(stop_token.lower())
                stop_token = None
                commands.append(command)
            continue
        commands.append(command)
        if command.name.lower() == "stop-commands":
            stop_token = command.data
            registered.add(stop_token.lower())
    return commands


def is_reflint_annotation(command: Command) -> bool:
    """True for an annotation as reflint writes them: ``::error``/``::warning``/``::notice`` at the very
    start of the line, with reflint's properties and a title that is a rule (or the unreadable-file title)."""
    return (
        not command.legacy
        and command.name in ("error", "warning", "notice")
        and command.line.startswith(f"::{command.name} ")
        and set(command.properties) <= _ANNOTATION_PROPERTIES
        and _ANNOTATION_TITLE.fullmatch(command.properties.get("title", "")) is not None
    )


def foreign_commands(output: str) -> list[Command]:
    """The commands in ``output`` that the runner would obey and reflint did not mean (read both ways:
    ordinally, and skipping ignorable characters)."""
    found = obeyed(output) + obeyed(output, skip_ignorable=True)
    return [command for command in found if not is_reflint_annotation(command)]
