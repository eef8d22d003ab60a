/* cudaimgproc: device-side building block: 256-bin histogram of a pitched
 * 8-bit plane.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each warp counts into a private shared-memory histogram; a block merges
 * its warps' and adds the non-zero bins to the frame's histogram in global
 * memory (integer atomics: the result does not depend on order).
 *
 * Contention is what makes a histogram slow, and a frame of one value is the
 * worst case: every lane adds to the same bin.  So a thread reads 32 pixels
 * at once and adds runs of equal pixels with one atomic; when its 32 pixels
 * are all one value, the lanes of the warp holding the same value are
 * grouped (__match_any_sync) and their leader adds 32 per lane, once; and
 * the lanes of a warp read far-apart rows (see histogram_kernel).
 */
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "cip_pointwise.cuh"

namespace cip {

constexpr int HIST_THREADS = 256;
constexpr int HIST_WARPS = HIST_THREADS / 32;

/* Counts 32 pixels (8 words) into the warp's histogram @wh. */
__device__ __forceinline__ void
hist_add32 (uint32_t * __restrict__ wh, const uint32_t (&w)[8])
{
  const uint32_t b0 = w[0] & 0xff;
  bool uniform = w[0] == b0 * 0x01010101u;
#pragma unroll
  for (int k = 1; k < 8; k++)
    uniform &= w[k] == w[0];

  const unsigned active = __activemask ();
  if (__any_sync (active, uniform)) {
    /* key 256 + lane never matches another lane: non-uniform lanes alone */
    const unsigned group = __match_any_sync (active,
        uniform ? b0 : 256u + (threadIdx.x & 31));
    if (uniform) {
      if ((threadIdx.x & 31) == (unsigned) (__ffs (group) - 1))
        atomicAdd (&wh[b0], 32u * __popc (group));
      return;
    }
  }
  uint32_t prev = b0, run = 1;
#pragma unroll
  for (int k = 1; k < 32; k++) {
    const uint32_t b = (w[k >> 2] >> ((k & 3) * 8)) & 0xff;
    if (b == prev) {
      run++;
    } else {
      atomicAdd (&wh[prev], run);
      prev = b;
      run = 1;
    }
  }
  atomicAdd (&wh[prev], run);
}

/* Each lane of a warp takes 32 pixels of a different band of rows (lane l
 * reads rows l * ceil (height / 32) ...), so that the lanes of one atomic
 * instruction seldom hold the same value: neighbouring pixels of a photo
 * mostly do, and lanes adding to one bin serialize.  Each lane still reads
 * whole 32-byte sectors.  VEC: rows 16-byte aligned. */
template <bool VEC>
__global__ void
__launch_bounds__ (HIST_THREADS)
histogram_kernel (const uint8_t * __restrict__ src, int pitch, int width,
    int height, uint32_t * __restrict__ hist)
{
  __shared__ uint32_t sh[HIST_WARPS][256];
  uint32_t *wh = sh[threadIdx.x / 32];
  const int lane = threadIdx.x & 31;

  for (int i = threadIdx.x; i < HIST_WARPS * 256; i += HIST_THREADS)
    (&sh[0][0])[i] = 0;
  __syncthreads ();

  const int chunks = (width + 31) / 32;
  const int band = (height + 31) / 32;
  const long long warps_total = (long long) chunks * band;
  const long long nwarps = (long long) gridDim.x * HIST_WARPS;
  for (long long g = (long long) blockIdx.x * HIST_WARPS + threadIdx.x / 32;
      g < warps_total; g += nwarps) {
    const int c = (int) (g % chunks);
    const int y = lane * band + (int) (g / chunks);
    if (y >= height)
      continue;
    const int x0 = c * 32;
    const uint8_t *p = src + (size_t) y * pitch + x0;
    if (VEC && x0 + 32 <= width) {
      const uint4 a = __ldg (reinterpret_cast<const uint4 *>(p));
      const uint4 b = __ldg (reinterpret_cast<const uint4 *>(p) + 1);
      const uint32_t w[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
      hist_add32 (wh, w);
    } else {
      const int n = min (32, width - x0);
      for (int k = 0; k < n; k++)
        atomicAdd (&wh[__ldg (p + k)], 1u);
    }
  }
  __syncthreads ();

  for (int b = threadIdx.x; b < 256; b += HIST_THREADS) {
    uint32_t s = 0;
#pragma unroll
    for (int w = 0; w < HIST_WARPS; w++)
      s += sh[w][b];
    if (s)
      atomicAdd (&hist[b], s);
  }
}

/* Adds the histogram of the plane to @hist (which the caller zeroes). */
static cudaError_t
launch_histogram (const void *src, int pitch, int width, int height,
    uint32_t * hist, cudaStream_t stream)
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
  const long long warps = (long long) ((width + 31) / 32) * ((height + 31) / 32);
  const long long need = (warps + HIST_WARPS - 1) / HIST_WARPS;
  /* A few blocks per SM: enough to hide latency, few merges at the end. */
  const unsigned grid = (unsigned) (need < 4LL * sms ? need : 4LL * sms);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  (void) cudaGetLastError ();
  if (is_aligned (src, pitch, 16))
    histogram_kernel<true><<<grid, HIST_THREADS, 0, stream>>>
        (s, pitch, width, height, hist);
  else
    histogram_kernel<false><<<grid, HIST_THREADS, 0, stream>>>
        (s, pitch, width, height, hist);
  return cudaGetLastError ();
}

}  /* namespace cip */
