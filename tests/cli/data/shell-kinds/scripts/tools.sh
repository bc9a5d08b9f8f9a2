#!/usr/bin/env bash
cargo install --git https://github.com/astral-sh/uv --tag 0.8.0 uv
npm install github:microsoft/pyright#1.1.400
yarn add git+https://github.com/o/ranged.git#semver:^2.0
