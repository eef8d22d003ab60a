#!/bin/sh
# The result painted over the picture it came from: a photograph teed to
# cudaoverlay and to a segmentation chain, whose GRAY8 output comes back as
# the mask, into a PNG.  The chain stays on the GPU up to the mask pad
# (checked in gst-launch -v's log); cudaoverlay downloads for pngenc.
# Usage: pipelines/overlay.sh [input.png] [output.png] [what]
#   what: skeleton (cudaotsu ! cudathin, red, opaque; the default),
#         edges (cudasobel, strength as alpha), segments (cudakmeans
#         labels, half transparent)
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-overlay.png}
what=${3:-skeleton}
log=${out%.*}.log
mkdir -p "$(dirname "$out")"
case $what in
  skeleton)
    chain="cudagray ! cudaotsu ! cudathin name=last"
    paint="mode=mask color=0xff0000 alpha=1.0"
    gpu="cudagray0 cudaotsu0 last";;
  edges)
    chain="cudagray ! cudasobel name=last"
    paint="mode=alpha color=0x00ff00 alpha=1.0"
    gpu="cudagray0 last";;
  segments)
    chain="cudakmeans k=6 output=labels name=last"
    paint="mode=labels alpha=0.5"
    gpu="last";;
  *)
    echo "usage: $0 [input.png] [output.png] [skeleton|edges|segments]" >&2
    exit 2;;
esac
# shellcheck disable=SC2086 # $chain and $paint are element lists
launch "$log" filesrc location="$in" ! pngdec ! videoconvert \
  ! video/x-raw,format=RGBA ! tee name=t \
  t. ! queue ! $chain ! o.mask \
  t. ! queue ! cudaoverlay name=o $paint ! video/x-raw,format=RGBA \
  ! pngenc ! filesink location="$out"
# shellcheck disable=SC2086
on_gpu "$log" $gpu
echo "wrote $out"
