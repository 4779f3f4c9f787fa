#!/usr/bin/env bash
# ASan+UBSan build of the Qt-free part (core, the msprobe CLI, the core/CLI test suites and the libFuzzer
# targets of tests/fuzz) with clang, and its tests: bash .ci/sanitize.sh [--build-only].
# Builds in $MSPROBE_SANITIZE_BUILD (default build-asan) without the GUI, capture and benchmarks; any
# sanitizer report ends the test that caused it with a failure, and so the script. .ci/fuzz.sh reuses it.
# Debug keeps assertions on; line tables only (enough for the reports' stack traces) keep compiling cheap.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MSPROBE_SANITIZE_BUILD:-build-asan}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
start=$(date +%s)

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug "${launcher[@]}" \
    -DMSPROBE_BUILD_GUI=OFF -DMSPROBE_BUILD_CAPTURE=OFF -DMSPROBE_BUILD_BENCH=OFF -DMSPROBE_BUILD_TESTS=ON \
    -DMSPROBE_BUILD_FUZZ=ON -DCMAKE_C_FLAGS="$flags -O1" -DCMAKE_CXX_FLAGS="$flags -O1" \
    -DCMAKE_C_FLAGS_DEBUG=-gline-tables-only -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" > /dev/null
# A CI run once stopped here with a compile that printed nothing (killed, most likely); say what the machine
# looked like and build once more, one job at a time, so a transient kill does not end the run and a real error
# prints in full.
if ! cmake --build "$build" -j "$(nproc)"; then
    echo "sanitize: the build failed; disk, memory and the largest processes now:"
    df -h . /tmp || true
    free -m || true
    ps -eo pid,rss,etime,args --sort=-rss | head -8 || true
    echo "sanitize: building again with one job"
    cmake --build "$build" -j 1
fi
[ "${1:-}" = "--build-only" ] && exit 0

# The first report ends the process with a failing status, so ctest sees it. libtorch (loaded for .pt
# files) and Qt are not instrumented: the container-overflow and new/delete pairing checks would misread
# them, and leaks are not checked (their one-time allocations at exit would need a suppression list).
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=0:detect_container_overflow=0:alloc_dealloc_mismatch=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" -j "$(nproc)" --output-on-failure
echo "sanitize: core and CLI tests clean under ASan+UBSan; $(( $(date +%s) - start )) s"
