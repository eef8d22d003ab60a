#!/bin/sh
# A stack of PNG slices through cudagray, cudaotsu and cudathin3d: the curve
# skeleton of the volume, one PNG per slice, with the rounds and voxels
# left (posted as a message).  Without a folder, makes a test stack first:
# a noisy trefoil-knot tube, 96 x 96 x 64.  One threshold for the whole
# volume (cudaotsu mode=fixed): Otsu's per-slice choice would split the
# noise of slices the tube barely crosses.  Frames stay on the GPU between
# the three elements (checked in gst-launch -v's log).
# Usage: pipelines/thin3d.sh [slices-folder] [output-folder] [threshold]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/pipelines/lib.sh"
in=${1:-}
out=${2:-$here/out/thin3d}
threshold=${3:-120}
objects=
mkdir -p "$out"
rm -f "$out"/skeleton*.png
if [ -z "$in" ]; then
  in=$here/out/thin3d-slices
  mkdir -p "$in"
  rm -f "$in"/slice*.png
  objects=$(python3 - "$in/stack.rgb" <<'PY'
import sys
import numpy as np
w = h = 96
d = 64
z, y, x = np.mgrid[0:d, 0:h, 0:w].astype(np.float32)
vol = np.zeros((d, h, w), bool)
for t in np.linspace(0, 2 * np.pi, 1500, endpoint=False):
    cx = 47.5 + 12 * (np.sin(t) + 2 * np.sin(2 * t))
    cy = 47.5 + 12 * (np.cos(t) - 2 * np.cos(2 * t))
    cz = 31.5 - 12 * np.sin(3 * t)
    vol |= (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2 <= 36
rng = np.random.default_rng(1)
grey = np.where(vol, 190, 50) + rng.integers(-30, 31, vol.shape)
rgb = np.repeat(grey.clip(0, 255).astype(np.uint8)[..., None], 3, axis=3)
rgb.tofile(sys.argv[1])
print(vol.sum())
PY
)
  echo "test stack: $objects object voxels"
  gst-launch-1.0 -q filesrc location="$in/stack.rgb" \
    ! rawvideoparse format=rgb width=96 height=96 framerate=10/1 \
    ! pngenc ! multifilesink location="$in/slice%03d.png"
  rm -f "$in/stack.rgb"
fi
log=$out/thin3d.log
launch "$log" multifilesrc location="$in/slice%03d.png" \
  caps=image/png,framerate=10/1 ! pngdec ! cudagray \
  ! cudaotsu mode=fixed threshold="$threshold" \
  ! cudathin3d post-messages=true ! pngenc ! multifilesink location="$out/skeleton%03d.png"
msg=$(grep -o 'cudathin3d, rounds=(uint)[0-9]*, converged=(boolean)[a-z]*,'\
' voxels=(guint64)[0-9]*, depth=(uint)[0-9]*' "$log")
echo "$msg"
left=$(echo "$msg" | sed 's/.*voxels=(guint64)\([0-9]*\).*/\1/')
# the test tube's skeleton: a closed curve, a few hundred voxels
if [ -n "$objects" ] &&
    { [ "$left" -lt 100 ] || [ "$left" -gt $((objects / 20)) ]; }; then
  echo "$left voxels left of $objects: not a curve skeleton" >&2
  exit 1
fi
n_in=$(ls "$in"/slice*.png | wc -l)
n_out=$(ls "$out"/skeleton*.png | wc -l)
[ "$n_in" -eq "$n_out" ] || { echo "$n_in slices in, $n_out out" >&2; exit 1; }
on_gpu "$log" cudagray0 cudaotsu0
echo "wrote $n_out skeleton slices to $out"
