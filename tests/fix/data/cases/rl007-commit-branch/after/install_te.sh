#!/bin/sh
git clone --recursive https://github.com/NVIDIA/TransformerEngine.git && git -C TransformerEngine checkout 97bd662f269a533b265506b45973563d861a2fe2 && git -C TransformerEngine submodule update --init --recursive
pip install ./TransformerEngine
