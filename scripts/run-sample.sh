#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job on the bundled problem/bench sample dumps: the
# headless summary and compare (CSV + HTML report in output/sample/), then, when a display is available
# ($DISPLAY or $WAYLAND_DISPLAY), opens msprobe-studio on the same pair.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bash .ci/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
targets=(msprobe)
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
    targets+=(msprobe-studio)
fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
"$build/app/cli/msprobe" info resources/samples/problem resources/samples/bench
echo
"$build/app/cli/msprobe" compare -tp resources/samples/problem -gp resources/samples/bench -o output/sample --html --no-progress
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
    echo
    echo "Opening msprobe-studio on the sample pair (close the window to finish)."
    "$build/app/studio/msprobe-studio" resources/samples/problem resources/samples/bench
fi
