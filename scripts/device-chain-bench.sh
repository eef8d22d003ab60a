#!/bin/bash
# The chain benchmark of issue 23 in one device call: the pipeline
# `cudagray ! cudaotsu ! cudasobel` with the kernels replayed as CUDA graphs
# (the default) and launched directly (CUDAIMGPROC_NO_GRAPHS=1), taken in
# turns, beside the three kernels' own GPU time from the same run (the
# "× its kernels" yardstick) and the host cost of each CUDA call.  Made by
# scripts/device-bundle.sh; run as
#   bash scripts/device-chain-bench.sh   (carry .gpu-bundle, devrun.txz)
# $OUT gets summary.txt, launch.txt and chain.tgz (every JSON record and
# log: a call brings back at most 8 files).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
[ -d devrun ] || tar xJf devrun.txz
out=${OUT:-$root/out}
mkdir -p "$out" out
. .gpu-bundle/env.sh
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/nvidia/lib64
export GST_PLUGIN_PATH_1_0=$root/devrun/gst GST_REGISTRY=/tmp/chain-registry.bin
chain="cudagray ! cudaotsu ! cudasobel"
photo="--photo out/astronaut.rgb 512 512"
nvidia-smi -L
gst-launch-1.0 -q filesrc location=data/astronaut.png ! pngdec ! \
  videoconvert ! video/x-raw,format=RGB ! filesink location=out/astronaut.rgb
timeout 60 devrun/bench/cudaimgproc-launch-bench | tee "$out/launch.txt"
timeout 150 devrun/bench/cudaimgproc-bench $photo --only "gray otsu sobel" \
  --json "$out/kernels.json" > "$out/kernels.txt" 2>&1
echo "kernels: rc $?"
# BASE=DIR: a plugin built from an earlier commit, run as a third mode
# (BASE2=DIR: another, as mode base2)
# MODES: which of them (default: graphs and direct, and base with BASE);
# PIPE_ARGS: more options for the pipeline benchmark (--memory gpu: only
# the GPU-frame rows, which are all the summary uses)
modes=${MODES:-graphs direct}
[ -n "${BASE:-}" ] && [ -z "${MODES:-}" ] && modes="$modes base"
for round in ${ROUNDS:-1 2 3}; do
  for mode in $modes; do
    unset CUDAIMGPROC_NO_GRAPHS
    plugins=$root/devrun/gst
    [ $mode = direct ] && export CUDAIMGPROC_NO_GRAPHS=1
    [ $mode = base ] && plugins=$BASE
    [ $mode = base2 ] && plugins=$BASE2
    GST_PLUGIN_PATH_1_0=$plugins GST_REGISTRY=/tmp/chain-$mode.bin \
      timeout 120 devrun/bench/cudaimgproc-pipeline-bench $photo \
      --only "$chain" ${PIPE_ARGS:-} --json "$out/pipe-$mode-$round.json" \
      > "$out/pipe-$mode-$round.txt" 2>&1
    echo "pipeline $mode round $round: rc $?"
  done
done
unset CUDAIMGPROC_NO_GRAPHS
# how often each element replayed a graph, captured one, or gave up
GST_DEBUG=cudaimgfilter:5 timeout 120 devrun/bench/cudaimgproc-pipeline-bench \
  $photo --only "$chain" --size 1920x1080 2>&1 |
  grep -a "graphs replayed" | sed 's/.*cudaimgfilter[^<]*//' | sort |
  uniq -c | sort -rn | head -20 > "$out/replay-stats.txt"
python3 - "$out" "$chain" << 'PY'
import glob, json, statistics, sys
out, chain = sys.argv[1], sys.argv[2]
def recs(path):
    return [json.loads(l) for l in open(path)]
kern = {}
for r in recs(out + "/kernels.json"):
    if r.get("kind") == "kernel" and r.get("who") == "ours":
        kern[(r["op"], r["w"], r["h"])] = r["us"]
names = ("cudagray RGBA", "cudaotsu photo", "cudasobel 3x3")
lines = []
for w, h in ((1920, 1080), (3840, 2160)):
    ks = [kern.get((n, w, h)) for n in names]
    ksum = sum(ks) if None not in ks else None
    for mode in ("graphs", "direct", "base", "base2"):
        us, lat, nks = [], [], []
        for f in sorted(glob.glob(f"{out}/pipe-{mode}-*.json")):
            for r in recs(f):
                if (r.get("kind") == "pipeline" and r.get("name") == chain and
                        r["w"] == w and r["h"] == h and r["memory"] == "gpu"):
                    us.append(r["us"])
                    lat.append(r.get("latency_median_us"))
                    nks.append(r.get("no_kernels_us", 0))
        if not us:
            continue
        m = statistics.median(us)
        nk = statistics.median(nks)
        lines.append(f"{w}x{h} {mode}: us/frame {sorted(us)} median {m:.1f}"
                     f"; latency {lat}; without kernels {nk:.1f}"
                     f"; kernels {ks} sum {ksum}"
                     + (f"; x kernels {m / ksum:.3f}" if ksum else ""))
open(out + "/summary.txt", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
tar czf "$root/chain.tgz" -C "$out" . && mv "$root/chain.tgz" "$out/" &&
  (cd "$out" && rm -f pipe-* kernels.* replay-stats.txt)
