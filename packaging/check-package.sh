#!/usr/bin/env bash
# Builds the .deb packages from a configured build folder and checks them as a user would get them:
# stripped binaries, debug symbols only in the -dbgsym package, and the installed programs run —
# `msprobe --help`, `msprobe compare` and the studio's headless export on the installed sample pair.
# Usage: bash packaging/check-package.sh [build-dir] [--install]
#   --install installs the .deb with apt (CI's clean machine); without it the package is unpacked into a
#   temporary root and run from there.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
install=0
for arg in "$@"; do
    case "$arg" in
        --install) install=1 ;;
        *) build=$arg ;;
    esac
done
fail() { echo "package check: FAILED: $*" >&2; exit 1; }

rm -f "$build"/msprobe-workstation*.deb "$build"/msprobe-workstation*.ddeb
(cd "$build" && cpack -G DEB > cpack.log 2>&1) || { cat "$build/cpack.log" >&2; fail "cpack did not write the packages"; }
deb=$(ls "$build"/msprobe-workstation_*.deb 2>/dev/null | grep -v dbgsym | head -1)
dbg=$(ls "$build"/msprobe-workstation-dbgsym_*.*deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no msprobe-workstation_*.deb in $build"
[ -n "$dbg" ] || fail "no msprobe-workstation-dbgsym package in $build"
deb_mb=$(( $(stat -c %s "$deb") / 1048576 ))
echo "package: $(basename "$deb") ${deb_mb} MB; debug symbols: $(basename "$dbg") $(( $(stat -c %s "$dbg") / 1048576 )) MB"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
installed_kb=$(du -sk "$root" | cut -f1)
echo "installed size: $(( installed_kb / 1024 )) MB"
# Unstripped, the two programs alone were 171 MB; stripped, the whole package installs well under 60 MB.
[ "$installed_kb" -lt $(( 60 * 1024 )) ] || fail "installs $(( installed_kb / 1024 )) MB: are the binaries stripped?"
for program in msprobe msprobe-studio; do
    [ -x "$root/usr/bin/$program" ] || fail "the package has no /usr/bin/$program"
    if readelf -S "$root/usr/bin/$program" | grep -q '\.debug_info'; then
        fail "/usr/bin/$program still carries debug information"
    fi
done
debug_files=$(dpkg-deb -c "$dbg" | grep -c '/usr/lib/debug/.build-id/.*\.debug$' || true)
[ "$debug_files" -gt 0 ] || fail "the -dbgsym package holds no build-id debug files"
echo "debug files by build-id: $debug_files"

if [ "$install" -eq 1 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "./$deb" > /dev/null
    prefix=/usr
else
    prefix=$root/usr
fi
samples=$prefix/share/msprobe/samples
[ -f "$samples/problem/step0/rank0/dump.json" ] || fail "the sample pair is not installed under $samples"

out=$(mktemp -d)
trap 'rm -rf "$root" "$out"' EXIT
"$prefix/bin/msprobe" --help > "$out/help.txt" || fail "msprobe --help exited $?"
grep -q compare "$out/help.txt" || fail "msprobe --help does not list compare"
"$prefix/bin/msprobe" compare -tp "$samples/problem" -gp "$samples/bench" -o "$out/compare" --json --no-progress \
    > /dev/null || fail "msprobe compare on the installed sample exited $?"
grep -q '"first_divergence"' "$out"/compare/compare_verdict_*.json || fail "msprobe compare --json wrote no first_divergence"
QT_QPA_PLATFORM=offscreen "$prefix/bin/msprobe-studio" --export "$out/verdict.json" "$samples/problem" "$samples/bench" \
    || fail "msprobe-studio --export on the installed sample exited $?"
grep -q '"first_divergence"' "$out/verdict.json" || fail "msprobe-studio --export wrote no verdict"
QT_QPA_PLATFORM=offscreen "$prefix/bin/msprobe-studio" --export "$out/graph.png" "$samples/problem" "$samples/bench" \
    || fail "msprobe-studio --export (png) on the installed sample exited $?"
[ -s "$out/graph.png" ] || fail "msprobe-studio --export wrote an empty picture"
echo "package check: the installed msprobe and msprobe-studio run on the installed sample pair"
