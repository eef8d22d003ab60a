#!/bin/sh
# Builds build-kmeans-ab/NAME (sm_90) for each NAME=SPEC: the timing
# program bench/kmeans-ab/kmeans_ab.cu against cudakmeans' kernel of SPEC,
# a git revision (its kernels/), a file (the working tree's kernels/
# with that file as kmeans.cu: a variant not committed) or a patch of
# kernels/kmeans.cu, FILE.patch (applied to the working tree's kernels/)
# or FILE.patch@REV (to REV's): bench/kmeans-ab/variants/ holds the
# experiments docs/performance.md reports that way.  No argument:
# head=HEAD and work=kernels/kmeans.cu.  A revision whose kmeans.h lacks
# a field the program sets (older than `attempts`) does not build.
# NVFLAGS: more nvcc options (-D for a variant's switches).  Then,
# on the GPU host, with build-kmeans-ab carried:
#   bench/kmeans-ab/run.sh PHOTO.rgb 3 "1920 1080 8 3840 2160 8" head work
# (PHOTO.rgb: data/astronaut.png as raw RGB, 512x512, as tests/gpu-suite.sh
# makes it).
set -e
cd "$(dirname "$0")/../.."
out=build-kmeans-ab
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
flags="-O3 --std=c++17 -gencode=arch=compute_90,code=sm_90"
[ $# -gt 0 ] || set -- head=HEAD work=kernels/kmeans.cu
mkdir -p $out
cc -O2 -c bench/content.c -Ibench -Ikernels -I/usr/local/cuda/include \
  -o $out/content.o
for spec in "$@"; do
  name=${spec%%=*} what=${spec#*=}
  case $name in
    "" | *[!A-Za-z0-9_-]*) echo "build.sh: no name in '$spec'" >&2; exit 2;;
  esac
  src=$out/$name.src
  case $what in
    *.patch | *.patch@*)
      patch=${what%@*} rev=
      [ "$patch" = "$what" ] || rev=${what##*@}
      sh bench/kernels-at.sh "$src" ${rev:+"$rev"}
      patch -s -p2 -d "$src" < "$patch"
      ;;
    *)
      if [ -f "$what" ]; then
        sh bench/kernels-at.sh "$src"
        cp "$what" "$src/kmeans.cu"
      else
        sh bench/kernels-at.sh "$src" "$what"
      fi
      ;;
  esac
  # shellcheck disable=SC2086
  $nvcc $flags ${NVFLAGS:-} -I$src -Ibench bench/kmeans-ab/kmeans_ab.cu \
    $src/kmeans.cu $src/alloc.cu $out/content.o -o $out/$name
  echo "$out/$name"
done
