/* cudaimgproc: device-side building block: 256-bin histogram of a pitched
 * 8-bit plane.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Atomics are what make a histogram slow: lanes of one atomic instruction
 * that add to the same word serialize, and a frame of one value, or a smooth
 * photo whose neighbouring pixels share values, is the worst case.  So no
 * thread shares its counters: a block of 256 threads keeps 256 x 256
 * 16-bit counters (128 KB of shared memory), laid out [bin][thread], and a
 * pixel costs a plain read-modify-write of the thread's own counter; the
 * lanes of an instruction touch 32 consecutive halfwords, 16 distinct words
 * in distinct banks, whatever the pixels.  A thread reads 32 pixels (one 32-byte
 * sector) at a time, the next 32 already in flight, and adds runs of equal
 * pixels at once.  A thread handles at most 65504 pixels, so a counter
 * cannot overflow.  Each block then sums its columns and adds its non-zero
 * bins to the frame's histogram in global memory (integer atomics: the
 * result does not depend on order).
 *
 * The last block to finish runs an epilogue on the complete histogram (for
 * cudaotsu, choosing the threshold), which saves a launch.
 */
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "cip_pointwise.cuh"

namespace cip {


struct NoEpilogue
{
  __device__ void operator() (uint32_t *) const
  {
  }
};

/* 256 threads: the epilogue (cudaotsu's threshold) works one bin a thread */
constexpr int HIST_BLOCK = 256;
constexpr int HIST_MAX_CHUNKS = 2047;   /* per thread: 2047 * 32 < 65536 */
constexpr size_t HIST_SMEM = 256 * HIST_BLOCK * sizeof (uint16_t);

/* Counts 32 pixels (8 words) into this thread's column @col. */
__device__ __forceinline__ void
hist_add32 (uint16_t * __restrict__ col, const uint4 a, const uint4 b)
{
  const uint32_t w[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
  uint32_t prev = w[0] & 0xff, run = 1;
#pragma unroll
  for (int k = 1; k < 32; k++) {
    const uint32_t v = (w[k >> 2] >> ((k & 3) * 8)) & 0xff;
    if (v == prev) {
      run++;
    } else {
      col[prev * HIST_BLOCK] += run;
      prev = v;
      run = 1;
    }
  }
  col[prev * HIST_BLOCK] += run;
}

/* Grid-stride over 32-pixel chunks; VEC: rows 16-byte aligned.  @done
 * counts finished blocks (0 before the launch, 0 again after). */
template <bool VEC, class Epilogue>
__global__ void
__launch_bounds__ (HIST_BLOCK)
histogram_kernel (const uint8_t * __restrict__ src, int pitch, int width,
    int height, uint32_t * __restrict__ hist, unsigned *done, Epilogue epi)
{
  extern __shared__ uint16_t sh[];      /* [256][HIST_BLOCK] */
  uint16_t *col = sh + threadIdx.x;
  __shared__ bool last;

  for (int i = threadIdx.x; i < 256 * HIST_BLOCK / 2; i += HIST_BLOCK)
    reinterpret_cast<uint32_t *>(sh)[i] = 0;
  __syncthreads ();

  const int chunks = (width + 31) / 32;
  const long long total = (long long) chunks * height;
  const long long step = (long long) gridDim.x * HIST_BLOCK;
  long long t = (long long) blockIdx.x * HIST_BLOCK + threadIdx.x;
  uint4 a = make_uint4 (0, 0, 0, 0), b = a;
  int y = 0, x0 = 0;
  bool full = false;

  /* one chunk in flight while the previous is counted */
  auto fetch = [&](long long tt) {
    y = (int) (tt / chunks);
    x0 = (int) (tt - (long long) y * chunks) * 32;
    full = VEC && x0 + 32 <= width;
    if (full) {
      const uint4 *p = reinterpret_cast<const uint4 *>(src +
          (size_t) y * pitch + x0);
      a = __ldg (p);
      b = __ldg (p + 1);
    }
  };
  if (t < total)
    fetch (t);
  while (t < total) {
    const uint4 ca = a, cb = b;
    const int cy = y, cx0 = x0;
    const bool cfull = full;
    t += step;
    if (t < total)
      fetch (t);
    if (cfull) {
      hist_add32 (col, ca, cb);
    } else {
      const uint8_t *p = src + (size_t) cy * pitch + cx0;
      const int n = min (32, width - cx0);
      for (int k = 0; k < n; k++)
        col[__ldg (p + k) * HIST_BLOCK] += 1;
    }
  }
  __syncthreads ();

  for (int bin = threadIdx.x; bin < 256; bin += HIST_BLOCK) {
    const uint32_t *row = reinterpret_cast<const uint32_t *>(sh +
        bin * HIST_BLOCK);
    uint32_t s = 0;
#pragma unroll 8
    for (int k = 0; k < HIST_BLOCK / 2; k++) {
      const uint32_t v = row[(k + threadIdx.x) & (HIST_BLOCK / 2 - 1)];
      s += (v & 0xffff) + (v >> 16);
    }
    if (s)
      atomicAdd (&hist[bin], s);
  }

  /* Last block done: the histogram is complete. */
  __threadfence ();
  __syncthreads ();
  if (threadIdx.x == 0)
    last = atomicAdd (done, 1u) == gridDim.x - 1;
  __syncthreads ();
  if (last) {
    __threadfence ();
    if (threadIdx.x == 0)
      *done = 0;
    epi (hist);
  }
}

/* Adds the histogram of the plane to @hist (which the caller zeroes), then
 * runs @epi in the last block to finish, with HIST_BLOCK threads. */
template <class Epilogue>
static cudaError_t
launch_histogram (const void *src, int pitch, int width, int height,
    uint32_t * hist, unsigned *done, Epilogue epi, cudaStream_t stream)
{
  static int sms = 0;
  if (width <= 0 || height <= 0)
    return cudaErrorInvalidValue;
  if (!sms) {
    int dev = 0;
    cudaGetDevice (&dev);
    if (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev)
        != cudaSuccess || sms <= 0)
      sms = 16;
  }
  const long long chunks = (long long) ((width + 31) / 32) * height;
  const long long need = (chunks + HIST_BLOCK - 1) / HIST_BLOCK;
  /* one 128 KB block per SM; enough of them that no thread counts more
   * than HIST_MAX_CHUNKS chunks */
  const long long min_grid = (chunks + (long long) HIST_BLOCK *
      HIST_MAX_CHUNKS - 1) / ((long long) HIST_BLOCK * HIST_MAX_CHUNKS);
  long long g = need < sms ? need : sms;
  if (g < min_grid)
    g = min_grid;
  const unsigned grid = (unsigned) g;
  const uint8_t *s = static_cast<const uint8_t *>(src);
  const bool vec = is_aligned (src, pitch, 16);
  (void) cudaGetLastError ();
  /* more than the default 48 KB of shared memory: set once per kernel */
  static bool attr_set[2];
  if (!attr_set[vec]) {
    cudaError_t e = vec ?
        cudaFuncSetAttribute (histogram_kernel<true, Epilogue>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) HIST_SMEM) :
        cudaFuncSetAttribute (histogram_kernel<false, Epilogue>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) HIST_SMEM);
    if (e != cudaSuccess)
      return e;
    attr_set[vec] = true;
  }
  if (vec)
    histogram_kernel<true><<<grid, HIST_BLOCK, HIST_SMEM, stream>>>
        (s, pitch, width, height, hist, done, epi);
  else
    histogram_kernel<false><<<grid, HIST_BLOCK, HIST_SMEM, stream>>>
        (s, pitch, width, height, hist, done, epi);
  return cudaGetLastError ();
}

}  /* namespace cip */
