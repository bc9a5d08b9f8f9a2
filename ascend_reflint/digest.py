"""SHA-256 without loading OpenSSL: the digests that name reflint's cache entries and key its findings.

:mod:`hashlib` loads OpenSSL's ``_hashlib`` when it is imported, some 2.5 ms of a warm pre-commit run that
hashes a few short keys and files. CPython's own SHA-256 module (``_sha2``, ``_sha256`` before 3.12) gives
the same digests (FIPS 180-4) and loads in a tenth of that; hashlib's is used where it is not built.
"""

from __future__ import annotations

import sys

try:
    if sys.version_info >= (3, 12):
        from _sha2 import sha256
    else:
        from _sha256 import sha256
except ImportError:  # a Python built without it (hashlib then gives OpenSSL's)
    from hashlib import sha256

__all__ = ["sha256"]
