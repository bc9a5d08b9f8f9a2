#!/bin/bash
# Sets up the NPU test environment, then runs the suite.
source /usr/local/Ascend/ascend-toolkit/set_env.sh

git clone -b master https://gitcode.com/ascend/MindSpeed.git
cd MindSpeed
git checkout master
pip install -r requirements.txt
cd ..

git clone https://gitcode.com/Ascend/FSDPTurbo.git
(cd FSDPTurbo && pip3 install -e .)

git clone -b master https://gitcode.com/ascend/MindSpeed-LLM.git
cd MindSpeed-LLM
pytest -x tests/ut
