"""The fix stage: apply the edits that findings carry, byte for byte, in rounds.

- :mod:`~ascend_reflint.fix.settle`: after the checks, drop each fix that cannot be applied as it stands
  (a file that was not read whole, a span that holds other text, one definition feeding pins that need
  different values; the finding then says why).
- :mod:`~ascend_reflint.fix.contents`: a file's bytes as text that can be written back exactly (BOM, line
  ends, bytes that are not UTF-8).
- :mod:`~ascend_reflint.fix.apply`: which fixes go together in a round (none overlapping), and the edits
  applied to the contents.
- :mod:`~ascend_reflint.fix.pin_commits`: the edits that ``--pin-commits`` makes (a tag replaced by its
  commit id, the tag kept in a comment).
- :mod:`~ascend_reflint.fix.rounds`: rounds of fix and rescan until nothing more applies, as ruff does.
- :mod:`~ascend_reflint.fix.diff`: the unified diff that ``--diff`` prints and ``git apply`` takes.
- :mod:`~ascend_reflint.fix.command`: what ``--fix`` and ``--diff`` do after the scan: the rounds, then the
  files written or the diff printed.

Nothing here is imported unless ``--fix``, ``--diff`` or ``--pin-commits`` is given, or a finding has a fix
to settle.
"""
