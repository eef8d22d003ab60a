#!/bin/sh
# A photograph through cudagray, cudasmooth, cudaotsu and cudathin into a
# PNG of its skeleton: Otsu's threshold after Gaussian filtering (OpenCV's
# own recipe), so that noise does not become blobs and spurs.  The frame
# stays on the GPU between all four elements (checked in gst-launch -v's
# log).  With a third argument, the smoothed frame alone with that
# method's settings ("method=median ksize=5"), for before/after pictures.
# Usage: pipelines/smooth.sh [input.png] [output.png] ["cudasmooth props"]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-$here/data/astronaut.png}
out=${2:-$here/out/astronaut-smooth-thin.png}
log=${out%.*}.log
mkdir -p "$(dirname "$out")"
if [ -n "${3:-}" ]; then
  # shellcheck disable=SC2086
  launch "$log" filesrc location="$in" ! pngdec ! cudagray ! cudasmooth $3 \
    ! video/x-raw,format=GRAY8 ! pngenc ! filesink location="$out"
  on_gpu "$log" cudagray0
else
  launch "$log" filesrc location="$in" ! pngdec ! cudagray \
    ! cudasmooth method=gaussian ksize=5 ! cudaotsu ! cudathin \
    ! video/x-raw,format=GRAY8 ! pngenc ! filesink location="$out"
  on_gpu "$log" cudagray0 cudasmooth0 cudaotsu0
fi
echo "wrote $out"
