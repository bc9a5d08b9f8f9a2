"""The cheap test, before a text is parsed, that it can hold a pin.

Every pin is written with ``git`` (a git command, ``git+URL``, a ``.git`` URL, npm's ``github:``, cargo's
``--git``), or is a git dependency given to npm, yarn or pnpm, which also take one by a shorthand that
never says git: ``npm install owner/repo#v1.2.3`` (npm's "npm-install" docs and npm-package-arg: a bare
``owner/repo`` is a GitHub repository). So a text that holds neither ``git`` nor the name of one of those
package managers (``pnpm`` holds ``npm``) gives no pin, and the extractors skip it unparsed.
"""

from __future__ import annotations

#: The words of which every text that can pin holds one.
PIN_WORDS = ("git", "npm", "yarn")


def may_name_pin(text: str) -> bool:
    """True when ``text`` holds one of :data:`PIN_WORDS` (three substring searches: no parsing)."""
    return "git" in text or "npm" in text or "yarn" in text
