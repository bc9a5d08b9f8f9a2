#!/bin/bash
# Install the inference engines and Megatron into the current environment.
USE_MEGATRON=${USE_MEGATRON:-1}
USE_SGLANG=${USE_SGLANG:-1}
export MAX_JOBS=32

echo "1. engines"
pip install --no-cache-dir "vllm==0.11.0"
if [ "$USE_SGLANG" -eq 1 ]; then
    pip install "sglang[all]==0.5.2" --no-cache-dir
fi

echo "2. helpers (see also: pip install git+https://github.com/example/unused.git@py311support)"

if [ "$USE_MEGATRON" -eq 1 ]; then
    NVTE_FRAMEWORK=pytorch pip3 install --no-deps git+https://github.com/NVIDIA/TransformerEngine.git@v2.6
    pip3 install --no-deps git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.13.1
fi

TE_TAG=v2.6
git clone --branch "$TE_TAG" https://github.com/NVIDIA/TransformerEngine.git /tmp/te && \
    cd /tmp/te && git submodule update --init --recursive
