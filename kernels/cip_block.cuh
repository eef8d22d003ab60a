/* cudaimgproc: device-side building blocks: warp and block scans and
 * reductions.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

/* Threads an SM holds, for a __launch_bounds__ that asks for as many
 * blocks as fit and no more (ptxas ignores a bound past them, with a
 * warning): compute capability 7.5 1024; 8.0, 9.0 and 10.x 2048; the
 * others of this decade 1536.  Only the device passes read it. */
#if !defined (__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || \
    __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030
#define CIP_SM_THREADS 2048
#elif __CUDA_ARCH__ == 750
#define CIP_SM_THREADS 1024
#else
#define CIP_SM_THREADS 1536
#endif

namespace cip {

/* The block-wide steps below synchronise the first NT threads of the
 * block (NT a multiple of 32, all of them calling) on barrier 1, not the
 * whole block on barrier 0 as __syncthreads () does: a larger block's
 * other threads may be elsewhere (the histogram's last block runs the
 * 256-thread Otsu epilogue in the first 256 of its 512 threads; with all
 * 512 in it, the frame took 0.6 us longer at 4K on an H200). */
template <int NT>
__device__ __forceinline__ void
block_barrier ()
{
  static_assert (NT % 32 == 0, "whole warps");
  asm volatile ("bar.sync 1, %0;"::"n" (NT):"memory");
}

/* block_barrier, and whether @c held in any of the NT threads */
template <int NT>
__device__ __forceinline__ bool
block_barrier_or (bool c)
{
  static_assert (NT % 32 == 0, "whole warps");
  unsigned r;
  asm volatile ("{\n\t.reg .pred p, q;\n\t"
      "setp.ne.u32 p, %1, 0;\n\t"
      "bar.red.or.pred q, 1, %2, p;\n\t"
      "selp.u32 %0, 1, 0, q;\n\t}":"=r" (r):"r" ((unsigned) c), "n" (NT)
      :"memory");
  return r != 0;
}

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

/* @op over the warp's @v, in every lane: the butterfly that one redux
 * instruction does from sm_80 on */
template <class Op>
__device__ __forceinline__ unsigned
warp_butterfly (unsigned v, Op op)
{
#pragma unroll
  for (int o = 16; o; o >>= 1)
    v = op (v, __shfl_xor_sync (0xffffffffu, v, o));
  return v;
}

/* Warp-wide maximum, in every lane (one instruction from sm_80 on). */
__device__ __forceinline__ unsigned
warp_max (unsigned v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync (0xffffffffu, v);
#else
  auto op = [](unsigned a, unsigned b) { return max (a, b); };
  return warp_butterfly (v, op);
#endif
}

/* Warp-wide minimum, in every lane */
__device__ __forceinline__ unsigned
warp_min (unsigned v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_min_sync (0xffffffffu, v);
#else
  return ~warp_max (~v);
#endif
}

/* The sum of the indices of @m's set bits (of the lanes in a warp's
 * mask): each bit of an index counted where it is set, with no loop over
 * the lanes */
__device__ __forceinline__ unsigned
index_sum (unsigned m)
{
  return __popc (m & 0xaaaaaaaau) + 2 * __popc (m & 0xccccccccu) +
      4 * __popc (m & 0xf0f0f0f0u) + 8 * __popc (m & 0xff00ff00u) +
      16 * __popc (m & 0xffff0000u);
}

/* Warp-wide sum (modulo 2^32), in every lane */
__device__ __forceinline__ unsigned
warp_sum (unsigned v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync (0xffffffffu, v);
#else
  auto op = [](unsigned a, unsigned b) { return a + b; };
  return warp_butterfly (v, op);
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

/* Inclusive scan over the first NT threads of the block, and the total in
 * every thread: one barrier (call again only after another barrier). */
template <int NT, class T>
__device__ __forceinline__ T
block_inclusive_scan_total (T v, T & total)
{
  __shared__ T warp_sums[NT / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_inclusive_scan (v);
  if (lane == 31)
    warp_sums[warp] = v;
  block_barrier<NT> ();
  T add = 0, tot = 0;
#pragma unroll
  for (int w = 0; w < NT / 32; w++) {
    if (w < warp)
      add += warp_sums[w];
    tot += warp_sums[w];
  }
  total = tot;
  return v + add;
}

/* Inclusive scan over the first NT threads of the block (block_barrier),
 * callable again at once. */
template <int NT, class T>
__device__ __forceinline__ T
block_inclusive_scan (T v)
{
  T total;
  v = block_inclusive_scan_total<NT> (v, total);
  block_barrier<NT> ();
  return v;
}

/* Two inclusive scans at once over the first NT threads of the block, with
 * the totals (of @b): one barrier.  Warp-level shuffles, then each thread
 * adds the totals of the warps before it. */
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
  block_barrier<NT> ();
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

/* Maximum of @v over the first NT threads of the block, in every thread;
 * callable again at once. */
template <int NT>
__device__ __forceinline__ unsigned
block_max (unsigned v)
{
  __shared__ unsigned most[NT / 32];
  v = warp_max (v);
  if ((threadIdx.x & 31) == 0)
    most[threadIdx.x >> 5] = v;
  block_barrier<NT> ();
#pragma unroll
  for (int w = 0; w < NT / 32; w++)
    v = max (v, most[w]);
  block_barrier<NT> ();
  return v;
}

/* Maximum of (value, index) over the first NT threads of the block: larger
 * value wins, ties go to the lower index.  Every thread gets the result. */
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
  block_barrier<NT> ();
  v = sv[0];
  idx = si[0];
  for (int w = 1; w < NT / 32; w++)
    if (sv[w] > v || (sv[w] == v && si[w] < idx)) {
      v = sv[w];
      idx = si[w];
    }
  block_barrier<NT> ();
}

}  /* namespace cip */
