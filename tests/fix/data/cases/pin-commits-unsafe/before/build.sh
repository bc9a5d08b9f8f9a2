#!/bin/bash
set -euo pipefail
git clone --branch v2.10 https://github.com/NVIDIA/TransformerEngine.git te
git clone -b v2.10 https://github.com/NVIDIA/TransformerEngine.git te2 && \
    pip install ./te2
