#!/bin/bash
# CV-CUDA for the GPU host (issue 63's peers), which reaches no package
# registry and takes at most 64 MiB a call: its wheel is 128 MB, nearly all
# one shared library (187 MB, 112 MB under xz, 109 MB of it device code
# for ten GPU architectures).
#
# One call: ARCH=90 (the lent H100/H200s) keeps that architecture's code
# alone (scripts/fatbin-keep.py zeroes the others' in place), and the
# library goes as one 26 MB file:
#   ARCH=90 bash scripts/cvcuda-parts.sh
# makes .whl/cvcuda/$LIB-sm90.xz and cvcuda-py.tar.xz, which
# scripts/device-peers.sh unpacks on the machine (docs/gpu-host.md).
#
# Without ARCH, the whole library in parts of PART_MB (default 38), one
# call a part to one warm machine (given back 30 s after a call): each
# call carries its part (cp .whl/cvcuda/part-* /tmp/cvcuda/), the last
# with the module, then
#   cat /tmp/cvcuda/part-* | xz -d > /tmp/cvcuda/libcvcuda.so &&
#   tar xf .whl/cvcuda/cvcuda-py.tar -C /tmp/cvcuda &&
#   ln -sf /tmp/cvcuda/libcvcuda.so /tmp/cvcuda/cvcuda_cu13.libs/$LIB
#
# ($LIB is the library's name in the wheel, printed below.)  The device's
# Python is 3.12: only that build of the module goes.
set -e
cd "$(dirname "$0")/.."
ver=${CVCUDA_VERSION:-0.19.0}
mkdir -p .whl/cvcuda
whl=$(ls .whl/cvcuda_cu13-"$ver"-*.whl 2> /dev/null | head -1)
if [ -z "$whl" ]; then
  python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux2014_x86_64 \
    --platform manylinux_2_17_x86_64 -d .whl "cvcuda-cu13==$ver"
  whl=$(ls .whl/cvcuda_cu13-"$ver"-*.whl | head -1)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unzip -q "$whl" -d "$tmp"
lib=$(cd "$tmp" && ls cvcuda_cu13.libs/libcvcuda-*.so.*)
# the module, its small libraries and metadata; the big library apart
(cd "$tmp" && tar cf - --exclude "$lib" --exclude 'cvcuda/_cvcuda.cpython-3[!1]*' \
  --exclude 'cvcuda/_cvcuda.cpython-31[!2]*' cvcuda cvcuda_cu13.libs) \
  > .whl/cvcuda/cvcuda-py.tar
if [ -n "${ARCH:-}" ]; then
  python3 scripts/fatbin-keep.py "$tmp/$lib" "$tmp/kept.so" "$ARCH"
  rm -f .whl/cvcuda/*-sm"$ARCH".xz
  xz -T0 -9 -c "$tmp/kept.so" > ".whl/cvcuda/$(basename "$lib")-sm$ARCH.xz"
  xz -T0 -9 -c .whl/cvcuda/cvcuda-py.tar > .whl/cvcuda/cvcuda-py.tar.xz
else
  rm -f .whl/cvcuda/part-*
  xz -T0 -9 -c "$tmp/$lib" | split -b "${PART_MB:-38}M" - .whl/cvcuda/part-
fi
ls -la .whl/cvcuda
echo "LIB=$(basename "$lib")"
