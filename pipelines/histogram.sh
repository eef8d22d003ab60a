#!/bin/sh
# A photograph's luma histogram as a picture (cudahistogram, 512 x 200,
# linear), beside the luma itself: cudagray scale=SCALE ! tee, one branch
# to cudahistogram, the other to a PNG.  With scale=0.6 the frame is
# darker and its histogram squeezed to the left (no level above 153).
# Usage: pipelines/histogram.sh [input.png] [output.png] [scale]
#   writes output.png (the histogram) and output-gray.png (the luma)
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-histogram.png}
scale=${3:-1.0}
log=${out%.*}.log
mkdir -p "$(dirname "$out")"
launch "$log" filesrc location="$in" ! pngdec ! cudagray scale="$scale" \
  ! tee name=t \
  t. ! queue ! cudahistogram width=512 height=200 post-messages=true \
  ! video/x-raw,format=GRAY8 ! pngenc ! filesink location="$out" \
  t. ! queue ! video/x-raw,format=GRAY8 ! pngenc \
  ! filesink location="${out%.*}-gray.png"
grep -c 'cudahistogram, timestamp' "$log" > /dev/null ||
  { echo "no cudahistogram message" >&2; exit 1; }
echo "wrote $out and ${out%.*}-gray.png"
