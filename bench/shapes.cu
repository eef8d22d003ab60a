/* cudaimgproc: the floor of a kernel's shape, for the benchmark
 * (`cudaimgproc-bench --only shapes`, docs/notes/histogram.md and
 * gray.md).  The copy bandwidth is the floor of the bytes a kernel
 * moves; these are the floors of what it must also do: one launch that
 * only reads a frame, the same followed by a dependent launch that writes
 * a picture (cudahistogram's two launches, the second overlapping the
 * first's end as cudahistogram's does), or one launch whose last
 * block writes it (the grid-wide dependency inside a launch), and
 * cudagray's packed-RGB memory pattern with no arithmetic.  None of them
 * computes anything a user wants.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "shapes.h"

#include "cip_pointwise.cuh"

namespace {

constexpr int T = 256, LOADS = 4;
constexpr unsigned MAGIC = 0x9e3779b9u;

/* A thread's LOADS 16-byte units, T apart: the frame read once, the
 * loads in flight together; the XOR kept alive by a store that (almost)
 * never happens. */
__device__ __forceinline__ unsigned
read_units (const uint8_t * __restrict__ src, int pitch, unsigned vecs,
    unsigned total)
{
  const unsigned base = blockIdx.x * T * LOADS + threadIdx.x;
  uint4 v[LOADS];
  bool in[LOADS];
#pragma unroll
  for (int j = 0; j < LOADS; j++) {
    const unsigned k = base + j * T, y = k / vecs;
    in[j] = k < total;
    if (in[j])
      v[j] = __ldg (reinterpret_cast<const uint4 *>(src +
              (size_t) y * pitch) + (k - y * vecs));
  }
  unsigned acc = 0;
#pragma unroll
  for (int j = 0; j < LOADS; j++)
    if (in[j])
      acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  return acc;
}

__global__ void __launch_bounds__ (T)
read_kernel (const uint8_t * __restrict__ src, int pitch, unsigned vecs,
    unsigned total, unsigned *sink)
{
  cip::dependents_may_launch ();        /* the picture (picture_kernel) */
  if (read_units (src, pitch, vecs, total) == MAGIC)
    sink[0] = MAGIC;
}

/* @n 16-byte units of @pic, each the word the read left */
__global__ void __launch_bounds__ (T)
picture_kernel (const unsigned *sink, uint4 * pic, int n)
{
  const int k = blockIdx.x * T + threadIdx.x;
  cip::wait_for_previous ();    /* the read has ended */
  if (k < n) {
    const unsigned v = sink[0];
    pic[k] = make_uint4 (v, v, v, v);
  }
}

/* The read, then the last block to finish draws the picture alone: a
 * ticket taken by an acquire-release atomic (as cip_histogram.cuh's
 * hist_block_done takes it), and 16-byte stores from its T threads. */
__global__ void __launch_bounds__ (T)
read_last_kernel (const uint8_t * __restrict__ src, int pitch,
    unsigned vecs, unsigned total, unsigned *sink, uint4 * pic, int n)
{
  __shared__ bool last;
  if (read_units (src, pitch, vecs, total) == MAGIC)
    sink[0] = MAGIC;
  __syncthreads ();
  if (threadIdx.x == 0) {
    unsigned arrived;
    /* wraps to 0 after the last block: ready for the next frame */
    asm volatile ("atom.acq_rel.gpu.inc.u32 %0, [%1], %2;":"=r" (arrived)
        :"l" (sink + 1), "r" (gridDim.x - 1):"memory");
    last = arrived == gridDim.x - 1;
  }
  __syncthreads ();
  if (last) {
    const unsigned v = *(volatile unsigned *) sink;
    for (int k = threadIdx.x; k < n; k += T)
      pic[k] = make_uint4 (v, v, v, v);
  }
}

/* 16 packed RGB pixels a thread in (three 16-byte loads), 16 bytes out
 * (a byte of each pixel, no luma): cudagray's memory, not its work */
__global__ void __launch_bounds__ (T)
gray_kernel (const uint8_t * __restrict__ src, int spitch, uint8_t * dst,
    int dpitch, int w, int h)
{
  const int groups = w / 16;
  const int k = blockIdx.x * T + threadIdx.x, y = k / groups,
      q = k - y * groups;
  if (y >= h)
    return;
  const uint4 *in = reinterpret_cast<const uint4 *>(src +
      (size_t) y * spitch) + 3 * q;
  const uint4 a = __ldg (in), b = __ldg (in + 1), c = __ldg (in + 2);
  const unsigned wd[12] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x,
    c.y, c.z, c.w
  };
  unsigned o[4];
#pragma unroll
  for (int j = 0; j < 4; j++)
    o[j] = (wd[3 * j] & 0xffu) | (wd[3 * j] >> 24) << 8 |
        (wd[3 * j + 1] >> 16 & 0xffu) << 16 |
        (wd[3 * j + 2] >> 8 & 0xffu) << 24;
  reinterpret_cast<uint4 *>(dst + (size_t) y * dpitch)[q] =
      make_uint4 (o[0], o[1], o[2], o[3]);
}

unsigned
read_blocks (unsigned total)
{
  return (total + T * LOADS - 1) / (T * LOADS);
}

}                               /* namespace */

extern "C" cudaError_t
shape_read (const uint8_t * src, int pitch, int row_bytes, int h,
    unsigned *sink, int picture, uint8_t * pic, int pic_bytes,
    cudaStream_t stream)
{
  if (row_bytes % 16 || pic_bytes % 16 || h < 1)
    return cudaErrorInvalidValue;
  const unsigned vecs = row_bytes / 16, total = vecs * h;
  (void) cudaGetLastError ();
  if (picture == SHAPE_LAST_BLOCK) {
    read_last_kernel <<< read_blocks (total), T, 0, stream >>> (src, pitch,
        vecs, total, sink, reinterpret_cast<uint4 *>(pic), pic_bytes / 16);
    return cudaGetLastError ();
  }
  read_kernel <<< read_blocks (total), T, 0, stream >>> (src, pitch, vecs,
      total, sink);
  if (picture == SHAPE_SECOND_LAUNCH) {
    const cudaError_t err = cudaGetLastError ();
    if (err != cudaSuccess)
      return err;
    return cip::launch_overlapped (picture_kernel, (pic_bytes / 16 + T - 1) /
        T, T, stream, (const unsigned *) sink,
        reinterpret_cast<uint4 *>(pic), pic_bytes / 16);
  }
  return cudaGetLastError ();
}

extern "C" cudaError_t
shape_gray (const uint8_t * src, int spitch, uint8_t * dst, int dpitch,
    int w, int h, cudaStream_t stream)
{
  if (w % 16 || h < 1 || spitch % 16 || dpitch % 16)
    return cudaErrorInvalidValue;
  (void) cudaGetLastError ();
  const unsigned threads = (unsigned) (w / 16) * h;
  gray_kernel <<< (threads + T - 1) / T, T, 0, stream >>> (src, spitch, dst,
      dpitch, w, h);
  return cudaGetLastError ();
}
