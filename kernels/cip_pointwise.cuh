/* cudaimgproc: device-side building block for pointwise (per-pixel) maps.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One thread maps PX consecutive pixels of one row: it loads PX * IN_BPP
 * bytes with the widest vector the alignment allows, hands them to a functor
 * as a register array, and stores PX * OUT_BPP bytes the same way.  The grid
 * is flattened over (row, pixel group) so that narrow frames (1x1, 3x2) and
 * wide ones fill blocks equally.  The ragged end of a row (width not a
 * multiple of PX) takes a byte-wise path in the same thread.
 */
#pragma once

#include <cstdint>
#include <utility>
#include <cuda_runtime.h>

#include "cip_block.cuh"

namespace cip {

/* Widest power-of-two access (<= 16 bytes) that divides n. */
__host__ __device__ constexpr int
vec_width (int n)
{
  return (n % 16 == 0) ? 16 : (n % 8 == 0) ? 8 : (n % 4 == 0) ? 4 :
      (n % 2 == 0) ? 2 : 1;
}

template <int N>
__device__ __forceinline__ void
load_bytes (const uint8_t * __restrict__ p, uint8_t (&b)[N])
{
  constexpr int W = vec_width (N);
  if constexpr (W == 16) {
#pragma unroll
    for (int i = 0; i < N / 16; i++)
      reinterpret_cast<uint4 *>(b)[i] = __ldg (reinterpret_cast<const uint4 *>(p) + i);
  } else if constexpr (W == 8) {
#pragma unroll
    for (int i = 0; i < N / 8; i++)
      reinterpret_cast<uint2 *>(b)[i] = __ldg (reinterpret_cast<const uint2 *>(p) + i);
  } else if constexpr (W == 4) {
#pragma unroll
    for (int i = 0; i < N / 4; i++)
      reinterpret_cast<uint32_t *>(b)[i] = __ldg (reinterpret_cast<const uint32_t *>(p) + i);
  } else {
#pragma unroll
    for (int i = 0; i < N; i++)
      b[i] = __ldg (p + i);
  }
}

template <int N>
__device__ __forceinline__ void
store_bytes (uint8_t * __restrict__ p, const uint8_t (&b)[N])
{
  constexpr int W = vec_width (N);
  if constexpr (W == 16) {
#pragma unroll
    for (int i = 0; i < N / 16; i++)
      reinterpret_cast<uint4 *>(p)[i] = reinterpret_cast<const uint4 *>(b)[i];
  } else if constexpr (W == 8) {
#pragma unroll
    for (int i = 0; i < N / 8; i++)
      reinterpret_cast<uint2 *>(p)[i] = reinterpret_cast<const uint2 *>(b)[i];
  } else if constexpr (W == 4) {
#pragma unroll
    for (int i = 0; i < N / 4; i++)
      reinterpret_cast<uint32_t *>(p)[i] = reinterpret_cast<const uint32_t *>(b)[i];
  } else {
#pragma unroll
    for (int i = 0; i < N; i++)
      p[i] = b[i];
  }
}

/* F: struct with
 *   __device__ void operator() (const uint8_t (&in)[PX * IN_BPP],
 *                               uint8_t (&out)[PX * OUT_BPP]) const;
 * It must map each pixel independently (the tail path feeds it a partly
 * filled array and keeps only the valid pixels). */
template <int IN_BPP, int OUT_BPP, int PX, bool VEC, class F>
__global__ void
/* as many blocks as an SM holds: 32 registers where it holds 2048
 * threads (cudagray's RGB kernel took 64, half the SM, with the ragged
 * end's bytes in registers and the scale's test in every pixel) */
__launch_bounds__ (256, CIP_SM_THREADS / 256)
map_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    int groups_per_row, F f)
{
  const long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long) groups_per_row * height)
    return;
  const int y = (int) (t / groups_per_row);
  const int x0 = (int) (t - (long long) y * groups_per_row) * PX;
  const uint8_t *s = src + (size_t) y * src_pitch + (size_t) x0 * IN_BPP;
  uint8_t *d = dst + (size_t) y * dst_pitch + (size_t) x0 * OUT_BPP;

  if (VEC && x0 + PX <= width) {
    __align__ (16) uint8_t in[PX * IN_BPP];
    __align__ (16) uint8_t out[PX * OUT_BPP];
    load_bytes<PX * IN_BPP> (s, in);
    f (in, out);
    store_bytes<PX * OUT_BPP> (d, out);
    return;
  }

  /* a row's ragged end, one thread a row: its pixels through local
   * memory (indexed, not unrolled), so that this path's registers are not
   * the kernel's */
  __align__ (16) uint8_t in[PX * IN_BPP];
  __align__ (16) uint8_t out[PX * OUT_BPP];
  const int n = min (PX, width - x0);
#pragma unroll 1
  for (int i = 0; i < PX * IN_BPP; i++)
    in[i] = (i < n * IN_BPP) ? __ldg (s + i) : 0;
  f (in, out);
#pragma unroll
  for (int i = 0; i < PX * OUT_BPP; i++)
    if (i < n * OUT_BPP)
      d[i] = out[i];
}

static inline bool
is_aligned (const void *p, int pitch, int align)
{
  return ((uintptr_t) p % align) == 0 && (pitch % align) == 0;
}

/* Devices whose properties are kept once asked (a process may drive GPUs
 * of different sizes); any beyond are asked every time. */
constexpr int MAX_DEVICES = 64;

static inline int
current_device ()
{
  int dev = 0;
  return cudaGetDevice (&dev) == cudaSuccess && dev >= 0 ? dev : 0;
}

/* Attribute @A of the current device, kept per device once asked; 0
 * where it cannot be asked (that is not kept). */
template <cudaDeviceAttr A>
static int
device_attribute ()
{
  static int value[MAX_DEVICES];
  const int dev = current_device ();
  if (dev < MAX_DEVICES && value[dev])
    return value[dev];
  int v = 0;
  if (cudaDeviceGetAttribute (&v, A, dev) != cudaSuccess || v <= 0)
    return 0;
  if (dev < MAX_DEVICES)
    value[dev] = v;
  return v;
}

/* SMs of the current device, for sizing grids (16 where it cannot be
 * asked). */
static inline int
sm_count ()
{
  const int n = device_attribute<cudaDevAttrMultiProcessorCount> ();
  return n > 0 ? n : 16;
}

/* Programmatic dependent launch (compute capability 9.0 on): a kernel
 * launched by launch_overlapped may start while the kernel before it in
 * the stream finishes, once that one's blocks have all called
 * dependents_may_launch (or ended); it must call wait_for_previous before
 * it reads or writes anything the previous kernel touches, and that wait
 * returns when the previous kernel has finished and its writes are
 * visible.  What it saves is the gap between two small launches: the
 * second's blocks are already resident when the first ends.  Before 9.0
 * both are no-ops and the launch is an ordinary one. */
__device__ __forceinline__ void
dependents_may_launch ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.launch_dependents;");
#endif
}

__device__ __forceinline__ void
wait_for_previous ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.wait;":::"memory");
#endif
}

/* Whether the current device has programmatic dependent launch */
static inline bool
overlapped_launch_ok ()
{
  return device_attribute<cudaDevAttrComputeCapabilityMajor> () >= 9;
}

/* Launches @kernel (@args) so that it may overlap the end of the kernel
 * before it in @stream (above); an ordinary launch where the device cannot.
 * Returns the launch error. */
template <class... Params, class... Args>
static cudaError_t
launch_overlapped (void (*kernel) (Params...), dim3 grid, dim3 block,
    cudaStream_t stream, Args &&... args)
{
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = { };
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 0;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = overlapped_launch_ok () ? 1 : 0;
  return cudaLaunchKernelEx (&cfg, kernel, std::forward<Args> (args)...);
}

/* Launch map_kernel on a pitched frame; returns the launch error. */
template <int IN_BPP, int OUT_BPP, int PX, class F>
static cudaError_t
launch_map (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, F f, cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaErrorInvalidValue;
  const int groups = (width + PX - 1) / PX;
  const long long total = (long long) groups * height;
  const int block = 256;
  const unsigned grid = (unsigned) ((total + block - 1) / block);
  const bool vec = is_aligned (src, src_pitch, vec_width (PX * IN_BPP)) &&
      is_aligned (dst, dst_pitch, vec_width (PX * OUT_BPP));
  const uint8_t *s = static_cast<const uint8_t *>(src);
  uint8_t *d = static_cast<uint8_t *>(dst);
  /* Drop a stale error of an earlier runtime call (already reported by its
   * own return value) so the check below speaks of this launch alone;
   * sticky errors survive this and are still reported. */
  (void) cudaGetLastError ();
  if (vec)
    map_kernel<IN_BPP, OUT_BPP, PX, true><<<grid, block, 0, stream>>>
        (s, src_pitch, d, dst_pitch, width, height, groups, f);
  else
    map_kernel<IN_BPP, OUT_BPP, PX, false><<<grid, block, 0, stream>>>
        (s, src_pitch, d, dst_pitch, width, height, groups, f);
  return cudaGetLastError ();
}

}  /* namespace cip */
