#!/bin/bash
set -e
MINDSPEED_REF=v2.3.0_core_r0.12.1
git clone https://github.com/Ascend/MindSpeed.git
cd MindSpeed && git checkout "$MINDSPEED_REF" && cd ..
git clone https://github.com/sgl-project/sgl-kernel-npu.git
