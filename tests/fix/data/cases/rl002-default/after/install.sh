#!/bin/bash
install_te() {
    pip install "git+https://github.com/NVIDIA/TransformerEngine.git@$1"
}
: "${TE_DEFAULT:=v2.10}"
install_te "${TE_REF-v2.10}"
pip install "git+https://github.com/NVIDIA/TransformerEngine.git@${TE_DEFAULT}"
