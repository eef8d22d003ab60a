#!/bin/sh
# Builds for the lent GPU host only (sm_90, small binaries) in build-dev and
# packs the GStreamer runtime with our plugin, tests and benchmark into
# .gpu-bundle.  Then carry [".gpu-bundle", "build-dev/tests",
# "build-dev/bench", "build-dev/gst"] (the whole build-dev is too big) and run
#   BUILD_DIR=build-dev bash tests/gpu-suite.sh
set -e
cd "$(dirname "$0")/.."
[ -d build-dev ] || meson setup build-dev -Dcuda-archs=90 > /dev/null
ninja -C build-dev > /dev/null
# host debug info is most of the size, and a run carries at most 64 MB
find build-dev/tests build-dev/bench build-dev/gst -maxdepth 1 -type f \
  \( -perm -u+x -o -name '*.so' \) -exec strip --strip-debug {} +
rm -rf .gpu-bundle
../shared/tools/gpu-bundle .gpu-bundle build-dev/gst/libgstcudaimgproc.so \
  $(find build-dev/tests build-dev/bench -maxdepth 1 -type f -perm -u+x) \
  > /dev/null
rm -rf .gpu-bundle/extra/*      # copies of the binaries: not needed
du -sh .gpu-bundle build-dev
