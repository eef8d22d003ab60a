#!/bin/sh
# scripts/fatbin-keep.py on a library nvcc builds here with code for two
# architectures (sm_80, sm_90): keeping sm_90 leaves the ELF's size, every
# byte outside the fat binaries and sm_90's code as they were, and only
# zeros where sm_80's was; asking for an architecture the library lacks
# is refused.  Usage: tests/fatbin-keep.sh NVCC SCRIPT
set -eu
nvcc=$1 script=$2
# the sanitizer run (scripts/sanitize.sh) preloads ASan into every test:
# nvcc's own tools crash under it, and none of this is our C code
unset LD_PRELOAD ASAN_OPTIONS
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/k.cu" <<'CU'
__global__ void k (int *p) { p[threadIdx.x] = threadIdx.x * 7; }
extern "C" void launch (int *p) { k<<<1, 32>>> (p); }
CU
"$nvcc" -shared -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=sm_90 -o "$dir/lib.so" "$dir/k.cu"
python3 "$script" "$dir/lib.so" "$dir/kept.so" 90
python3 - "$dir/lib.so" "$dir/kept.so" <<'PY'
import struct, sys
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
assert len(a) == len(b), "size changed"
diff = [i for i in range(len(a)) if a[i] != b[i]]
assert diff, "nothing zeroed"
assert all(b[i] == 0 for i in diff), "a changed byte is not zero"
# the changed bytes lie in sm_80's payloads, sm_90's are unchanged: the
# entries of every fat binary (found by their magic; an 8-byte aligned
# header with a sane size)
spans, i = [], a.find(struct.pack("<I", 0xBA55ED50))
while i >= 0:
    _, _, hsize, fsize = struct.unpack_from("<IHHQ", a, i)
    if hsize == 16 and 0 < fsize < len(a):
        p = i + hsize
        while p < i + hsize + fsize:
            kind, _, eh, size = struct.unpack_from("<HHIQ", a, p)
            arch, = struct.unpack_from("<I", a, p + 28)
            spans.append((kind, arch, p + eh, p + eh + size))
            p += eh + size
    i = a.find(struct.pack("<I", 0xBA55ED50), i + 4)
old80 = [(lo, hi) for k, arch, lo, hi in spans if k == 2 and arch == 80]
assert old80, "no sm_80 code found"
assert all(any(lo <= d < hi for lo, hi in old80) for d in diff), \
    "bytes outside sm_80's code changed"
for k, arch, lo, hi in spans:
    if arch == 90:
        assert a[lo:hi] == b[lo:hi], "sm_90's code changed"
print("fatbin-keep: %d bytes of sm_80's %d zeroed, sm_90's kept" %
      (len(diff), sum(hi - lo for lo, hi in old80)))
PY
if python3 "$script" "$dir/lib.so" "$dir/none.so" 75 2> "$dir/err"; then
  echo "fatbin-keep: sm_75, which the library lacks, was not refused" >&2
  exit 1
fi
grep -q "no sm_75 ELF" "$dir/err"
echo "fatbin-keep: sm_75 refused: $(cat "$dir/err")"
