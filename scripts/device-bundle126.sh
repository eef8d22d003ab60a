#!/bin/bash
# The GPU suite's programs against GStreamer 1.26, for the lent GPU host:
# built in scripts/gst126.sh's Debian 13 chroot (sm_90) and packed with
# that chroot's GStreamer and every library they load, its C library and
# loader included (Debian 13's glibc is 2.41; the GPU host's is older, and
# its libmount too old for Debian 13's libgio).  So nothing of it runs by
# the host's loader: each program is a wrapper that starts the bundled
# ld.so with the bundle's folders (then the driver's, for libcuda), and
# GStreamer scans plugins in the process (GST_REGISTRY_FORK=no: its
# scanner would start under the host's loader).
#   scripts/device-bundle126.sh      (root; after scripts/gst126.sh)
# makes .gpu-bundle126 and devrun126.txz; carry both and run
#   tar xJf devrun126.txz && GPU_BUNDLE=.gpu-bundle126 BUILD_DIR=devrun126 \
#     ONLY='memcheck|racecheck|synccheck' SKIP_BENCH=1 bash tests/gpu-suite.sh
# RUN126_CHECK=1: afterwards, run test_reference and the no-GPU
# test_elements here, outside the chroot, by the bundle's loader (a host
# whose glibc is older than the chroot's: the mechanism, without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${GST126_ROOT:-/tmp/cudaimgproc-trixie}
if [ ! -x "$root/usr/bin/gst-inspect-1.0" ]; then
  echo "device-bundle126: no Debian 13 chroot in $root (scripts/gst126.sh" \
    "makes it; GST126_ROOT names another)" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "device-bundle126: needs root (chroot, mount --bind)" >&2
  exit 1
fi
# the tracked files over the chroot's copy: its build dir stays, so a
# second run builds only what changed
. scripts/chroot-src.sh
chroot "$root" /bin/bash -c '
  set -e
  cd /src
  export PATH=/usr/local/cuda/bin:$PATH
  [ -f build/build.ninja ] ||
    meson setup build -Dcuda-archs=90 > build-setup.log
  ninja -C build > build.log || { tail -50 build.log; exit 1; }
'
b=$root/src/build
sys=$root/usr/lib/x86_64-linux-gnu
bundle=.gpu-bundle126
rm -rf devrun126 "$bundle"
mkdir -p devrun126/tests/bin devrun126/gst "$bundle/lib" "$bundle/plugins"
# the programs the sanitizer passes run, each behind its wrapper
find "$b/tests" -maxdepth 1 -type f -perm -u+x -name 'test_*' \
  -exec cp {} devrun126/tests/bin/ \;
cp "$b/gst/libgstcudaimgproc.so" devrun126/gst/
strip --strip-debug devrun126/tests/bin/* devrun126/gst/*
for t in devrun126/tests/bin/*; do
  cat > "devrun126/tests/$(basename "$t")" << 'WRAP'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../.gpu-bundle126/run" "$here/bin/$(basename "$0")" "$@"
WRAP
  chmod +x "devrun126/tests/$(basename "$t")"
done
# the plugins a test pipeline may use, as gpu-bundle's list
plugins="coreelements videotestsrc videoconvertscale app videorate nvcodec
  debug imagefreeze png multifile pnm rawparse videofilter videocrop isomp4
  matroska videoparsersbad compositor overlaycomposition"
for p in $plugins; do
  if [ -f "$sys/gstreamer-1.0/libgst$p.so" ]; then
    cp "$sys/gstreamer-1.0/libgst$p.so" "$bundle/plugins/"
  fi
done
# every library any of it needs, as the chroot resolves them (the real
# files: its links are absolute, and would lead out of it), the C library
# and loader included; not the driver's (the host's, found by path)
chroot "$root" /usr/bin/env PLUGINS="$plugins" /bin/bash -c '
  cd /src
  for f in build/tests/test_* build/gst/libgstcudaimgproc.so; do
    ldd "$f"
  done
  for p in $PLUGINS; do
    f=/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgst$p.so
    if [ -f "$f" ]; then ldd "$f"; fi
  done' 2> /dev/null |
  awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' | sort -u |
  while read -r lib; do chroot "$root" readlink -f "$lib"; done | sort -u |
  while read -r lib; do
    case $(basename "$lib") in
      libcuda.so*|libnvidia*|libnvcuvid*) ;;
      *) cp -n "$root$lib" "$bundle/lib/" ;;
    esac
  done
# each library also under the name programs ask for (its soname)
for f in "$bundle"/lib/*; do
  so=$(objdump -p "$f" 2> /dev/null | awk '/SONAME/{print $2}')
  [ -n "$so" ] && [ "$so" != "$(basename "$f")" ] &&
    ln -sf "$(basename "$f")" "$bundle/lib/$so"
done
[ -e "$bundle/lib/ld-linux-x86-64.so.2" ] || {
  echo "device-bundle126: no loader found" >&2; exit 1; }
cat > "$bundle/run" << 'RUN'
#!/bin/sh
# PROGRAM ARGS...: by the bundle's loader and libraries, then the
# driver's (libcuda, and nvcodec's libnvcuvid), never the host's C library
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/lib/ld-linux-x86-64.so.2" --library-path \
  "$here/lib:/usr/local/nvidia/lib64:/usr/lib/x86_64-linux-gnu:/usr/lib64" \
  "$@"
RUN
chmod +x "$bundle/run"
cat > "$bundle/env.sh" << 'ENV'
# sourced by tests/gpu-suite.sh (GPU_BUNDLE=.gpu-bundle126): GStreamer 1.26
# from this folder; no LD_LIBRARY_PATH (the host's programs keep their own
# C library), no scanner process
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export GST_PLUGIN_SYSTEM_PATH="$here/plugins" GST_REGISTRY_FORK=no
export GST_REGISTRY="${TMPDIR:-/tmp}/gpu-bundle126-registry.bin"
unset GST_PLUGIN_SCANNER
ENV
tar cf - devrun126 | xz -9 > devrun126.txz
du -shc "$bundle" devrun126.txz
if [ -n "${RUN126_CHECK:-}" ]; then
  . "$bundle/env.sh"
  export GST_PLUGIN_PATH="$PWD/devrun126/gst"
  devrun126/tests/test_reference tests/data/otsu_golden.txt \
    tests/data/sobel_golden.txt tests/data/thin_golden.txt \
    tests/data/smooth_golden.txt | tail -2
  CUDA_VISIBLE_DEVICES= GST_REGISTRY=/tmp/nogpu126-registry.bin \
    devrun126/tests/test_elements | tail -2
fi
