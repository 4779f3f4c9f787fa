#!/usr/bin/env bash
# Bounded libFuzzer run of the dump.json reader with ASan+UBSan: bash .ci/fuzz.sh [seconds] (default 60).
# Builds tests/fuzz standalone with clang in $MSPROBE_FUZZ_BUILD (default build-fuzz); fails on any crash,
# sanitizer report, uncaught exception, hang (-timeout) or memory blow-up (-rss_limit_mb).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${MSPROBE_FUZZ_BUILD:-build-fuzz}
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

CC=clang CXX=clang++ cmake -S tests/fuzz -B "$build" "${generator[@]}" > /dev/null
cmake --build "$build" --target fuzz_dump_json

# New inputs go to a scratch corpus; the seeds in tests/fuzz/corpus stay as they are.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/artifacts"
status=0
"$build/fuzz_dump_json" "$work" tests/fuzz/corpus -dict=tests/fuzz/dump_json.dict \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix="$build/artifacts/" -print_final_stats=1 || status=$?
if [ "$status" -ne 0 ]; then
    echo "fuzz: FAILED (exit $status); reproduce with: $build/fuzz_dump_json $build/artifacts/<file>" >&2
    exit "$status"
fi
echo "fuzz: no failure in ${seconds} s"
