#!/bin/bash
set -euo pipefail
git clone https://github.com/NVIDIA/TransformerEngine.git te && git -C te checkout 97bd662f269a533b265506b45973563d861a2fe2  # v2.10
# TransformerEngine v2.10
git clone https://github.com/NVIDIA/TransformerEngine.git te2 && git -C te2 checkout 97bd662f269a533b265506b45973563d861a2fe2 && \
    pip install ./te2
