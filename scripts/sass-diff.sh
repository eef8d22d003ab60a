#!/bin/bash
# Whether an edit to a kernel file changes its machine code.  Builds FILE
# as committed at REV (default HEAD) and as in the work tree, for sm_90
# with the project's optimisation flags, disassembles both and prints, a
# kernel a line, "same" or how many lines of SASS differ (addresses,
# branch targets and encodings left out).  Identical SASS needs no device
# run; anything else does: cudakmeans' kernels reschedule on edits as
# small as a named bool (docs/performance.md).
#
#   scripts/sass-diff.sh kernels/kmeans.cu [REV]
#
# cuobjdump comes with the CUDA toolkit; where the toolkit has none (the
# development machine's nvcc-only install), PyPI's nvidia-cuda-cuobjdump
# and nvidia-cuda-nvdisasm wheels are fetched once into
# ~/.cache/cudaimgproc-sass.
set -eu
file=${1:?usage: scripts/sass-diff.sh FILE [REV]}
rev=${2:-HEAD}
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cudaimgproc-sass
export PATH=$PATH:/usr/local/cuda/bin:$cache/nvidia/cu13/bin

if ! command -v cuobjdump > /dev/null || ! command -v nvdisasm > /dev/null
then
  mkdir -p "$cache"
  python3 -m pip download --no-deps -q -d "$cache" nvidia-cuda-cuobjdump \
    nvidia-cuda-nvdisasm
  for w in "$cache"/*.whl; do
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
      "$w" "$cache"
  done
  chmod +x "$cache"/nvidia/cu13/bin/*
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/a" "$work/b" "$work/sa" "$work/sb"
# the same file name in two folders (the anonymous namespace's mangled
# name carries it); the includes from kernels/ and a build's config.h
inc=(-I "$root/kernels")
for d in "$root"/build*/; do
  [ -f "$d/config.h" ] && inc+=(-I "$d") && break
done
name=$(basename "$file")
git -C "$root" show "$rev:$file" > "$work/a/$name"
cp "$root/$file" "$work/b/$name"

for v in a b; do
  nvcc -O3 --std=c++17 -arch=sm_90 "${inc[@]}" -cubin \
    -o "$work/$v.cubin" "$work/$v/$name"
  # one file a function; the path's hash, addresses, encodings and
  # branch targets out
  cuobjdump -sass "$work/$v.cubin" |
    sed -E 's/_[0-9a-f]{8}_/_00000000_/g; s@/\*[0-9a-f]{4,}\*/@@;
      s@/\* 0x[0-9a-f]+ \*/@@g;
      s/(BRA|BSSY|CALL\.REL\.NOINC|BREAK|JMP)([^;]*)0x[0-9a-f]+/\1\2X/g;
      s/[[:space:]]+$//' | grep -v '^[[:space:]]*$' |
    awk -v d="$work/s$v" '/Function :/ { fn = $3 } fn != "" { print > (d "/" fn ".s") }'
done

demangle() { if command -v c++filt > /dev/null; then c++filt; else cat; fi; }
{
for f in "$work"/sa/*.s; do
  fn=$(basename "$f" .s)
  if [ ! -f "$work/sb/$fn.s" ]; then
    echo "gone  $fn"
  elif cmp -s "$f" "$work/sb/$fn.s"; then
    echo "same  $fn"
  else
    echo "DIFF  $fn ($(diff "$f" "$work/sb/$fn.s" | grep -c '^[<>]') lines)"
  fi
done
for f in "$work"/sb/*.s; do
  [ -f "$work/sa/$(basename "$f")" ] || echo "new   $(basename "$f" .s)"
done
} | demangle
