#!/bin/bash
# CV-CUDA for the GPU host (issue 63's peers), which reaches no package
# registry and takes at most 64 MiB a call: its wheel is 128 MB, nearly all
# one shared library (187 MB, 112 MB under xz), so it goes in parts over
# calls to one warm machine: PART_MB (default 38) so that each call's
# carry, the working tree (8 MB) included, stays under 64 MiB: the first
# part with cuCIM's wheel (17 MB), the second alone, the last (31 MB) with
# the module (7 MB) and devrun.txz (17 MB) for cudaimgproc-bench.  Here,
# in the repository's root:
#   bash scripts/cvcuda-parts.sh            (makes .whl/cvcuda/part-*)
# then one call a part, each carrying that part alone (carry
# [".whl/cvcuda/part-aa"], ...) and keeping it on the machine:
#   mkdir -p /tmp/cvcuda && cp .whl/cvcuda/part-* /tmp/cvcuda/
# and, in the call that uses it (the machine still warm; the last part and
# the Python module carried with it):
#   cp .whl/cvcuda/part-* .whl/cvcuda/cvcuda-py.tar /tmp/cvcuda/ &&
#   cat /tmp/cvcuda/part-* | xz -d > /tmp/cvcuda/libcvcuda.so &&
#   tar xf /tmp/cvcuda/cvcuda-py.tar -C /tmp/cvcuda &&
#   ln -sf /tmp/cvcuda/libcvcuda.so /tmp/cvcuda/cvcuda_cu13.libs/$LIB &&
#   export PYTHONPATH=/tmp/cvcuda
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
rm -f .whl/cvcuda/part-*
xz -T0 -9 -c "$tmp/$lib" | split -b "${PART_MB:-38}M" - .whl/cvcuda/part-
ls -la .whl/cvcuda
echo "LIB=$(basename "$lib")"
