#!/bin/sh
# A photograph through cudagray and cudaotsu, with the threshold posted as a
# message, into a PNG.  The frame stays on the GPU between the two elements
# (checked in gst-launch -v's log).
# Usage: pipelines/otsu.sh [input.png] [output.png]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-otsu.png}
log=${out%.*}.log
mkdir -p "$(dirname "$out")"
launch "$log" filesrc location="$in" ! pngdec ! cudagray \
  ! cudaotsu post-messages=true ! video/x-raw,format=GRAY8 ! pngenc \
  ! filesink location="$out"
grep -o 'cudaotsu, threshold=(uint)[0-9]*' "$log" || true
on_gpu "$log" cudagray0
echo "wrote $out"
