#!/bin/bash
git clone --branch "maser" https://github.com/Ascend/MindSpeed.git
git clone --branch $'maser' https://github.com/Ascend/MindSpeed.git
git clone --branch ma"ser" https://github.com/Ascend/MindSpeed.git
git clone "--branch=ma"ser https://github.com/Ascend/MindSpeed.git
REFS=("maser" ma'ser')
git clone --branch "${REFS[0]}" https://github.com/Ascend/MindSpeed.git
git clone --branch "${REFS[1]}" https://github.com/Ascend/MindSpeed.git
pip install "git+https://github.com/NVIDIA/TransformerEngine.git@"release_v2.10
pip install git+https://github.com/NVIDIA/TransformerEngine.git@release_"v2.10"
