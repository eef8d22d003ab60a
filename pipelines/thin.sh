#!/bin/sh
# A photograph through cudagray, cudaotsu and cudathin: the skeleton of its
# Otsu binarization, with the passes it took (gst-launch -m prints the
# message), into a PNG.  Frames stay on the GPU between the three elements.
# Usage: pipelines/thin.sh [input.png] [output.png] [method]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-thin.png}
method=${3:-hilditch}
mkdir -p "$(dirname "$out")"
gst-launch-1.0 -m filesrc location="$in" ! pngdec ! cudagray ! cudaotsu \
  ! cudathin method="$method" post-messages=true ! video/x-raw,format=GRAY8 \
  ! pngenc ! filesink location="$out" \
  | grep -o 'cudathin, passes=(uint)[0-9]*, converged=(boolean)[a-z]*' || true
echo "wrote $out"
