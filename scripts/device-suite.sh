#!/bin/bash
# The whole GPU suite in nine parallel groups on the lent GPU host, then
# gray-gpu, storm-gpu, streams-gpu and soak-gpu after them and alone (PARTS below: one call each where one call's 10 minutes
# are not enough for both): gray-gpu's test_out_of_memory fills the
# device's memory (another group's context or allocation then fails:
# memcheck and gray-gpu itself failed so on 2026-11-27, each passing
# alone), and the others read the device-wide GPU memory (another group's
# frames read as their growth).
# Made by scripts/device-bundle.sh; run as
#   bash scripts/device-suite.sh          (carry .gpu-bundle, devrun.txz)
# NOSOAK=1 leaves soak-gpu out.  SUITE_GROUPS="A M" runs those groups only (a
# call that reruns what an earlier one left); SUITE_GROUPS="X=REGEX Y=REGEX"
# runs groups of its own instead (the tests a fix touched).  Not GROUPS:
# bash sets that to the user's group ids, whatever the environment says.  PARTS=groups runs the parallel groups
# alone, PARTS=tail the tail alone: the whole suite took 533
# to more than 585 s on three H100s (2026-11-27), and the serial tail was
# what a slower host's limit cut, so two calls are the safe way to run
# it (both parts by default).  Each group's results.txt, output and
# logs.tgz come back packed as $OUT/<group>.tgz, gray-gpu's, storm-gpu's
# and soak-gpu's together as T.tgz (ten files: a call brings back at most
# 8, so give OUT a folder of the host's and pack it whole into the call's);
# prints the failures and one summary line.  A group is its name, the
# tests it runs (ONLY) and those it leaves to another (EXCEPT, - for
# none).  The compute-sanitizer runs are two groups of their own: with
# the pipelines (C) they took 498 s of a 575 s limit on an H100
# (2026-11-27, e3b6c82), racecheck-live 163 s of it.  memcheck-streams
# (S) runs beside the groups: under the sanitizer its memory is only
# reported, so the others' frames do not fail it, and in the tail it
# outlasted a call (400 s, 2026-11-29).  thin-gpu (B) is a group of its
# own: with thin3d, blobs, histogram, cli, overlay and oom its group took
# 392 s, the longest, on an H200 (2026-11-29; thin-gpu 299 s of it), and
# the soak after the groups was cut by the call's limit.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
[ -d devrun ] || tar xJf devrun.txz
out=${OUT:-$root/out}
groups=(
  A '^(reference|elements|transfer-gpu|chain-gpu|chain-hostword-gpu|transfer-onstream-gpu|chain-onstream-gpu|replay-gpu|otsu-gpu|sobel-gpu|live-gpu)$' -
  B '^thin-gpu$' -
  F '^(thin3d-gpu|blobs-gpu|histogram-gpu|cli-gpu|overlay-gpu|oom-gpu|smooth-gpu)$' -
  C 'inspect|pipeline|demo|opencv|example' -
  M 'memcheck|racecheck|synccheck' '^(racecheck-live|memcheck-streams)$'
  R '^racecheck-live$' -
  D '^(kmeans-gpu|renego-gpu|multigpu-gpu)$' -
  E '^kmeans-more-gpu$' -
  S '^memcheck-streams$' -
)
if [[ "${SUITE_GROUPS:-}" == *=* ]]; then
  custom=()
  for spec in $SUITE_GROUPS; do custom+=("${spec%%=*}" "${spec#*=}" -); done
  groups=("${custom[@]}")
  SUITE_GROUPS=
fi
parts=${PARTS:-groups tail}
case " $parts " in
  *" groups "* | *" tail "*) ;;
  *) echo "device-suite.sh: PARTS: groups, tail or both" >&2; exit 2;;
esac
rm -rf /tmp/o[A-Z] /tmp/o[A-Z].txt /tmp/onot.txt   # an earlier run's
files=$(git ls-files 2> /dev/null || find . -path ./.git -prune -o -type f -print)
[[ " $parts " == *" groups "* ]] || groups=()
for ((i = 0; i < ${#groups[@]}; i += 3)); do
  g=${groups[i]} re=${groups[i + 1]} ex=${groups[i + 2]}
  [ -n "${SUITE_GROUPS:-}" ] && [[ " $SUITE_GROUPS " != *" $g "* ]] && continue
  [ "$ex" = - ] && ex=
  rm -rf "/tmp/g$g" && mkdir -p "/tmp/g$g"
  tar cf - $files .gpu-bundle devrun 2> /dev/null | tar xf - -C "/tmp/g$g"
  (cd "/tmp/g$g" && OUT="/tmp/o$g" ONLY="$re" EXCEPT="$ex" SKIP_BENCH=1 \
    BUILD_DIR=devrun TEST_TIMEOUT=${TEST_TIMEOUT:-540} bash tests/gpu-suite.sh \
    > "/tmp/o$g.txt" 2>&1
   cp "/tmp/o$g.txt" "/tmp/o$g/"
   mkdir -p "$out" && tar czf "$out/$g.tgz" -C "/tmp/o$g" .) &
done
wait
if [[ " $parts " == *" tail "* ]]; then
  OUT=/tmp/oT ONLY='^(gray-gpu|storm-gpu|streams-gpu)$' SKIP_BENCH=1 BUILD_DIR=devrun \
    bash tests/gpu-suite.sh > /tmp/oT.txt 2>&1
  cp /tmp/oT.txt /tmp/oT/
  if [ -z "${NOSOAK:-}" ]; then
    # /tmp/oW, not /tmp/oS: that is group S's (memcheck-streams), whose
    # results.txt the soak's would overwrite
    OUT=/tmp/oW ONLY='^soak-gpu$' SKIP_BENCH=1 BUILD_DIR=devrun \
      bash tests/gpu-suite.sh > /tmp/oW.txt 2>&1
    cp /tmp/oW.txt /tmp/oW/ && cp -r /tmp/oW /tmp/oT/soak
  fi
  mkdir -p "$out" && tar czf "$out/T.tgz" -C /tmp/oT .
fi
# A test that every group left to another (a name no group's pattern
# takes) counts as failed: "not run".  soak-gpu is left out on purpose
# with NOSOAK; with one part only, the check is the other call's.
ran=$(cat /tmp/o?/results.txt 2> /dev/null | awk '{print $2}' | sort -u)
[ -n "${NOSOAK:-}" ] && ran=$(printf '%s\nsoak-gpu\n' "$ran" | sort -u)
if [ "$parts" = "groups tail" ]; then
  sort -u /tmp/o?/filtered.txt 2> /dev/null | comm -23 - <(echo "$ran") |
    sed 's/^/1 not run by any group: /' > /tmp/onot.txt
else
  echo "PARTS=$parts: tests of the other part not checked here" >&2
fi
cat /tmp/o?/results.txt /tmp/onot.txt 2> /dev/null | grep -v '^0 ' || true
cat /tmp/o?/results.txt /tmp/onot.txt 2> /dev/null | awk '
  $1 == 0 {p++} $1 == 77 {s++} $1 != 0 && $1 != 77 {f++}
  END {printf "%d passed, %d failed, %d skipped\n", p, f, s}'
