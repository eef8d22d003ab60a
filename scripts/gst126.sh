#!/bin/bash
# The CPU suite against GStreamer 1.26 (Debian 13's packages), beside the
# 1.22 of run-tests.sh: a Debian 13 chroot made with mmdebstrap from
# Debian's archive, the host's CUDA toolkit bind-mounted into it, the
# tracked files of this tree built there (-Dcuda-archs=90: the kernels do
# not depend on GStreamer; the C code and its headers do) and
# `meson test` run.  Needs root (chroot, mount) and the network, and the
# toolkit in /usr/local/cuda.  GST126_ROOT: where the chroot goes (kept and
# reused while it has GStreamer: delete it to start afresh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${GST126_ROOT:-/tmp/cudaimgproc-trixie}
pkgs="meson ninja-build pkg-config gcc g++ libc6-dev dpkg-dev libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad python3 python3-numpy python3-gi
  gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 valgrind"

if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "gst126: SKIP: no CUDA toolkit in /usr/local/cuda to mount into the" \
    "Debian 13 chroot"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "gst126: needs root (mmdebstrap, chroot, mount --bind)" >&2
  exit 1
fi
if ! command -v mmdebstrap > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends mmdebstrap > /dev/null
fi
if [ ! -x "$root/usr/bin/gst-inspect-1.0" ]; then
  rm -rf "$root"
  echo "gst126: making a Debian 13 chroot in $root"
  ok=0
  for try in 1 2 3; do
    if mmdebstrap --quiet --variant=apt --include="$(echo $pkgs | tr ' ' ,)" \
        trixie "$root" http://deb.debian.org/debian; then
      ok=1
      break
    fi
    echo "gst126: mmdebstrap failed (try $try of 3)" >&2
    rm -rf "$root"
    sleep 10
  done
  [ $ok -eq 1 ] || { echo "gst126: no Debian 13 chroot" >&2; exit 1; }
fi

# a fresh copy of the tree, the toolkit and /proc mounted
rm -rf "$root/src"
. scripts/chroot-src.sh

chroot "$root" /bin/bash -c '
  set -e
  cd /src
  export PATH=/usr/local/cuda/bin:$PATH
  echo "gst126: GStreamer $(pkg-config --modversion gstreamer-1.0)," \
    "gstreamer-cuda $(pkg-config --modversion gstreamer-cuda-1.0)," \
    "$(gcc --version | head -1)"
  meson setup build -Dcuda-archs=90 > build-setup.log ||
    { cat build-setup.log; exit 1; }
  ninja -C build > build.log || { tail -50 build.log; exit 1; }
  set +e
  meson test -C build --print-errorlogs > test.log 2>&1
  rc=$?
  grep -E "^ *[0-9]+/[0-9]+ " test.log
  [ $rc -eq 0 ] || cat test.log
  echo "gst126: $(grep -c " OK " test.log) passed," \
    "$(grep -cE " (FAIL|TIMEOUT) " test.log) failed," \
    "$(grep -c " SKIP " test.log) skipped (GStreamer 1.26)"
  exit $rc
'
