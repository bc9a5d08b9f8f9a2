#!/bin/bash
set -e
git clone --depth 1 --branch core_r0.13.0 https://github.com/NVIDIA/Megatron-LM.git megatron
