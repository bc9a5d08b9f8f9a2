#!/bin/bash
set -e
git clone \
    --branch main https://github.com/NVIDIA/Megatron-LM.git mcore
cd mcore
git checkout core_v0.18.2
