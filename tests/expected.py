"""What reflint prints about the shipped fake remotes (``tests/data/remotes``), written once for the tests
that check whole messages."""

from __future__ import annotations

#: RL002 on NVIDIA/Megatron-LM's release branch core_r0.18.0, whose release is the tag core_v0.18.0.
MEGATRON_RELEASE_BRANCH = (
    'ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a commit lands on '
    'it: pin its release tag "core_v0.18.0"'
)
