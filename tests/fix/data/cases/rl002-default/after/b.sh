#!/bin/bash
set -e

TE_REF="${TE_REF:-v2.10}"
pip install "git+https://github.com/NVIDIA/TransformerEngine.git@${TE_REF}"
pip install "git+https://github.com/NVIDIA/TransformerEngine.git@${TE_OTHER:-v2.10}"
