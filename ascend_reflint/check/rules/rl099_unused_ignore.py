"""A `# reflint: ignore` comment that suppresses nothing.

## What it does

With `reflint scan --report-unused-ignores`, reports each `# reflint: ignore[...]` comment, and each code
in one, that suppressed no finding on its own line or the line below (a finding that groups several pins
of one remote, RL010 and RL014, counts on the line of each of its pins), and each code in one that is not
a rule code at all. A bare `# reflint: ignore` is reported when nothing on those lines was reported.
Codes of rules that the run does not enable (`--select`, `--ignore`, `select`, `ignore` and
`per-file-ignores` in the config) are not reported: the comment may be needed when they run.

## Why is this bad?

A suppression outlives the problem it was written for: the ref was fixed, the line moved, the code was
misspelt. Left in place, it silently hides the next real problem at that line.

## Example

```dockerfile
# reflint: ignore[RL002] release branch on purpose
RUN git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git
```

## Use instead

```dockerfile
RUN git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git
```
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence

from ascend_reflint.model import Finding, Severity
from ascend_reflint.suppress import Suppression, unused

CODE = "RL099"
NAME = "unused-ignore"
SEVERITY = Severity.INFO
NEEDS_LOOKUP = False


def unused_ignore_findings(
    suppressions: Sequence[Suppression],
    known_codes: Collection[str],
    enabled: Callable[[str, str], bool],
) -> Iterator[Finding]:
    """Findings for the comments, or codes in them, that suppressed nothing.

    Args:
        suppressions: the comments of the files scanned, once
            :func:`ascend_reflint.suppress.apply_suppressions` has marked what each one suppressed.
        known_codes: every rule code.
        enabled: ``enabled(code, path)`` is True when the run reports ``code`` on the file with display
            path ``path``.

    Returns:
        One finding per unused comment or code, at the comment, with this rule's default severity.
    """
    pragma = "`# reflint: ignore`"
    for suppression, what in unused(suppressions):
        if what == "*":
            message = (
                f"this {pragma} suppresses nothing: no finding is reported on its line or the next; remove it"
            )
        elif what not in known_codes:
            message = f"{what} in this {pragma} is not a rule code (`reflint rules` lists them); remove it"
        elif enabled(what, suppression.path):
            message = (
                f"{what} in this {pragma} suppresses nothing: no {what} finding is reported on its line or "
                f"the next; remove {what} from it"
            )
        else:
            continue
        yield Finding(CODE, NAME, SEVERITY, suppression.path, suppression.span, message)
