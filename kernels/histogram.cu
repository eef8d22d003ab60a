/* cudaimgproc: histograms and their picture (histogram.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "histogram.h"

#include "cip_histogram.cuh"
#include "cip_luma.cuh"

namespace {

/* In the luma histogram's last block, one thread a bin: the frame's
 * counts to the result (and the copies zeroed for the next frame). */
struct ResultEpilogue
{
  CipHistResult *res;

  __device__ uint32_t operator() (uint32_t * hist) const
  {
    res->hist[0][threadIdx.x] = cip::hist_take (hist, threadIdx.x);
    if (threadIdx.x == 0)
      res->channels = 1;
    return 0;
  }
};

constexpr int RGB_THREADS = 256;

/* A block's rows counted in shared memory, then added to the frame's. */
__global__ void
__launch_bounds__ (RGB_THREADS)
rgb_kernel (const uint8_t * __restrict__ src, int pitch, int width,
    int height, int bpp, int ro, int go, int bo, CipHistResult * res)
{
  __shared__ uint32_t h[3][256];
  for (int i = threadIdx.x; i < 3 * 256; i += RGB_THREADS)
    (&h[0][0])[i] = 0;
  __syncthreads ();
  for (int y = blockIdx.x; y < height; y += gridDim.x) {
    const uint8_t *row = src + (size_t) y * pitch;
    for (int x = threadIdx.x; x < width; x += RGB_THREADS) {
      const uint8_t *p = row + (size_t) x * bpp;
      atomicAdd (&h[0][p[ro]], 1u);
      atomicAdd (&h[1][p[go]], 1u);
      atomicAdd (&h[2][p[bo]], 1u);
    }
  }
  __syncthreads ();
  for (int i = threadIdx.x; i < 3 * 256; i += RGB_THREADS) {
    const uint32_t c = (&h[0][0])[i];
    if (c)
      atomicAdd (&res->hist[0][0] + i, c);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    res->channels = 3;
}

constexpr int LUMA_THREADS = 512;

/* Adds @v's luma bin in the block's counts, laid out [bin][lane]: the
 * lanes of one instruction never add to the same word (a smooth picture
 * gives a warp one value), and each lane keeps to its own bank. */
__device__ __forceinline__ void
count_luma (uint32_t (*h)[32], int lane, uint32_t px, int rs, int gs, int bs)
{
  const int y = cip::luma ((px >> rs) & 0xff, (px >> gs) & 0xff,
      (px >> bs) & 0xff, CIP_GRAY_BT601_R, CIP_GRAY_BT601_G, CIP_GRAY_BT601_B);
  atomicAdd (&h[y][lane], 1u);
}

/* The BT.601 luma histogram of packed RGB, the luma made on the way (the
 * frame read once, no GRAY8 plane written): a block's rows counted in
 * shared memory, then added to the frame's.  @VEC: 4-byte pixels, rows
 * 16-byte aligned, read four pixels at a time. */
template <bool VEC>
__global__ void
__launch_bounds__ (LUMA_THREADS)
luma_kernel (const uint8_t * __restrict__ src, int pitch, int width,
    int height, int bpp, int ro, int go, int bo, CipHistResult * res)
{
  __shared__ uint32_t h[256][32];
  const int lane = threadIdx.x & 31;
  for (int i = threadIdx.x; i < 256 * 32; i += LUMA_THREADS)
    (&h[0][0])[i] = 0;
  __syncthreads ();
  for (int y = blockIdx.x; y < height; y += gridDim.x) {
    const uint8_t *row = src + (size_t) y * pitch;
    if (VEC) {
      const int quads = width / 4;
      for (int q = threadIdx.x; q < quads; q += LUMA_THREADS) {
        const uint4 v = reinterpret_cast<const uint4 *>(row)[q];
        count_luma (h, lane, v.x, ro * 8, go * 8, bo * 8);
        count_luma (h, lane, v.y, ro * 8, go * 8, bo * 8);
        count_luma (h, lane, v.z, ro * 8, go * 8, bo * 8);
        count_luma (h, lane, v.w, ro * 8, go * 8, bo * 8);
      }
      for (int x = quads * 4 + threadIdx.x; x < width; x += LUMA_THREADS)
        count_luma (h, lane, reinterpret_cast<const uint32_t *>(row)[x],
            ro * 8, go * 8, bo * 8);
    } else {
      for (int x = threadIdx.x; x < width; x += LUMA_THREADS) {
        const uint8_t *p = row + (size_t) x * bpp;
        count_luma (h, lane, p[ro] | (uint32_t) p[go] << 8 |
            (uint32_t) p[bo] << 16, 0, 8, 16);
      }
    }
  }
  __syncthreads ();
  /* a bin's 32 lanes, read diagonally: one bank per lane */
  for (int b = threadIdx.x; b < 256; b += LUMA_THREADS) {
    uint32_t c = 0;
    for (int l = 0; l < 32; l++)
      c += h[b][(l + b) & 31];
    if (c)
      atomicAdd (&res->hist[0][b], c);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    res->channels = 1;
}

constexpr int PIC_W = 32, PIC_H = 8;

/* Each block takes the counts and each channel's largest into shared
 * memory, then draws its pixels (histogram.h). */
__global__ void
__launch_bounds__ (PIC_W * PIC_H)
picture_kernel (const CipHistResult * __restrict__ res, int channels,
    int log_scale, uint8_t * dst, int pitch, int width, int height)
{
  __shared__ uint32_t c[3][256];
  __shared__ uint32_t most[3];
  const int t = threadIdx.y * PIC_W + threadIdx.x;

  for (int i = t; i < channels * 256; i += PIC_W * PIC_H)
    (&c[0][0])[i] = res->hist[i / 256][i % 256];
  __syncthreads ();
  if (t < 32 * channels) {
    const int ch = t / 32, lane = t % 32;
    uint32_t m = 0;
    for (int b = lane; b < 256; b += 32)
      m = max (m, c[ch][b]);
    for (int o = 16; o; o >>= 1)
      m = max (m, __shfl_xor_sync (0xffffffffu, m, o));
    if (lane == 0)
      most[ch] = m;
  }
  __syncthreads ();
  const int x = blockIdx.x * PIC_W + threadIdx.x,
      y = blockIdx.y * PIC_H + threadIdx.y;
  if (x >= width || y >= height)
    return;
  const int b0 = (int) ((long long) x * 256 / width);
  const int b1 = max (b0, (int) ((long long) (x + 1) * 256 / width) - 1);
  uint8_t lit[3] = { 0, 0, 0 };
  for (int ch = 0; ch < channels; ch++) {
    uint32_t v = 0;
    for (int b = b0; b <= b1; b++)
      v = max (v, c[ch][b]);
    const uint32_t m = most[ch];
    uint64_t hgt = 0;
    if (m && log_scale)
      hgt = (uint64_t) cip_hist_log2 (1ull + v) * height /
          cip_hist_log2 (1ull + m);
    else if (m)
      hgt = (uint64_t) v * height / m;
    lit[ch] = (uint64_t) (height - y) <= hgt ? 255 : 0;
  }
  uint8_t *p = dst + (size_t) y * pitch;
  if (channels == 1) {
    p[x] = lit[0];
  } else {
    p[4 * x] = lit[0];
    p[4 * x + 1] = lit[1];
    p[4 * x + 2] = lit[2];
    p[4 * x + 3] = 255;
  }
}

}                               /* namespace */

extern "C" cudaError_t
cip_hist_gray (const void *src, int pitch, int width, int height,
    uint32_t * state, CipHistResult * res, cudaStream_t stream)
{
  if (!src || !state || !res || width < 1 || height < 1 || pitch < width)
    return cudaErrorInvalidValue;
  return cip::launch_histogram (src, pitch, width, height, state,
      reinterpret_cast<unsigned *>(state + 16 * 256), ResultEpilogue { res },
      stream);
}

/* Packed pixels' arguments checked, and the result zeroed in stream order
 * for the blocks' adds. */
static cudaError_t
packed_start (const void *src, int pitch, int width, int height, int bpp,
    int r_off, int g_off, int b_off, CipHistResult * res, cudaStream_t stream)
{
  if (!src || !res || width < 1 || height < 1 || (bpp != 3 && bpp != 4) ||
      pitch < width * bpp || r_off < 0 || g_off < 0 || b_off < 0 ||
      r_off >= bpp || g_off >= bpp || b_off >= bpp)
    return cudaErrorInvalidValue;
  return cudaMemsetAsync (res, 0, sizeof (*res), stream);
}

extern "C" cudaError_t
cip_hist_rgb (const void *src, int pitch, int width, int height, int bpp,
    int r_off, int g_off, int b_off, CipHistResult * res,
    cudaStream_t stream)
{
  cudaError_t err = packed_start (src, pitch, width, height, bpp, r_off,
      g_off, b_off, res, stream);
  if (err != cudaSuccess)
    return err;
  const int grid = min (height, 1024);
  rgb_kernel <<< grid, RGB_THREADS, 0, stream >>> (
      static_cast<const uint8_t *>(src), pitch, width, height, bpp, r_off,
      g_off, b_off, res);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cip_hist_luma_packed (const void *src, int pitch, int width, int height,
    int bpp, int r_off, int g_off, int b_off, CipHistResult * res,
    cudaStream_t stream)
{
  cudaError_t err = packed_start (src, pitch, width, height, bpp, r_off,
      g_off, b_off, res, stream);
  if (err != cudaSuccess)
    return err;
  /* two blocks an SM: few enough that the blocks' adds to the frame's 256
   * counts stay cheap (each block adds every bin it saw) */
  const int grid = min (height, 2 * cip::sm_count ());
  const uint8_t *s = static_cast<const uint8_t *>(src);
  if (bpp == 4 && !(reinterpret_cast<uintptr_t>(s) & 15) && !(pitch & 15))
    luma_kernel<true> <<< grid, LUMA_THREADS, 0, stream >>> (s, pitch, width,
        height, bpp, r_off, g_off, b_off, res);
  else
    luma_kernel<false> <<< grid, LUMA_THREADS, 0, stream >>> (s, pitch, width,
        height, bpp, r_off, g_off, b_off, res);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cip_hist_picture (const CipHistResult * res, int channels, int log_scale,
    void *dst, int pitch, int width, int height, cudaStream_t stream)
{
  if (!res || !dst || (channels != 1 && channels != 3) || width < 1 ||
      height < 1 || pitch < width * (channels == 1 ? 1 : 4))
    return cudaErrorInvalidValue;
  const dim3 block (PIC_W, PIC_H), grid ((width + PIC_W - 1) / PIC_W,
      (height + PIC_H - 1) / PIC_H);
  picture_kernel <<< grid, block, 0, stream >>> (res, channels, log_scale,
      static_cast<uint8_t *>(dst), pitch, width, height);
  return cudaGetLastError ();
}
