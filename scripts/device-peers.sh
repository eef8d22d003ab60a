#!/bin/bash
# The GPU peers (bench/gpu_peers.py: CV-CUDA, cuCIM, CuPy) and our kernels
# on the same operations, in one device call, on the GPU host from the
# repository root.  Carry (scripts/cvcuda-parts.sh with ARCH=90 makes the
# first two; the cuCIM wheel and its two small needs as docs/gpu-host.md
# says):
#   .whl/cvcuda/libcvcuda-*-sm90.xz .whl/cvcuda/cvcuda-py.tar.xz
#   .whl/cucim_cu13-*.whl .whl/extra .whl/cudaimgproc-bench.xz
# the last made here by scripts/device-bundle.sh and
#   xz -9 -c devrun/bench/cudaimgproc-bench > .whl/cudaimgproc-bench.xz
# (about 64 MB with the tree: under a call's 64 MiB; leave cuCIM out for
# room).  Writes $OUT/peers.md (the table between
# its markers, with ours beside each peer) and $OUT/peers.json.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out" /tmp/py /tmp/cvcuda
python3 -m pip install -q --no-index --no-deps --target /tmp/py \
  .whl/cucim_cu13-*.whl .whl/extra/*.whl ||
  echo "device-peers: cuCIM not installed (its row will say so)" >&2
# the library is named as in the wheel, which the module links by name
kept=$(ls .whl/cvcuda/libcvcuda-*-sm90.xz 2> /dev/null | head -1)
if [ -n "$kept" ]; then
  tar xf .whl/cvcuda/cvcuda-py.tar.xz -C /tmp/cvcuda &&
    xz -dc "$kept" > "/tmp/cvcuda/cvcuda_cu13.libs/$(basename "$kept" -sm90.xz)" ||
    echo "device-peers: CV-CUDA not unpacked (its row will say so)" >&2
fi
export PYTHONPATH=/tmp/py:/tmp/cvcuda${PYTHONPATH:+:$PYTHONPATH}
python3 -c "
import cv2, numpy as np
im = cv2.imread('data/astronaut.png')[:, :, ::-1]
np.ascontiguousarray(im).tofile('/tmp/astronaut.rgb')" || exit 1
bench=devrun/bench/cudaimgproc-bench
if [ ! -x "$bench" ] && [ -f .whl/cudaimgproc-bench.xz ]; then
  xz -dc .whl/cudaimgproc-bench.xz > /tmp/cudaimgproc-bench &&
    chmod +x /tmp/cudaimgproc-bench && bench=/tmp/cudaimgproc-bench
fi
# ours on the photograph, the operations the peers share
timeout 240 "$bench" --photo /tmp/astronaut.rgb 512 512 \
  --only gray,otsu,sobel,smooth,histogram,blobs,thin --repeats 15 --batch 5 \
  --json /tmp/ours.json > "$out/ours.md" 2>&1 ||
  echo "device-peers: our benchmark failed or timed out (ours column partial)" >&2
BENCH_JSON=$out/peers.json timeout "${PEERS_TIMEOUT:-300}" \
  python3 bench/gpu_peers.py /tmp/astronaut.rgb 512 512 --ours /tmp/ours.json \
  > "$out/peers.md" 2> "$out/peers.err"
rc=$?
tail -3 "$out/peers.err" >&2
cat "$out/peers.md"
exit $rc
