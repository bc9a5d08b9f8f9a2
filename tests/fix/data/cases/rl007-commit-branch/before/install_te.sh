#!/bin/sh
git clone --recursive -b "97bd662f269a533b265506b45973563d861a2fe2" https://github.com/NVIDIA/TransformerEngine.git
pip install ./TransformerEngine
