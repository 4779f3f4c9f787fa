#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job on the bundled problem/bench sample dumps.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bash .ci/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j "$(nproc)" --target msprobe
"$build/app/cli/msprobe" info resources/samples/problem resources/samples/bench
echo
"$build/app/cli/msprobe" compare -tp resources/samples/problem -gp resources/samples/bench -o output/sample --html --no-progress
