"""What the words of one command line mean: git, pip, shells, the wrappers that run other commands, ``cd``.

This package knows command-line syntax only; it never expands variables, computes positions or parses
shell. It works on :class:`CommandWord` values (a word as the shell extractor sees it: quotes removed,
expansions kept as written) and answers with indexes into the word list, so that the extractor can map
every answer back to the file. One module per family: :mod:`.options` (the word protocol and option
parsing), :mod:`.git`, :mod:`.pip` and :mod:`.shells`.
"""

from ascend_reflint.extract.commands.git import (
    CloneCommand,
    FetchCommand,
    GitCommand,
    RemoteCommand,
    checkout_ref_name,
    checkout_target,
    is_path_like,
    is_relative_ref,
    options_without_value,
    parse_clone,
    parse_fetch,
    parse_git,
    parse_init,
    parse_remote,
)
from ascend_reflint.extract.commands.options import (
    CommandWord,
    LiteralWord,
    OptionTable,
    ParsedOptions,
    WordPart,
    parse_options,
)
from ascend_reflint.extract.commands.pip import VcsParts, pip_requirements, vcs_parts
from ascend_reflint.extract.commands.shells import (
    SHELLS,
    WRAPPERS,
    ShellScript,
    Wrapped,
    assignment_names,
    cd_target,
    shell_script,
    unwrap,
)

__all__ = [
    "SHELLS",
    "WRAPPERS",
    "CloneCommand",
    "CommandWord",
    "FetchCommand",
    "GitCommand",
    "LiteralWord",
    "OptionTable",
    "ParsedOptions",
    "RemoteCommand",
    "ShellScript",
    "VcsParts",
    "WordPart",
    "Wrapped",
    "assignment_names",
    "cd_target",
    "checkout_ref_name",
    "checkout_target",
    "is_path_like",
    "is_relative_ref",
    "options_without_value",
    "parse_clone",
    "parse_fetch",
    "parse_git",
    "parse_init",
    "parse_options",
    "parse_remote",
    "pip_requirements",
    "shell_script",
    "unwrap",
    "vcs_parts",
]
