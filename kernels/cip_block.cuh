/* cudaimgproc: device-side building blocks: warp and block scans and
 * reductions.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace cip {

template <class T>
__device__ __forceinline__ T
warp_inclusive_scan (T v)
{
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const T n = __shfl_up_sync (0xffffffffu, v, o);
    if (lane >= o)
      v += n;
  }
  return v;
}

/* Warp-wide maximum, in every lane (one instruction from sm_80 on). */
__device__ __forceinline__ unsigned
warp_max (unsigned v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync (0xffffffffu, v);
#else
#pragma unroll
  for (int o = 16; o; o >>= 1)
    v = max (v, __shfl_xor_sync (0xffffffffu, v, o));
  return v;
#endif
}

/* 64 bits: the high words' maximum, then the low words' among the lanes
 * that hold it */
__device__ __forceinline__ unsigned long long
warp_max (unsigned long long v)
{
  const unsigned hi = warp_max ((unsigned) (v >> 32));
  const unsigned lo = warp_max ((unsigned) (v >> 32) == hi ? (unsigned) v :
      0u);
  return (unsigned long long) hi << 32 | lo;
}

/* Inclusive scan over a block of NT threads (NT a multiple of 32, all
 * threads call it). */
template <int NT, class T>
__device__ __forceinline__ T
block_inclusive_scan (T v)
{
  __shared__ T warp_sums[NT / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_inclusive_scan (v);
  if (lane == 31)
    warp_sums[warp] = v;
  __syncthreads ();
  T add = 0;
  for (int w = 0; w < warp; w++)
    add += warp_sums[w];
  __syncthreads ();
  return v + add;
}

/* Two inclusive scans at once over a block of NT threads, with the totals
 * (of @b): one barrier.  Warp-level shuffles, then each thread adds the
 * totals of the warps before it. */
template <int NT, class T>
__device__ __forceinline__ void
block_inclusive_scan2 (T & a, T & b, T & b_total)
{
  __shared__ T sums[2][NT / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const T na = __shfl_up_sync (0xffffffffu, a, o);
    const T nb = __shfl_up_sync (0xffffffffu, b, o);
    if (lane >= o) {
      a += na;
      b += nb;
    }
  }
  if (lane == 31) {
    sums[0][warp] = a;
    sums[1][warp] = b;
  }
  __syncthreads ();
  T add_a = 0, add_b = 0, tot = 0;
#pragma unroll
  for (int w = 0; w < NT / 32; w++) {
    if (w < warp) {
      add_a += sums[0][w];
      add_b += sums[1][w];
    }
    tot += sums[1][w];
  }
  a += add_a;
  b += add_b;
  b_total = tot;
}

/* Block-wide maximum of (value, index): larger value wins, ties go to the
 * lower index.  Every thread gets the result. */
template <int NT>
__device__ __forceinline__ void
block_argmax (double &v, int &idx)
{
  __shared__ double sv[NT / 32];
  __shared__ int si[NT / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int o = 16; o; o >>= 1) {
    const double ov = __shfl_down_sync (0xffffffffu, v, o);
    const int oi = __shfl_down_sync (0xffffffffu, idx, o);
    if (ov > v || (ov == v && oi < idx)) {
      v = ov;
      idx = oi;
    }
  }
  if (!lane) {
    sv[warp] = v;
    si[warp] = idx;
  }
  __syncthreads ();
  v = sv[0];
  idx = si[0];
  for (int w = 1; w < NT / 32; w++)
    if (sv[w] > v || (sv[w] == v && si[w] < idx)) {
      v = sv[w];
      idx = si[w];
    }
  __syncthreads ();
}

}  /* namespace cip */
