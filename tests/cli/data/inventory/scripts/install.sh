#!/usr/bin/env bash
# café: a UTF-8 comment before the refs
MCORE_REF=${MCORE_REF:-core_r0.18.0}
git -c advice.detachedHead=false clone -b "$MCORE_REF" --single-branch https://github.com/NVIDIA/Megatron-LM.git mlm
pip3 install mbridge @ git+https://github.com/ISEEKYAN/mbridge.git@v0.15.1#egg=mbridge
git clone https://github.com/o/r.git -b "$(git describe)"
