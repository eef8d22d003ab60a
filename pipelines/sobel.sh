#!/bin/sh
# A photograph through cudagray and cudasobel into a PNG of its edges.  The
# frame stays on the GPU between the two elements (checked in gst-launch
# -v's log).
# Usage: pipelines/sobel.sh [input.png] [output.png]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-sobel.png}
log=${out%.*}.log
mkdir -p "$(dirname "$out")"
launch "$log" filesrc location="$in" ! pngdec ! cudagray ! cudasobel \
  ! video/x-raw,format=GRAY8 ! pngenc ! filesink location="$out"
on_gpu "$log" cudagray0
echo "wrote $out"
