#!/bin/bash
# The libFuzzer target of cudaimgproc-thin3d's input parsers
# (tools/fuzz_thin3d_io.c), built with clang, ASan and UBSan, run for
# SECONDS (default 60) from the seed corpus in tests/fuzz/thin3d_io.
# A crash fails the run; its input is left as crash-* in OUT (default a
# temporary folder, printed) to be added to the corpus once fixed.
#   tests/fuzz.sh [SECONDS] [OUT]
# Exits 77 (skipped) where clang cannot build a libFuzzer target.
set -u
if [ -n "${CUDAIMGPROC_SANITIZED:-}" ]; then
  echo "SKIP: the fuzzer runs once, in the plain build's suite"
  exit 77
fi
src=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=${2:-$(mktemp -d)}
cc=${CLANG:-clang}
mkdir -p "$out/corpus"
cp "$src"/tests/fuzz/thin3d_io/* "$out/corpus/"
if ! "$cc" -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=all -I"$src/tools" "$src/tools/fuzz_thin3d_io.c" \
    "$src/tools/thin3d_io.c" -o "$out/fuzz_thin3d_io" 2> "$out/build.log"; then
  echo "SKIP: $cc cannot build a libFuzzer target (install clang):"
  sed 's/^/    /' "$out/build.log" | head -5
  exit 77
fi
cd "$out" || exit 1
# clang's own sanitizer runtimes, not gcc's that scripts/sanitize.sh
# preloads into the rest of the suite
unset LD_PRELOAD ASAN_OPTIONS
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ./fuzz_thin3d_io -max_total_time="$secs" -print_final_stats=1 \
  -artifact_prefix="$out/" corpus > fuzz.log 2>&1
rc=$?
grep -E "^stat::number_of_executed_units|^stat::new_units_added|Done [0-9]+ runs" \
  fuzz.log
if [ $rc -ne 0 ] || ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* \
    > /dev/null 2>&1; then
  echo "FAIL: the fuzzer found an input that crashes (in $out):"
  grep -A20 "ERROR\|runtime error" fuzz.log | head -40
  exit 1
fi
echo "fuzz: no crash in $secs s"
[ -n "${2:-}" ] || rm -rf "$out"
