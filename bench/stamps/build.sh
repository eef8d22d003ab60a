#!/bin/sh
# Builds build-stamps/otsu-stamps and build-stamps/kmeans-stamps (sm_90):
# the one-launch cudaotsu with a %globaltimer stamp at each stage of every
# block (bench/stamps/otsu_stamps.cu), and cudakmeans with stamps at each
# block's pass start and sums complete and each warp's end of its tasks
# (bench/stamps/kmeans_stamps.cu).  The stamps go into a copy of kernels/,
# never into the kernels themselves.  Then, on the GPU host, with
# build-stamps carried:
#   build-stamps/otsu-stamps PHOTO.rgb 512 512 3840 2160
#   build-stamps/kmeans-stamps PHOTO.rgb 512 512 1920 1080 8
# (PHOTO.rgb: data/astronaut.png as raw RGB, as tests/gpu-suite.sh makes
# it).  Usage: bench/stamps/build.sh [REV]: the kernels of git revision REV
# instead of the working tree's.
set -e
cd "$(dirname "$0")/../.."
out=build-stamps
sh bench/kernels-at.sh $out/src "${1:-}"
python3 bench/stamps/stamp_patch.py $out/src
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
$nvcc -O3 --std=c++17 -gencode=arch=compute_90,code=sm_90 -I$out/src \
  -Ibench -c bench/stamps/otsu_stamps.cu -o $out/otsu_stamps.o
cc -O2 -c bench/content.c -Ibench -Ikernels -I/usr/local/cuda/include \
  -o $out/content.o
$nvcc $out/otsu_stamps.o $out/content.o -o $out/otsu-stamps -lm
echo "$out/otsu-stamps"
if grep -q KSTAMP $out/src/kmeans.cu 2> /dev/null; then
  $nvcc -O3 --std=c++17 -gencode=arch=compute_90,code=sm_90 -I$out/src \
    -Ibench bench/stamps/kmeans_stamps.cu $out/src/alloc.cu $out/content.o \
    -o $out/kmeans-stamps -lm
  echo "$out/kmeans-stamps"
fi
