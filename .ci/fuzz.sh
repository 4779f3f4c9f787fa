#!/usr/bin/env bash
# Bounded libFuzzer run of every parser's fuzz target (tests/fuzz) with ASan+UBSan: bash .ci/fuzz.sh [seconds]
# (default 80, shared among the targets). Uses the clang build of .ci/sanitize.sh ($MSPROBE_SANITIZE_BUILD,
# default build-asan). Fails on any crash, sanitizer report, exception other than msprobe::Error, hang
# (-timeout) or memory blow-up (-rss_limit_mb). Seeds: tests/fuzz/corpus/<target> and files of tests/data.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-80}
build=${MSPROBE_SANITIZE_BUILD:-build-asan}
bash .ci/sanitize.sh --build-only > /dev/null
export ASAN_OPTIONS=detect_container_overflow=0:alloc_dealloc_mismatch=0:detect_leaks=0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The targets write each input to a file under $TMPDIR; a target that fails leaves it there, inside $work.
export TMPDIR="$work"
mkdir -p "$build/artifacts"

# seeds TARGET FIND-ARGS...: tests/fuzz/corpus/TARGET and the tests/data files the find picks, in one folder.
seeds() {
    local dir="$work/seeds/$1"; shift
    mkdir -p "$dir"
    [ -d "tests/fuzz/corpus/$(basename "$dir")" ] && cp tests/fuzz/corpus/"$(basename "$dir")"/* "$dir"/
    if [ $# -gt 0 ]; then
        local files f
        mapfile -d '' files < <(find tests/data -type f -size -64k "$@" -print0 | sort -z)
        for f in "${files[@]:0:40}"; do cp "$f" "$dir/$(echo "$f" | tr '/' '_')"; done
    fi
    echo "$dir"
}
# small_pages DIR: every SQLite file in DIR rewritten with 512-byte pages (python3's sqlite3), so that each is a
# few kB, as a fuzzer's inputs should be.
small_pages() {
    python3 - "$1" <<'PY'
import glob, sqlite3, sys
for name in glob.glob(sys.argv[1] + "/*.db"):
    db = sqlite3.connect(name)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA page_size=512")
    db.execute("VACUUM")
    db.close()
PY
}

# The vis.db seeds: a build (-oc) and a compare of a tiny dump made by our own graph_visualize, small pages.
visdb="$work/seeds/vis_db"
mkdir -p "$visdb"
"$build/app/cli/msprobe" graph_visualize -tp tests/fuzz/corpus/vis_db_dump/rank0 -o "$visdb" -oc > /dev/null 2>&1
"$build/app/cli/msprobe" graph_visualize -tp tests/fuzz/corpus/vis_db_dump/rank0 \
    -gp tests/fuzz/corpus/vis_db_dump/rank0 -o "$visdb" > /dev/null 2>&1
small_pages "$visdb"

# The trend.db seeds: data2db imports of a small dump and of a monitor run, small pages.
trenddb="$work/seeds/trend_db"
mkdir -p "$trenddb"
"$build/app/cli/msprobe" data2db --db "$work/trend_dump" --data tests/data/trend/synthetic_dump > /dev/null 2>&1
"$build/app/cli/msprobe" data2db --db "$work/trend_monitor" --data tests/data/trend/monitor_input_example > /dev/null 2>&1
cp "$work"/trend_dump/*.trend.db "$work"/trend_monitor/*.trend.db "$trenddb"/ 2>/dev/null || true
small_pages "$trenddb"

# target  share-of-time  max-input  seed-folder
runs=(
  "dump_json 3 16384 $(seeds dump_json -name dump.json)"
  "construct_json 1 16384 $(seeds construct_json -name construct.json)"
  "stack_json 1 16384 $(seeds stack_json -name stack.json)"
  "npy 1 4096 $(seeds npy)"
  "pt 2 8192 $(seeds pt -path '*tensor/*.pt')"
  "compare_csv 1 16384 $(seeds compare_csv -name '*.csv' -path '*compare*')"
  "monitor_csv 1 8192 $(seeds monitor_csv -name '*.csv' -path '*trend*')"
  "vis_db 2 32768 $visdb"
  "trend_db 1 32768 $trenddb"
  "mapping 1 4096 $(seeds mapping)"
  "memscope_csv 2 16384 $(seeds memscope_csv -name '*.csv' -path '*memory*')"
)
shares=0
for r in "${runs[@]}"; do shares=$(( shares + $(echo "$r" | cut -d' ' -f2) )); done

failed=()
for r in "${runs[@]}"; do
    read -r name share maxlen seed <<< "$r"
    t=$(( seconds * share / shares )); [ "$t" -lt 1 ] && t=1
    mkdir -p "$work/new/$name"
    dict=(); [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    echo "fuzz: $name for $t s"
    status=0
    "$build/tests/fuzz/fuzz_$name" "$work/new/$name" "$seed" "${dict[@]}" -max_total_time="$t" -timeout=10 \
        -rss_limit_mb=2048 -max_len="$maxlen" -artifact_prefix="$build/artifacts/$name-" -print_final_stats=1 \
        > "$work/$name.log" 2>&1 || status=$?
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$work/$name.log" | tr '\n' ' '; echo
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$work/$name.log" >&2
        failed+=("$name")
    fi
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: FAILED: ${failed[*]}; reproduce with: $build/tests/fuzz/fuzz_<target> $build/artifacts/<file>" >&2
    exit 1
fi
echo "fuzz: no failure in ${seconds} s over ${#runs[@]} targets"
