#!/bin/bash
# The host code (common/, gst/, tools/, the tests) built with ASan and
# UBSan in build-asan, and the CPU suite run on it: a memory error, a leak
# of ours or undefined behaviour fails it.  The kernels are built for one
# architecture (they are not instrumented; the CPU suite never runs them).
# Valgrind's runs skip here (it cannot run instrumented code).  GStreamer's
# own tools (gst-plugin-scanner, gst-inspect, gst-launch) load the plugin,
# so ASan's runtime is preloaded into every process of the suite.
#   scripts/sanitize.sh          (after scripts/deps.sh, as CI runs it)
set -e
cd "$(dirname "$0")/.."
. scripts/deps.sh > /dev/null
[ -f build-asan/build.ninja ] ||
  meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false \
    -Dcuda-archs=90 > /dev/null
ninja -C build-asan > /dev/null
asan=$(gcc -print-file-name=libasan.so)
set +e
# Leaks: GStreamer and GLib keep their registries and type system for the
# process's life, which LeakSanitizer reports from every test; the
# element tests check our leaks themselves (gst_check's refcounts, and
# valgrind in the plain build).  CUDA needs the shadow gap unprotected.
LD_PRELOAD=$asan CUDAIMGPROC_SANITIZED=1 \
  ASAN_OPTIONS=detect_leaks=0:protect_shadow_gap=0:abort_on_error=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --no-rebuild --print-errorlogs
rc=$?
python3 - <<'PY'
import json
res = [json.loads(l) for l in open("build-asan/meson-logs/testlog.json")]
count = lambda r: sum(1 for t in res if t["result"] == r)
print(f"sanitize: {count('OK')} passed, {count('FAIL') + count('TIMEOUT')} "
      f"failed, {count('SKIP')} skipped (ASan + UBSan)")
PY
exit $rc
