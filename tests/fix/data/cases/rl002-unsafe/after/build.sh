#!/bin/bash
set -e
git clone --depth 1 --branch core_v0.13.1 https://github.com/NVIDIA/Megatron-LM.git megatron
