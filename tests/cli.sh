#!/bin/bash
# cudaimgproc-thin3d, the command-line tool.
#   cli.sh TOOL        bad arguments (status 2), files that do not exist or
#                      do not fit (status 1, a message naming the problem)
#                      and, run with no GPU visible, the clean no-GPU error.
#   cli.sh TOOL gpu    on a GPU host (python3 with numpy): raw and .npy
#                      volumes thinned by both methods, lee94 equal to
#                      scikit-image's skeletonize (where it is installed),
#                      bool and 2D .npy, --max-rounds, --verbose progress.
set -u
tool=$1
mode=${2:-cpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# name, expected status, text the output must hold, command...
check () {
  local name=$1 want=$2 text=$3
  shift 3
  timeout 120 "$@" > "$tmp/out" 2>&1
  local got=$?
  if [ "$got" -ne "$want" ] || ! grep -q -- "$text" "$tmp/out" ||
      grep -q "Segmentation\|Aborted\|Traceback" "$tmp/out"; then
    echo "FAIL: $name: exit status $got (expected $want), output:"
    sed 's/^/    /' "$tmp/out"
    failed=$((failed + 1))
  else
    echo "ok: $name: $(head -c 160 "$tmp/out" | head -1)"
  fi
}

head -c 1000 /dev/zero > "$tmp/v.raw"
check "no arguments" 2 "give an INPUT and an OUTPUT" "$tool"
check "--help" 0 "Usage: cudaimgproc-thin3d" "$tool" --help
check "unknown option" 2 "unknown option '--frobnicate'" \
  "$tool" --frobnicate "$tmp/v.raw" "$tmp/o.raw"
check "raw without --size" 2 "give its --size" "$tool" "$tmp/v.raw" \
  "$tmp/o.raw"
check "bad --size" 2 "expected WIDTHxHEIGHTxDEPTH" \
  "$tool" --size 10x10 "$tmp/v.raw" "$tmp/o.raw"
check "zero --size" 2 "expected WIDTHxHEIGHTxDEPTH" \
  "$tool" --size 10x0x10 "$tmp/v.raw" "$tmp/o.raw"
check "bad --method" 2 "expected pk12 or lee94" \
  "$tool" --method zhang --size 10x10x10 "$tmp/v.raw" "$tmp/o.raw"
check "bad --max-rounds" 2 "expected a whole number" \
  "$tool" --max-rounds -3 --size 10x10x10 "$tmp/v.raw" "$tmp/o.raw"
check "--size missing its value" 2 "needs a value" "$tool" "$tmp/v.raw" \
  "$tmp/o.raw" --size
check "mixed formats" 2 "both .npy or neither" \
  "$tool" --size 10x10x10 "$tmp/v.raw" "$tmp/o.npy"
check "missing input" 1 "cannot open '$tmp/none.raw': No such file" \
  "$tool" --size 10x10x10 "$tmp/none.raw" "$tmp/o.raw"
check "wrong size" 1 "has 1000 bytes; --size 10x10x11 needs 1100" \
  "$tool" --size 10x10x11 "$tmp/v.raw" "$tmp/o.raw"
cp "$tmp/v.raw" "$tmp/v.raw.npy"
check "not an .npy" 1 "is not a NumPy .npy file" \
  "$tool" "$tmp/v.raw.npy" "$tmp/o.npy"
# .npy files made by hand (numpy may be missing): version 1.0, the header
# padded to a multiple of 64 bytes
npy () {  # descr, order, shape, data bytes -> stdout
  local h="{'descr': '$1', 'fortran_order': $2, 'shape': $3, }"
  while [ $(( (10 + ${#h} + 1) % 64 )) -ne 0 ]; do h="$h "; done
  printf '\x93NUMPY\x01\x00'
  printf "\\x$(printf %02x $(( (${#h} + 1) % 256 )))\\x00"
  printf '%s\n' "$h"
  head -c "$4" /dev/zero
}
npy '<f4' False '(4, 5, 6)' 480 > "$tmp/f.npy"
check "float .npy" 1 "must be uint8 or bool" "$tool" "$tmp/f.npy" "$tmp/o.npy"
npy '|u1' True '(4, 5, 6)' 120 > "$tmp/fo.npy"
check "Fortran-order .npy" 1 "Fortran order" "$tool" "$tmp/fo.npy" \
  "$tmp/o.npy"
npy '|u1' False '(2, 3, 4, 5)' 120 > "$tmp/4d.npy"
check "4D .npy" 1 "expected a 3D" "$tool" "$tmp/4d.npy" "$tmp/o.npy"
npy '|u1' False '(4, 5, 6)' 100 > "$tmp/short.npy"
check "truncated .npy" 1 "holds 100 bytes of data; its shape needs 120" \
  "$tool" "$tmp/short.npy" "$tmp/o.npy"
npy '|u1' False '(4, 5, 6)' 120 > "$tmp/ok.npy"
check "unwritable output" 1 "cannot create '/nonexistent/o.npy'" \
  "$tool" "$tmp/ok.npy" /nonexistent/o.npy

# the same error paths under valgrind, where it is installed: no memory
# error, no definite leak (they end before any CUDA call)
if command -v valgrind > /dev/null 2>&1 && [ "$mode" != gpu ]; then
  vg="valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite
    --error-exitcode=99"
  check "valgrind: wrong size" 1 "needs 1100" \
    $vg "$tool" --size 10x10x11 "$tmp/v.raw" "$tmp/o.raw"
  check "valgrind: float .npy" 1 "must be uint8 or bool" \
    $vg "$tool" "$tmp/f.npy" "$tmp/o.npy"
  check "valgrind: 4D .npy" 1 "expected a 3D" \
    $vg "$tool" "$tmp/4d.npy" "$tmp/o.npy"
  check "valgrind: truncated .npy" 1 "its shape needs 120" \
    $vg "$tool" "$tmp/short.npy" "$tmp/o.npy"
  check "valgrind: unwritable output" 1 "cannot create" \
    $vg "$tool" "$tmp/ok.npy" /nonexistent/o.npy
  check "valgrind: bad argument" 2 "expected pk12 or lee94" \
    $vg "$tool" -m x -s 2x2x2 "$tmp/v.raw" "$tmp/o.raw"
else
  echo "SKIP: the error paths under valgrind (valgrind not installed," \
    "or the GPU half)"
fi

if [ "$mode" != gpu ]; then
  if [ "${CUDA_VISIBLE_DEVICES-unset}" = "" ]; then
    check "no GPU" 1 "no usable CUDA GPU found\|no CUDA driver found" \
      "$tool" "$tmp/ok.npy" "$tmp/o.npy"
    [ -e "$tmp/o.npy" ] && { echo "FAIL: output written on error";
      failed=$((failed + 1)); }
  else
    echo "SKIP: the no-GPU error (run with CUDA_VISIBLE_DEVICES empty)"
  fi
  echo "cli: $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi

# ---- on the GPU ------------------------------------------------------------
python3 -c "import numpy" 2>/dev/null || {
  echo "FAIL: the GPU checks need python3 with numpy"; exit 1; }
python3 - "$tmp" <<'EOF' || exit 1
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
z, y, x = np.mgrid[0:40, 0:48, 0:64]
v = np.zeros((40, 48, 64), np.uint8)
for _ in range(6):
    c = rng.integers(4, 36, 3)
    r = rng.integers(4, 11)
    v[(x - c[0] - 12) ** 2 + (y - c[1]) ** 2 + (z - c[2]) ** 2 <= r * r] = 200
v[5, 5:40, 7] = 1                       # a one-voxel line
np.save(d + "/balls.npy", v)
v.tofile(d + "/balls.raw")
np.save(d + "/balls-bool.npy", v != 0)
np.save(d + "/slice.npy", v[20])
EOF
check "pk12 raw" 0 "64x48x40 pk12" \
  "$tool" --size 64x48x40 "$tmp/balls.raw" "$tmp/pk12.raw"
check "pk12 npy" 0 "64x48x40 pk12" "$tool" "$tmp/balls.npy" "$tmp/pk12.npy"
check "lee94 npy, verbose" 0 "round 1:" \
  "$tool" -v --method lee94 "$tmp/balls.npy" "$tmp/lee.npy"
check "lee94 bool npy" 0 "lee94" \
  "$tool" -m lee94 "$tmp/balls-bool.npy" "$tmp/lee-bool.npy"
check "lee94 2D npy" 0 "64x48x1 lee94" \
  "$tool" -m lee94 "$tmp/slice.npy" "$tmp/lee-slice.npy"
check "pk12 one round" 0 "stopped at --max-rounds" \
  "$tool" -r 1 --ones "$tmp/balls.npy" "$tmp/pk12-1.npy"
python3 - "$tmp" <<'EOF' || failed=$((failed + 1))
import sys
import numpy as np
d = sys.argv[1]
v = np.load(d + "/balls.npy")
raw = np.fromfile(d + "/pk12.raw", np.uint8).reshape(v.shape)
pk = np.load(d + "/pk12.npy")
one = np.load(d + "/pk12-1.npy")
lee = np.load(d + "/lee.npy")
lee_b = np.load(d + "/lee-bool.npy")
lee_s = np.load(d + "/lee-slice.npy")
bad = []
if not np.array_equal(raw, pk):
    bad.append("raw and .npy pk12 differ")
if set(np.unique(pk)) - {0, 255} or set(np.unique(one)) - {0, 1}:
    bad.append("values not 0/255 (0/1 with --ones)")
if pk.dtype != np.uint8 or lee_b.dtype != np.bool_ or lee_s.shape != (48, 64):
    bad.append("dtype or shape not kept: %s %s %s" % (pk.dtype, lee_b.dtype,
                                                      lee_s.shape))
if not (0 < (pk != 0).sum() < (one != 0).sum() < (v != 0).sum()):
    bad.append("voxel counts: %d full, %d one round, %d input" % (
        (pk != 0).sum(), (one != 0).sum(), (v != 0).sum()))
if not np.array_equal(lee != 0, lee_b):
    bad.append("bool and uint8 lee94 differ")
try:
    from skimage.morphology import skeletonize
    import skimage
    sk = skeletonize(v != 0, method="lee") != 0
    sk2 = skeletonize(v[20] != 0, method="lee") != 0
    if not np.array_equal(sk, lee != 0):
        bad.append("lee94 differs from scikit-image in %d voxels"
                   % np.count_nonzero(sk != (lee != 0)))
    if not np.array_equal(sk2, lee_s != 0):
        bad.append("2D lee94 differs from scikit-image")
    print("ok: lee94 equals scikit-image %s skeletonize (3D and 2D)"
          % skimage.__version__)
except ImportError:
    print("SKIP: scikit-image not installed; lee94 not compared with it")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF
echo "cli: $failed failed"
[ "$failed" -eq 0 ]
