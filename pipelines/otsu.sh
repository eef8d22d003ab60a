#!/bin/sh
# A photograph through cudagray and cudaotsu, with the threshold posted as a
# message (gst-launch -m prints it), into a PNG.
# Usage: pipelines/otsu.sh [input.png] [output.png]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-otsu.png}
mkdir -p "$(dirname "$out")"
gst-launch-1.0 -m filesrc location="$in" ! pngdec ! cudagray \
  ! cudaotsu post-messages=true ! video/x-raw,format=GRAY8 ! pngenc \
  ! filesink location="$out" | grep -o 'cudaotsu, threshold=(uint)[0-9]*' || true
echo "wrote $out"
