#!/bin/bash
git clone --branch v2.10.0 https://github.com/NVIDIA/TransformerEngine.git
git clone --branch maser https://github.com/Ascend/MindSpeed.git
git clone --branch core_v0.16.0 https://github.com/NVIDIA/Megatron-LM.git
