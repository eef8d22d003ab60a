#!/bin/sh
# A photograph through cudagray, cudaotsu and cudathin: the skeleton of its
# Otsu binarization, with the passes it took (posted as a message), into a
# PNG.  Frames stay on the GPU between the three elements (checked in
# gst-launch -v's log); only cudathin downloads.
# Usage: pipelines/thin.sh [input.png] [output.png] [method]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-thin.png}
method=${3:-hilditch}
log=${out%.*}.log
mkdir -p "$(dirname "$out")"
launch "$log" filesrc location="$in" ! pngdec ! cudagray ! cudaotsu \
  ! cudathin method="$method" post-messages=true ! video/x-raw,format=GRAY8 \
  ! pngenc ! filesink location="$out"
grep -o 'cudathin, passes=(uint)[0-9]*, converged=(boolean)[a-z]*' "$log" \
  || true
on_gpu "$log" cudagray0 cudaotsu0
echo "wrote $out"
