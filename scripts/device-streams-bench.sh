#!/bin/bash
# The many-streams benchmark (cudaimgproc-streams-bench: N pipelines in one
# process) in one device call, for this build's plugin and, to compare,
# others taken in turns: MODES (default "plugin"; "base" with BASE=DIR, a
# plugin built from an earlier commit; "spin0", this plugin with
# CUDAIMGPROC_SPIN_US=0: waits always sleep; "conn32", this plugin with
# CUDA_DEVICE_MAX_CONNECTIONS=32; VAR=VALUE, this plugin with that
# variable set).  RUNS: argument sets for the
# benchmark, separated by ';' (default: the report's grid, both chains,
# 1080p and 640x480, system and GPU frames, 1 to 256 streams).  PIPE=1
# also runs the single-stream rows of the pipeline benchmark (fps and
# latency of the sobel chain) in each mode.  PROF: argument sets (';')
# run once more under bench/hostprof.c (3 s timed, 2 s sampled), for
# bench/hostprof.py.  Made by scripts/device-bundle.sh; run as
#   bash scripts/device-streams-bench.sh   (carry .gpu-bundle, devrun.txz)
# $OUT gets summary.txt and streams.tgz: streams-MODE.md and .json,
# pipe-MODE.*, prof-K.PID (a call brings back at most 8 files).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
[ -d devrun ] || tar xJf devrun.txz
out=${OUT:-$root/out}
res=/tmp/streams-results
rm -rf "$res"
mkdir -p "$out" out "$res"
. .gpu-bundle/env.sh
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/nvidia/lib64
photo="--photo out/astronaut.rgb 512 512"
nvidia-smi -L
nvidia-smi --query-gpu=name,pcie.link.gen.current,pcie.link.width.current \
  --format=csv,noheader
nproc
gst-launch-1.0 -q filesrc location=data/astronaut.png ! pngdec ! \
  videoconvert ! video/x-raw,format=RGB ! filesink location=out/astronaut.rgb
# what came so far, after each run: a call cut short by its limit still
# brings back the runs it finished
save() {
  for f in "$res"/streams-*.md "$res"/pipe-*.md "$res"/prof-*.md; do
    [ -f "$f" ] && { echo "== $(basename "$f")"; grep -v '^<!--' "$f"; }
  done > "$out/summary.txt"
  tar czf "$out/streams.tgz" -C "$res" .
}
default_runs="--size 1920x1080 --memory system;--size 1920x1080 --memory gpu"
default_runs="$default_runs;--size 640x480 --memory system"
default_runs="$default_runs;--size 640x480 --memory gpu"
IFS=';' read -r -a runs <<< "${RUNS:-$default_runs}"
setvar=
for mode in ${MODES:-plugin}; do
  plugins=$root/devrun/gst
  unset CUDAIMGPROC_SPIN_US CUDA_DEVICE_MAX_CONNECTIONS $setvar
  setvar=
  case $mode in
    *=*) setvar=${mode%%=*}; export "${mode?}" ;;
    base) plugins=$BASE ;;
    spin0) export CUDAIMGPROC_SPIN_US=0 ;;
    # 32 hardware queues instead of the driver's 8: do hundreds of streams'
    # works share the GPU more evenly? (docs/notes/streams.md, fairness)
    conn32) export CUDA_DEVICE_MAX_CONNECTIONS=32 ;;
  esac
  export GST_PLUGIN_PATH_1_0=$plugins GST_REGISTRY=/tmp/streams-$mode.bin
  rm -f "$res/streams-$mode.json" "$res/streams-$mode.md"
  for args in "${runs[@]}"; do
    # shellcheck disable=SC2086
    timeout 400 devrun/bench/cudaimgproc-streams-bench $photo $args \
      --json "$res/streams-$mode.json" >> "$res/streams-$mode.md" 2>&1
    echo "streams $mode ($args): rc $?"
    save
  done
  if [ -n "${PIPE:-}" ]; then
    timeout 120 devrun/bench/cudaimgproc-pipeline-bench $photo \
      --only "cudagray ! cudaotsu ! cudasobel" --size 1920x1080 \
      --json "$res/pipe-$mode.json" > "$res/pipe-$mode.md" 2>&1
    echo "pipeline $mode: rc $?"
    save
  fi
done
unset CUDAIMGPROC_SPIN_US CUDA_DEVICE_MAX_CONNECTIONS $setvar
export GST_PLUGIN_PATH_1_0=$root/devrun/gst GST_REGISTRY=/tmp/streams-plugin.bin
IFS=';' read -r -a prof_runs <<< "${PROF:-}"
k=0
for args in "${prof_runs[@]}"; do
  k=$((k + 1))
  # shellcheck disable=SC2086
  HOSTPROF_OUT=$res/prof-$k HOSTPROF_EXE=streams-bench HOSTPROF_DELAY=4 \
    HOSTPROF_SECONDS=2 \
    LD_PRELOAD=$root/devrun/bench/libcudaimgproc-hostprof.so \
    timeout 120 devrun/bench/cudaimgproc-streams-bench $photo $args \
    --seconds 3 > "$res/prof-$k.md" 2>&1
  echo "profile $k ($args): rc $?"
  save
done
save
cat "$out/summary.txt"
