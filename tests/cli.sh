#!/bin/bash
# cudaimgproc-thin3d, the command-line tool.
#   cli.sh TOOL        a corpus of bad arguments (status 2) and malformed or
#                      dangerous files (status 1), each under valgrind where
#                      it is installed: each must exit with its status and a
#                      message naming the problem, and leave every file as
#                      it was (INPUT, an existing OUTPUT, no stray file);
#                      then, run with no GPU visible, the clean no-GPU error
#                      with an existing OUTPUT kept.
#   cli.sh TOOL gpu    on a GPU host (python3 with numpy): raw and .npy
#                      volumes thinned by both methods, lee94 equal to
#                      scikit-image's skeletonize (where it is installed),
#                      bool and 2D .npy, --max-rounds, --verbose progress,
#                      OUTPUT replaced, through a link, and standard output.
set -u
tool=$(realpath "$1")
mode=${2:-cpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
par=$(nproc 2> /dev/null || echo 2)
vg=
if [ -n "${CUDAIMGPROC_SANITIZED:-}" ]; then
  echo "SKIP: valgrind: a sanitizer build (scripts/sanitize.sh) checks instead"
elif command -v valgrind > /dev/null 2>&1 && [ "$mode" != gpu ]; then
  vg="valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite
    --error-exitcode=99"
elif [ "$mode" != gpu ]; then
  echo "SKIP: valgrind (not installed): the corpus runs without it"
fi

# name, expected status, text the output must hold, command... (run in
# $tmp/f, the corpus's files); the result line goes to $tmp/r/NAME
check () {
  local name=$1 want=$2 text=$3 log
  shift 3
  log=$tmp/r/$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' _)
  (cd "$tmp/f" && timeout 300 "$@") > "$log.out" 2>&1
  local got=$?
  if [ "$got" -ne "$want" ] || ! grep -q -- "$text" "$log.out" ||
      grep -q "Segmentation\|Aborted\|Traceback\|runtime error" "$log.out"
  then
    { echo "FAIL: $name: exit status $got (expected $want, and '$text'),"\
        "output:"; sed 's/^/    /' "$log.out"; } > "$log"
  else
    echo "ok: $name: $(head -c 160 "$log.out" | head -1)" > "$log"
  fi
}
# the same, NPAR at a time
bg () {
  while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
  check "$@" &
}
collect () {
  wait
  for r in "$tmp"/r/*; do
    case $r in *.out) continue ;; esac
    cat "$r"
    grep -q '^FAIL' "$r" && failed=$((failed + 1))
    rm -f "$r"
  done
  return 0
}
mkdir -p "$tmp/f" "$tmp/r"
cd "$tmp/f" || exit 1

# .npy files made by hand (numpy may be missing): version 1.0, the header
# padded to a multiple of 64 bytes.  npyh HEADER DATA-BYTES [VERSION]
npyh () {
  local h=$1 v=${3:-1}
  while [ $(( (10 + ${#h} + 1) % 64 )) -ne 0 ]; do h="$h "; done
  printf '\x93NUMPY'"\\x0$v"'\x00'
  printf "\\x$(printf %02x $(( (${#h} + 1) % 256 )))"
  printf "\\x$(printf %02x $(( (${#h} + 1) / 256 )))"
  [ "$v" = 1 ] || printf '\x00\x00'
  printf '%s\n' "$h"
  head -c "$2" /dev/zero
}
npy () {  # descr, order, shape, data bytes
  npyh "{'descr': '$1', 'fortran_order': $2, 'shape': $3, }" "$4"
}

# every file of the corpus, made alike in $tmp/f (where the tool runs) and
# in $tmp/ref (what $tmp/f must still be afterwards)
make_files () {
  head -c 1000 /dev/zero > v.raw
  npy '|u1' False '(4, 5, 6)' 120 > ok.npy
  echo "an existing output, to be kept" > o.raw
  cp o.raw o.npy
  mkdir adir
  ln ok.npy hard.npy
  ln -s ok.npy link.npy
  ln -s v.raw link.raw
  cp v.raw v.raw.npy
  : > empty.npy
  for t in $dtypes; do
    npy "$t" False '(4, 5, 6)' 480 > "dtype-$(name "$t").npy"
  done
  npy '|u1' True '(4, 5, 6)' 120 > fortran.npy
  for sh in "${bad_shapes[@]}"; do
    npy '|u1' False "$sh" 120 > "shape-$(name "$sh").npy"
  done
  npy '|u1' False '(4, 0, 6)' 0 > zero.npy
  npy '|u1' False '(2147483648, 1, 1)' 0 > big.npy
  npy '|u1' False '(18446744073709551615, 1)' 0 > u64.npy
  npy '|u1' False '(99999999999999999999, 1)' 0 > u65.npy
  npy '|u1' False '(4194304, 2097152, 2097152)' 0 > wrap.npy
  npy '|u1' False '(2147483647, 2147483647, 2147483647)' 0 > max.npy
  npy '|u1' False '(+4, +4, +4)' 64 > plus.npy
  npy '|u1' False '(-4, 5, 6)' 120 > minus.npy
  npy '|u1' False '[4, 5, 6]' 120 > list.npy
  npy '|u1' False '(4 5, 6)' 120 > nocomma.npy
  npy '|u1' False '(4, 5, 6)' 100 > short.npy
  npy '|u1' False '(4, 5, 6)' 121 > long.npy
  npyh "{'descr': '|u1', 'shape': (4, 5, 6), }" 120 > noorder.npy
  npyh "{'fortran_order': False, 'shape': (4, 5, 6), }" 120 > nodescr.npy
  npyh "{'descr': '|u1', 'fortran_order': False, }" 120 > noshape.npy
  npyh "{'descr': '|u1', 'fortran_order': False, 'shape': (4, 5, 6), 'x': 1}" \
    120 > extra.npy
  npyh "{'descr': '|u1', 'descr': '|u1', 'fortran_order': False, 'shape': (4, 5, 6)}" \
    120 > twice.npy
  npyh "{'descr': 17, 'fortran_order': False, 'shape': (4, 5, 6)}" 120 > d17.npy
  npyh "{'descr': '|u1', 'fortran_order': 0, 'shape': (4, 5, 6)}" 120 > o0.npy
  npyh "'descr': '|u1', 'fortran_order': False, 'shape': (4, 5, 6)" 120 \
    > nodict.npy
  npyh "{'descr': '|u1', 'fortran_order': False, 'shape': (4, 5, 6)} x" 120 \
    > after.npy
  npyh "{'descr': '|u1' 'fortran_order': False, 'shape': (4, 5, 6)}" 120 \
    > nocomma2.npy
  npyh "{descr: '|u1', 'fortran_order': False, 'shape': (4, 5, 6)}" 120 \
    > bare.npy
  npyh "{'descr': '|u1', 'fortran_order': False, 'shape': (4, 5, 6)}" 120 9 \
    > v9.npy
  head -c 9 ok.npy > v1short.npy
  printf '\x93NUMPY\x02\x00\x40\x00' > v2short.npy
  printf '\x93NUMPY\x02\x00\x00\x00\x00\x01{}' > huge-header.npy
  # cut at every byte of the header (10 + 118 bytes)
  for k in $(seq 1 127); do head -c "$k" ok.npy > "cut-$k.npy"; done
}
name () { printf '%s' "$1" | tr -c 'A-Za-z0-9' _; }
dtypes="<f4 <f8 |i1 <i2 <u2 >u4 <i8 <c8 |S1 |O <M8[s] |V1 <f2"
bad_shapes=('(2, 3, 4, 5)' '(120,)' '()')
mkdir -p "$tmp/ref"
(cd "$tmp/ref" && make_files)
make_files

# ---- arguments (status 2) ----
bg "no arguments" 2 "give an INPUT and an OUTPUT" $vg "$tool"
bg "one argument" 2 "give an INPUT and an OUTPUT" $vg "$tool" ok.npy
bg "three arguments" 2 "one INPUT and one OUTPUT, not 'x.npy' too" \
  $vg "$tool" ok.npy o.npy x.npy
bg "unknown option" 2 "unknown option '--frobnicate'" \
  $vg "$tool" --frobnicate v.raw o.raw
bg "raw without --size" 2 "give its --size" $vg "$tool" v.raw o.raw
bg "--size given for an .npy" 2 "has its own shape" \
  $vg "$tool" --size 4x5x6 ok.npy o.npy
bg "--size missing its value" 2 "needs a value" $vg "$tool" v.raw o.raw --size
for sz in 10x10 10x0x10 0x1x1 4294967297x2x1 9999999999x1x1 2147483648x1x1 \
    +10x10x10 ' 10x10x10' '10x10x10 ' 10x10x10x 10X10X10 -1x10x10 \
    10x10x10abc '' x10x10 10xx10x10 0010x10x10000000000 1e3x1x1 \
    $'10x10x10\n' $'10\tx10x10' 10x10x10x10; do
  bg "--size '$sz'" 2 "expected WIDTHxHEIGHTxDEPTH, each a whole number" \
    $vg "$tool" --size "$sz" v.raw o.raw
done
bg "bad --method" 2 "expected pk12 or lee94" \
  $vg "$tool" --method zhang --size 10x10x10 v.raw o.raw
bg "negative --max-rounds" 2 "expected a whole number" \
  $vg "$tool" --max-rounds -3 --size 10x10x10 v.raw o.raw
bg "huge --max-rounds" 2 "expected a whole number" \
  $vg "$tool" --max-rounds 99999999999 --size 10x10x10 v.raw o.raw
bg "bad --device" 2 "expected a device number" \
  $vg "$tool" --device gpu0 --size 10x10x10 v.raw o.raw
bg "mixed formats" 2 "both .npy or neither" \
  $vg "$tool" --size 10x10x10 v.raw o.npy

# ---- files (status 1) ----
bg "missing input" 1 "cannot open 'none.raw': No such file" \
  $vg "$tool" --size 10x10x10 none.raw o.raw
bg "wrong size" 1 "has 1000 bytes; --size 10x10x11 needs 1100" \
  $vg "$tool" --size 10x10x11 v.raw o.raw
bg "a directory as input" 1 "'adir' is a directory, not a volume file" \
  $vg "$tool" --size 10x10x10 adir o.raw
bg "a device as input" 1 "is not a regular file" \
  $vg "$tool" --size 10x10x10 /dev/zero o.raw
bg "volume too large for memory" 1 "does not fit in this machine's memory" \
  $vg "$tool" --size 2147483647x2147483647x2147483647 v.raw o.raw
bg "not an .npy" 1 "is not a NumPy .npy file" $vg "$tool" v.raw.npy o.npy
bg "empty .npy" 1 "is not a NumPy .npy file" $vg "$tool" empty.npy o.npy
for t in $dtypes; do
  bg "dtype '$t'" 1 "must be uint8 or bool, not '${t//[][]/.}'" \
    $vg "$tool" "dtype-$(name "$t").npy" o.npy
done
bg "Fortran order" 1 "Fortran order" $vg "$tool" fortran.npy o.npy
for sh in "${bad_shapes[@]}"; do
  bg "shape $sh" 1 "expected a 3D (depth, height, width) or 2D" \
    $vg "$tool" "shape-$(name "$sh").npy" o.npy
done
bg "a zero dimension" 1 "the volume is empty" $vg "$tool" zero.npy o.npy
bg "a dimension of 2^31" 1 "a dimension of 2147483648 is more than" \
  $vg "$tool" big.npy o.npy
bg "a dimension of 2^64-1" 1 "a dimension of 18446744073709551615" \
  $vg "$tool" u64.npy o.npy
bg "a dimension past 2^64" 1 "dimension is too large" $vg "$tool" u65.npy o.npy
bg "a shape whose product wraps" 1 "does not fit in this machine's memory" \
  $vg "$tool" wrap.npy o.npy
bg "the largest shape" 1 "does not fit in this machine's memory" \
  $vg "$tool" max.npy o.npy
bg "signed dimensions" 1 "'shape' must be a tuple of whole numbers" \
  $vg "$tool" plus.npy o.npy
bg "a negative dimension" 1 "'shape' must be a tuple of whole numbers" \
  $vg "$tool" minus.npy o.npy
bg "shape as a list" 1 "'shape' must be a tuple" $vg "$tool" list.npy o.npy
bg "shape without a comma" 1 "'shape' must be a tuple" \
  $vg "$tool" nocomma.npy o.npy
bg "data shorter than its shape" 1 "holds 100 bytes of data; its shape needs" \
  $vg "$tool" short.npy o.npy
bg "data longer than its shape" 1 "holds 121 bytes of data; its shape needs" \
  $vg "$tool" long.npy o.npy
bg "no fortran_order" 1 "lacks 'fortran_order'" $vg "$tool" noorder.npy o.npy
bg "no descr" 1 "lacks 'descr'" $vg "$tool" nodescr.npy o.npy
bg "no shape" 1 "lacks 'shape'" $vg "$tool" noshape.npy o.npy
bg "an extra key" 1 "a key 'x' the format does not define" \
  $vg "$tool" extra.npy o.npy
bg "a key twice" 1 "names 'descr' twice" $vg "$tool" twice.npy o.npy
bg "descr not a string" 1 "'descr' is not a type name" $vg "$tool" d17.npy o.npy
bg "fortran_order not a bool" 1 "is not True or False" \
  $vg "$tool" o0.npy o.npy
bg "header not a dict" 1 "header is not a dictionary" \
  $vg "$tool" nodict.npy o.npy
bg "text after the dict" 1 "text after its dictionary" \
  $vg "$tool" after.npy o.npy
bg "keys without a comma" 1 "expected ',' or '}'" $vg "$tool" nocomma2.npy o.npy
bg "an unquoted key" 1 "dictionary of named values" $vg "$tool" bare.npy o.npy
bg "format version 9" 1 ".npy format version 9 is not known" \
  $vg "$tool" v9.npy o.npy
bg "version 1 length cut" 1 "truncated .npy header" $vg "$tool" v1short.npy o.npy
bg "version 2 length cut" 1 "truncated .npy header" $vg "$tool" v2short.npy o.npy
bg "a 16 MiB header" 1 "at most 1 MiB" $vg "$tool" huge-header.npy o.npy
for k in $(seq 1 127); do
  bg "header cut at byte $k" 1 "not a NumPy .npy file\|truncated .npy header" \
    $vg "$tool" "cut-$k.npy" o.npy
done

# ---- outputs that must not be touched (status 1) ----
bg "OUTPUT is INPUT" 1 "'ok.npy' is the input file" $vg "$tool" ok.npy ok.npy
bg "OUTPUT is INPUT by another path" 1 "is the input file" \
  $vg "$tool" ok.npy ./adir/../ok.npy
bg "OUTPUT a hard link to INPUT" 1 "'hard.npy' is the input file" \
  $vg "$tool" ok.npy hard.npy
bg "OUTPUT a symbolic link to INPUT" 1 "'link.npy' is the input file" \
  $vg "$tool" ok.npy link.npy
bg "OUTPUT a raw link to INPUT" 1 "'link.raw' is the input file" \
  $vg "$tool" --size 10x10x10 v.raw link.raw
bg "OUTPUT /dev/null" 1 "'/dev/null' exists and is not a regular file" \
  $vg "$tool" --size 10x10x10 v.raw /dev/null
bg "OUTPUT a directory" 1 "'adir' exists and is not a regular file" \
  $vg "$tool" --size 10x10x10 v.raw adir
bg "OUTPUT in a missing directory" 1 "cannot create '/nonexistent/o.npy'" \
  $vg "$tool" ok.npy /nonexistent/o.npy
collect

# every file as it was, and nothing new: $tmp/f against $tmp/ref
snapshot () {
  (cd "$1" && find . -printf '%y %p %l %m %n\n' | sort &&
    find . -type f -print0 | sort -z | xargs -0 md5sum)
}
check_files () {
  if ! diff <(snapshot "$tmp/ref") <(snapshot "$tmp/f") > "$tmp/diff"; then
    echo "FAIL: $1 changed a file or left one:"
    sed 's/^/    /' "$tmp/diff"
    failed=$((failed + 1))
  else
    echo "ok: $1: every INPUT and existing OUTPUT unchanged, no file left" \
      "($(find "$tmp/f" -type f | wc -l) files)"
  fi
}
check_files "the corpus"

if [ "$mode" != gpu ]; then
  if [ "${CUDA_VISIBLE_DEVICES-unset}" = "" ]; then
    check "no GPU" 1 "no usable CUDA GPU found\|no CUDA driver found" \
      $vg "$tool" ok.npy o.npy
    check "no GPU, standard output" 1 "no usable CUDA GPU found\|no CUDA driver" \
      sh -c "'$tool' ok.npy - > /dev/null"
    collect
    check_files "the no-GPU error"
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
# an existing OUTPUT replaced; through a link, the link kept and its
# target replaced; standard output
echo old > "$tmp/replaced.npy"
chmod 640 "$tmp/replaced.npy"
echo old > "$tmp/target.npy"
ln -s target.npy "$tmp/via-link.npy"
check "OUTPUT replaced" 0 "64x48x40 pk12" \
  "$tool" "$tmp/balls.npy" "$tmp/replaced.npy"
check "OUTPUT through a link" 0 "64x48x40 pk12" \
  "$tool" "$tmp/balls.npy" "$tmp/via-link.npy"
check "standard output" 0 "64x48x40 pk12" \
  sh -c "'$tool' '$tmp/balls.npy' - > '$tmp/stdout.npy'"
collect
[ -L "$tmp/via-link.npy" ] && [ "$(stat -c %a "$tmp/replaced.npy")" = 640 ] &&
  [ -z "$(find "$tmp" -maxdepth 1 -name '.*.??????')" ] &&
  cmp -s "$tmp/pk12.npy" "$tmp/replaced.npy" &&
  cmp -s "$tmp/pk12.npy" "$tmp/target.npy" &&
  cmp -s "$tmp/pk12.npy" "$tmp/stdout.npy" ||
  { echo "FAIL: OUTPUT replaced, through a link or on standard output:" \
      "not the skeleton, the link or the mode not kept, or a file left";
    ls -la "$tmp" | sed 's/^/    /'; failed=$((failed + 1)); }
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
