/* cudaimgproc: histograms and their picture (histogram.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "histogram.h"

#include "cip_histogram.cuh"

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

extern "C" cudaError_t
cip_hist_rgb (const void *src, int pitch, int width, int height, int bpp,
    int r_off, int g_off, int b_off, CipHistResult * res,
    cudaStream_t stream)
{
  if (!src || !res || width < 1 || height < 1 || (bpp != 3 && bpp != 4) ||
      pitch < width * bpp || r_off < 0 || g_off < 0 || b_off < 0 ||
      r_off >= bpp || g_off >= bpp || b_off >= bpp)
    return cudaErrorInvalidValue;
  cudaError_t err = cudaMemsetAsync (res, 0, sizeof (*res), stream);
  if (err != cudaSuccess)
    return err;
  const int grid = min (height, 1024);
  rgb_kernel <<< grid, RGB_THREADS, 0, stream >>> (
      static_cast<const uint8_t *>(src), pitch, width, height, bpp, r_off,
      g_off, b_off, res);
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
