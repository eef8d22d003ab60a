#!/bin/sh
# A photograph through cudagray and cudasobel into a PNG of its edges.
# Usage: pipelines/sobel.sh [input.png] [output.png]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-sobel.png}
mkdir -p "$(dirname "$out")"
gst-launch-1.0 -q filesrc location="$in" ! pngdec ! cudagray ! cudasobel \
  ! video/x-raw,format=GRAY8 ! pngenc ! filesink location="$out"
echo "wrote $out"
