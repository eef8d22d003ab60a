/* cudaimgproc: device-side building block: 256-bin histogram of a pitched
 * 8-bit plane.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Contention is what makes a histogram slow: lanes of one atomic
 * instruction that add to the same shared-memory word serialize, and a frame
 * of one value (or a smooth photo, whose neighbouring pixels share values)
 * is the worst case.  So each block keeps 32 columns of counters, one per
 * lane index, laid out [bin][lane]: the lanes of an instruction always hit
 * 32 different banks, whatever the pixels; only warps contend, and they are
 * different instructions.  A thread reads 32 pixels (two 16-byte loads, one
 * 32-byte sector) and counts them one by one.  Each block
 * then sums its columns and adds its non-zero bins to the frame's histogram
 * in global memory (integer atomics: the result does not depend on order).
 *
 * The last block to finish runs an epilogue on the complete histogram (for
 * cudaotsu, choosing the threshold), which saves a launch.
 */
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "cip_pointwise.cuh"

namespace cip {

constexpr int HIST_THREADS = 256;

struct NoEpilogue
{
  __device__ void operator() (uint32_t *) const
  {
  }
};

/* Counts 32 pixels (8 words) into this lane's column @col.  Straight-line
 * atomics: adding runs of equal pixels at once saves atomics on smooth
 * content but costs more in divergence (measured on an H200: 12.7 against
 * 9.2 us for a 4K photo). */
__device__ __forceinline__ void
hist_add32 (uint32_t * __restrict__ col, const uint32_t (&w)[8])
{
#pragma unroll
  for (int k = 0; k < 32; k++)
    atomicAdd (&col[((w[k >> 2] >> ((k & 3) * 8)) & 0xff) * 32], 1u);
}

/* Grid-stride over 32-pixel chunks; VEC: rows 16-byte aligned.  @done
 * counts finished blocks (0 before the launch, 0 again after). */
template <bool VEC, class Epilogue>
__global__ void
__launch_bounds__ (HIST_THREADS)
histogram_kernel (const uint8_t * __restrict__ src, int pitch, int width,
    int height, uint32_t * __restrict__ hist, unsigned *done, Epilogue epi)
{
  extern __shared__ uint32_t sh[];      /* [256][32] */
  uint32_t *col = sh + (threadIdx.x & 31);
  __shared__ bool last;

  for (int i = threadIdx.x; i < 256 * 32; i += HIST_THREADS)
    sh[i] = 0;
  __syncthreads ();

  const int chunks = (width + 31) / 32;
  const long long total = (long long) chunks * height;
  for (long long t = (long long) blockIdx.x * HIST_THREADS + threadIdx.x;
      t < total; t += (long long) gridDim.x * HIST_THREADS) {
    const int y = (int) (t / chunks);
    const int x0 = (int) (t - (long long) y * chunks) * 32;
    const uint8_t *p = src + (size_t) y * pitch + x0;
    if (VEC && x0 + 32 <= width) {
      const uint4 a = __ldg (reinterpret_cast<const uint4 *>(p));
      const uint4 b = __ldg (reinterpret_cast<const uint4 *>(p) + 1);
      const uint32_t w[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
      hist_add32 (col, w);
    } else {
      const int n = min (32, width - x0);
      for (int k = 0; k < n; k++)
        atomicAdd (&col[__ldg (p + k) * 32], 1u);
    }
  }
  __syncthreads ();

  for (int b = threadIdx.x; b < 256; b += HIST_THREADS) {
    const uint32_t *row = sh + b * 32;
    uint32_t s = 0;
#pragma unroll
    for (int l = 0; l < 32; l++)
      s += row[(l + b) & 31];   /* rotated: threads read different banks */
    if (s)
      atomicAdd (&hist[b], s);
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

constexpr size_t HIST_SMEM = 256 * 32 * sizeof (uint32_t);

/* Adds the histogram of the plane to @hist (which the caller zeroes), then
 * runs @epi in the last block to finish, with HIST_THREADS threads. */
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
  const long long need = (chunks + HIST_THREADS - 1) / HIST_THREADS;
  /* A few blocks per SM: enough to hide latency, few merges at the end. */
  /* 4 blocks of 32 KB per SM: 2 and 7 were slower on an H200 */
  const long long cap = 4LL * sms;
  const unsigned grid = (unsigned) (need < cap ? need : cap);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  (void) cudaGetLastError ();
  /* 32 KB of dynamic shared memory: under the 48 KB default limit */
  if (is_aligned (src, pitch, 16))
    histogram_kernel<true><<<grid, HIST_THREADS, HIST_SMEM, stream>>>
        (s, pitch, width, height, hist, done, epi);
  else
    histogram_kernel<false><<<grid, HIST_THREADS, HIST_SMEM, stream>>>
        (s, pitch, width, height, hist, done, epi);
  return cudaGetLastError ();
}

}  /* namespace cip */
