#!/bin/sh
# A PNG photograph through cudagray into a PNG a person can open.
# Usage: pipelines/image.sh [input.png] [output.png]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-gray.png}
mkdir -p "$(dirname "$out")"
gst-launch-1.0 -q filesrc location="$in" ! pngdec ! cudagray \
  ! video/x-raw,format=GRAY8 ! pngenc ! filesink location="$out"
echo "wrote $out"
