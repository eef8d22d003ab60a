#!/bin/sh
# Builds for the lent GPU host only (sm_90, small binaries) in build-dev,
# copies what the suite and the benchmark run into devrun/{tests,bench,gst}
# (host debug info stripped: a run carries at most 64 MiB, and build-dev's
# object files would not fit) and packs the GStreamer runtime into
# .gpu-bundle, and devrun into devrun.txz (devrun itself outgrew a run's
# 64 MiB; gzipped it was a third, and with cudakmeans' kernels for k = 4,
# 8 and 16 gzip no longer fitted beside the bundle; xz makes it a tenth).
# Then carry [".gpu-bundle", "devrun.txz"] and run
#   tar xJf devrun.txz && BUILD_DIR=devrun bash tests/gpu-suite.sh
set -e
cd "$(dirname "$0")/.."
[ -d build-dev ] || meson setup build-dev -Dcuda-archs=90 > /dev/null
ninja -C build-dev > /dev/null
rm -rf devrun
mkdir -p devrun/tests devrun/bench devrun/gst devrun/examples devrun/tools
find build-dev/tests -maxdepth 1 -type f -perm -u+x -exec cp {} devrun/tests/ \;
find build-dev/bench -maxdepth 1 -type f -perm -u+x -exec cp {} devrun/bench/ \;
cp build-dev/gst/libgstcudaimgproc.so devrun/gst/
cp build-dev/examples/cudaimgproc-skeleton build-dev/examples/cudaimgproc-multicam \
  devrun/examples/
cp build-dev/tools/cudaimgproc-thin3d devrun/tools/
# BASE_PLUGIN=FILE: a plugin built from an earlier commit, as devrun/base,
# for the A/B runs (scripts/device-streams-bench.sh BASE=devrun/base)
if [ -n "${BASE_PLUGIN:-}" ]; then
  mkdir -p devrun/base && cp "$BASE_PLUGIN" devrun/base/
fi
# BASE_BENCH=FILE: cudaimgproc-bench built from another commit or branch,
# as devrun/base/cudaimgproc-bench, to time kernels A/B in one call (the
# kernels are linked into it; its libraries are this one's)
if [ -n "${BASE_BENCH:-}" ]; then
  mkdir -p devrun/base && cp "$BASE_BENCH" devrun/base/cudaimgproc-bench
fi
# the CUPTI tracer's library beside it (its rpath is $ORIGIN)
if [ -f devrun/bench/libcudaimgproc-cuptitrace.so ]; then
  cp -L "$(ldd devrun/bench/libcudaimgproc-cuptitrace.so |
    awk '/libcupti/{print $3}')" devrun/bench/
fi
strip --strip-debug devrun/tests/* devrun/bench/* devrun/gst/* devrun/examples/* \
  devrun/tools/* devrun/base/* 2> /dev/null || true
rm -rf .gpu-bundle
../shared/tools/gpu-bundle .gpu-bundle devrun/gst/libgstcudaimgproc.so \
  devrun/tests/* devrun/bench/* devrun/examples/* devrun/tools/* > /dev/null
rm -rf .gpu-bundle/extra/*      # copies of the binaries: not needed
# What pipelines/preview.sh needs beyond gpu-bundle's list: decodebin and
# typefinding, a software H.264 codec for its test clip, V4L2 (a camera's
# absence is reported, not crashed on)
sys=/usr/lib/$(gcc -print-multiarch)
for p in playback typefindfunctions openh264 video4linux2; do
  cp -L "$sys/gstreamer-1.0/libgst$p.so" .gpu-bundle/plugins/ ||
    echo "device-bundle: no plugin $p (skipped)" >&2
done
# Every library all of it needs but the C runtime.  gpu-bundle's pattern
# for the runtime (^libc, ^libm, ...) also leaves out libmount, libcap,
# libcrypto and more, and the host's may be too old: Debian 13's libgio
# needs libmount 2.40, the GPU host has 2.39.
find .gpu-bundle -type f \( -name '*.so*' -o -perm -u+x \) -print0 |
  xargs -0 ldd 2> /dev/null | awk '/=> \//{print $3}' | sort -u |
  while read -r lib; do
    case $(basename "$lib") in
      libc.so*|libm.so*|libmvec.so*|libdl.so*|libpthread.so*|librt.so*|\
      ld-linux*|libstdc++*|libgcc_s*|libcuda*|libnvidia*) ;;
      *) cp -Ln "$lib" .gpu-bundle/lib/ ;;
    esac
  done
rm -f devrun.tgz
# xz -9 in one block: its dictionary spans the binaries' copies of the
# kernels (a tenth of devrun; gzip, a third)
tar cf - devrun | xz -9 > devrun.txz
du -shc .gpu-bundle devrun.txz
