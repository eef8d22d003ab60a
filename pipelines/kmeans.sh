#!/bin/sh
# A photograph through cudakmeans: each pixel replaced by the mean colour of
# its cluster, the centres posted as a message, into a PNG.
# Usage: pipelines/kmeans.sh [input.png] [output.png] [k]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-kmeans.png}
k=${3:-6}
log=${out%.*}.log
mkdir -p "$(dirname "$out")"
launch "$log" filesrc location="$in" ! pngdec ! videoconvert \
  ! video/x-raw,format=RGB ! cudakmeans k="$k" post-messages=true \
  ! video/x-raw,format=RGB ! pngenc ! filesink location="$out"
grep -o 'cudakmeans, iterations=(uint)[0-9]*' "$log" | head -1 || true
echo "wrote $out"
