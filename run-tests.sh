#!/bin/bash
# Installs and builds what is missing, then runs the test suite.  GPU tests
# skip, saying why, where no CUDA device exists.
set -e
cd "$(dirname "$0")"
scripts/build.sh
set +e
meson test -C build --print-errorlogs
rc=$?
python3 - <<'PY'
import json
res = [json.loads(l) for l in open("build/meson-logs/testlog.json")]
count = lambda r: sum(1 for t in res if t["result"] == r)
for t in res:
    if t["result"] == "SKIP":
        why = [l for l in t.get("stdout", "").splitlines() if "SKIP" in l]
        print(f"skipped {t['name']}: {why[0] if why else 'no reason given'}")
print(f"tests: {count('OK')} passed, {count('FAIL') + count('TIMEOUT')} failed, "
      f"{count('SKIP')} skipped")
PY
exit $rc
