#!/bin/bash
set -euo pipefail
MEGATRON_REF=core_r0.18.0
git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git /opt/Megatron-LM
