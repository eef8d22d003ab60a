/* cudaimgproc: histograms and their picture (histogram.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "histogram.h"

#include "cip_block.cuh"
#include "cip_histogram.cuh"
#include "cip_luma.cuh"

namespace {

/* The picture's column @x of @width, for counts @c whose largest is @m:
 * the test of its pixel k rows from the bottom (1..@height), lit where k
 * is at most the column's height (histogram.h), floor (v H / m) or its
 * log2 form: k <= floor (a / d) is k d <= a for integers, so the column
 * is @a and @d (0: none lit), and a pixel a 64-bit product and a compare,
 * where dividing in doubles was the picture's longest chain (products
 * below 2^48: v below 2^32, the log2 values below 2^22, k and H at most
 * CIP_HIST_PICTURE_MAX, 2^16). */
struct Column
{
  uint64_t a;
  uint32_t d;

  __device__ __forceinline__ bool lit (uint32_t k) const
  {
    return d && (uint64_t) k * d <= a;
  }
};

__device__ __forceinline__ Column
column (const uint32_t * c, uint32_t m, int x, int width, int height,
    int log_scale)
{
  /* 32-bit: x below CIP_HIST_PICTURE_MAX */
  const int b0 = (int) ((unsigned) x * 256u / (unsigned) width);
  const int b1 = max (b0, (int) ((unsigned) (x + 1) * 256u /
          (unsigned) width) - 1);
  uint32_t v = 0;
  for (int b = b0; b <= b1; b++)
    v = max (v, c[b]);
  if (!m)
    return { 0, 0 };
  if (log_scale)
    return { (uint64_t) cip_hist_log2 (1ull + v) * height,
      cip_hist_log2 (1ull + m) };
  return { (uint64_t) v * height, m };
}

/* In the luma histogram's last block, one thread a bin: the frame's
 * counts to the result (and the copies zeroed for the next frame), and the
 * largest, so that the picture's blocks need only their own columns'. */
struct ResultEpilogue
{
  CipHistResult *res;

  __device__ uint32_t operator() (uint32_t * hist) const
  {
    const uint32_t v = cip::hist_take (hist, threadIdx.x);
    res->hist[0][threadIdx.x] = v;
    const uint32_t most = cip::block_max<cip::HIST_EPI_THREADS> (v);
    if (threadIdx.x == 0) {
      res->most[0] = most;
      res->channels = 1;
    }
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
  cip::dependents_may_launch ();        /* the picture (picture_kernel) */
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

/* Loads a lane has in flight before it counts any.  With one 16-byte load
 * a lane (16 KB an SM) the 4K RGBA frame was read at 2.0 TB/s, and a copy
 * needs some 25 KB an SM in flight for its 4.2; with four, 4K took the same
 * (16.56 against 16.68 us on an H200), so the bound is elsewhere
 * (docs/notes/histogram.md). */
constexpr int LUMA_LOADS = 4;

/* Adds @v's luma bin in the block's counts, laid out [bin][lane]: the
 * lanes of one instruction never add to the same word (a smooth picture
 * gives a warp one value), and each lane keeps to its own bank; @col: the
 * lane's column, cip::column_address. */
__device__ __forceinline__ void
count_luma (uint32_t col, uint32_t px, cip::LumaWeights lw)
{
  /* cip::luma_word's sum at twice the weights (bt601): the luma is its
   * third byte, taken by a PRMT, and its counter a LEA away (from the
   * 15-bit sum, a shift, a mask of its fraction and an add) */
  const uint32_t sum = __dp2a_lo (lw.lo, px, __dp2a_hi (lw.hi, px,
          1u << CIP_GRAY_SHIFT));
  cip::shared_inc (col + (__byte_perm (sum, 0, 0x4442) << 7));
}

/* BT.601 (cudagray's default, OpenCV's) with the channels at @ro, @go,
 * @bo, each weight doubled for count_luma (exact: (2 s + 2^15) >> 16 is
 * (s + 2^14) >> 15, and the doubled weights, below 2^16, still fit
 * IDP2A's halves).  Opaque once made: the compiler made them again before
 * every unit's count, 22 instructions for its four pixels (SASS, 4K). */
__device__ __forceinline__ cip::LumaWeights
bt601 (int ro, int go, int bo)
{
  cip::LumaWeights w = cip::luma_weights (2 * CIP_GRAY_BT601_R,
      2 * CIP_GRAY_BT601_G, 2 * CIP_GRAY_BT601_B, ro, go, bo);
  asm ("":"+r" (w.lo), "+r" (w.hi));
  return w;
}

/* The BT.601 luma histogram of packed RGB, the luma made on the way (the
 * frame read once, no GRAY8 plane written), counted as cudaotsu's
 * histogram is (cip_histogram.cuh): a block's counts in shared memory,
 * added to one of the HIST_COPIES copies in @hist, the last block's
 * epilogue summing them into the result.  @VEC: 4-byte pixels, rows
 * 16-byte aligned.  A warp's unit is 32 quads of pixels side by side (512
 * bytes) in a row, @units a row (0 where the row has no quad); a lane
 * loads LUMA_LOADS units' quads before it counts them; the row's last
 * width % 4 pixels are counted apart. */
template <bool VEC>
__global__ void
__launch_bounds__ (LUMA_THREADS, 2)
luma_kernel (const uint8_t * __restrict__ src, int pitch, int width,
    int height, int bpp, int ro, int go, int bo, int units, uint32_t * hist,
    unsigned *sync, ResultEpilogue epi)
{
  __shared__ __align__ (16) uint32_t h[256 * 32];
  const uint32_t col = cip::column_address (h + (threadIdx.x & 31));

  cip::dependents_may_launch ();        /* the picture (picture_kernel) */
  cip::hist_zero<LUMA_THREADS> (h);
  __syncthreads ();
  if (VEC) {
    const cip::LumaWeights lw = bt601 (ro, go, bo);
    constexpr unsigned WARPS = LUMA_THREADS / 32;
    const int quads = width / 4, lane = threadIdx.x & 31;
    const unsigned warps = gridDim.x * WARPS;
    /* the warp's next unit as its row y and its place r in the row,
     * stepped by the launch's warps (dy rows and dr units) without a
     * division */
    const unsigned u0 = blockIdx.x * WARPS + threadIdx.x / 32;
    unsigned y = units ? u0 / (unsigned) units : height;
    unsigned r = u0 - y * units;
    const unsigned dy = units ? warps / (unsigned) units : 0,
        dr = warps - dy * units;
    /* (the next group's loads issued before this one is counted took
     * 4K 14.8 us against 13.4: docs/notes/histogram.md) */
    while (y < (unsigned) height) {
      uint4 v[LUMA_LOADS];
      bool in[LUMA_LOADS];
      /* LUMA_LOADS units' quads, all in flight before any is counted */
#pragma unroll
      for (int k = 0; k < LUMA_LOADS; k++) {
        const int q = r * 32 + lane;
        in[k] = y < (unsigned) height && q < quads;
        if (in[k])
          v[k] = __ldg (reinterpret_cast<const uint4 *>(src +
                  (size_t) y * pitch) + q);
        y += dy;
        r += dr;
        if (r >= (unsigned) units) {
          r -= units;
          y++;
        }
      }
#pragma unroll
      for (int k = 0; k < LUMA_LOADS; k++) {
        if (in[k]) {
          count_luma (col, v[k].x, lw);
          count_luma (col, v[k].y, lw);
          count_luma (col, v[k].z, lw);
          count_luma (col, v[k].w, lw);
        }
      }
    }
    for (int y = blockIdx.x * LUMA_THREADS + threadIdx.x; y < height;
        y += gridDim.x * LUMA_THREADS)
      for (int x = quads * 4; x < width; x++)
        count_luma (col, reinterpret_cast<const uint32_t *>(src +
                (size_t) y * pitch)[x], lw);
  } else {
    for (int y = blockIdx.x; y < height; y += gridDim.x) {
      const uint8_t *row = src + (size_t) y * pitch;
      for (int x = threadIdx.x; x < width; x += LUMA_THREADS) {
        const uint8_t *p = row + (size_t) x * bpp;
        count_luma (col, p[ro] | (uint32_t) p[go] << 8 |
            (uint32_t) p[bo] << 16, bt601 (0, 1, 2));
      }
    }
  }
  if (cip::hist_block_done<LUMA_THREADS> (h, hist, sync, []() {
      }) && threadIdx.x < cip::HIST_EPI_THREADS)
    epi (hist);
}

constexpr int PIC_W = 32, PIC_H = 8;

/* Each block's first row of threads takes its columns' tests (Column),
 * then all draw their pixels (histogram.h).  One histogram: its counts'
 * largest from the result (the histogram's last block took it), and each
 * column's few counts.  Three (cip_hist_rgb, no last block): all the
 * counts into shared memory, and each channel's largest from them.  (Each
 * of the 128 blocks of the default picture reading all 256 counts, every
 * thread one, queued on the few L2 lines that hold them.) */
__global__ void
__launch_bounds__ (PIC_W * PIC_H)
picture_kernel (const CipHistResult * __restrict__ res, int channels,
    int log_scale, uint8_t * dst, int pitch, int width, int height)
{
  __shared__ uint32_t c[3][256];
  __shared__ uint32_t most[3];
  __shared__ Column col[3][PIC_W];
  const int t = threadIdx.y * PIC_W + threadIdx.x;
  const int x = blockIdx.x * PIC_W + threadIdx.x,
      y = blockIdx.y * PIC_H + threadIdx.y;

  /* launched overlapping the histogram's end: its counts, and the last
   * frame's readers of @dst, are done after this */
  cip::wait_for_previous ();
  if (channels == 1) {
    if (threadIdx.y == 0 && x < width)
      col[0][threadIdx.x] = column (res->hist[0], res->most[0], x, width,
          height, log_scale);
  } else {
    for (int i = t; i < 3 * 256; i += PIC_W * PIC_H)
      (&c[0][0])[i] = res->hist[i / 256][i % 256];
    __syncthreads ();
    if (t < 32 * 3) {
      const int ch = t / 32;
      uint32_t m = 0;
      for (int b = t % 32; b < 256; b += 32)
        m = max (m, c[ch][b]);
      m = cip::warp_max (m);
      if (t % 32 == 0)
        most[ch] = m;
    }
    __syncthreads ();
    if (threadIdx.y == 0 && x < width)
      for (int ch = 0; ch < 3; ch++)
        col[ch][threadIdx.x] = column (c[ch], most[ch], x, width, height,
            log_scale);
  }
  __syncthreads ();
  if (x >= width || y >= height)
    return;
  const uint32_t k = height - y;
  uint8_t *p = dst + (size_t) y * pitch;
  if (channels == 1) {
    p[x] = col[0][threadIdx.x].lit (k) ? 255 : 0;
  } else {
    p[4 * x] = col[0][threadIdx.x].lit (k) ? 255 : 0;
    p[4 * x + 1] = col[1][threadIdx.x].lit (k) ? 255 : 0;
    p[4 * x + 2] = col[2][threadIdx.x].lit (k) ? 255 : 0;
    p[4 * x + 3] = 255;
  }
}

}                               /* namespace */

static bool
picture_ok (const void *dst, int pitch, int width, int height, int bpp)
{
  return dst && width >= 1 && height >= 1 && width <= CIP_HIST_PICTURE_MAX &&
      height <= CIP_HIST_PICTURE_MAX && (long long) width * bpp <= pitch;
}

extern "C" cudaError_t
cip_hist_gray (const void *src, int pitch, int width, int height,
    uint32_t * state, CipHistResult * res, cudaStream_t stream)
{
  if (!src || !state || !res || width < 1 || height < 1 || pitch < width)
    return cudaErrorInvalidValue;
  return cip::launch_histogram (src, pitch, width, height, state,
      reinterpret_cast<unsigned *>(state + cip::HIST_COPIES * 256),
      ResultEpilogue { res }, stream);
}

/* Packed pixels' arguments */
static bool
packed_ok (const void *src, int pitch, int width, int height, int bpp,
    int r_off, int g_off, int b_off)
{
  return src && width >= 1 && height >= 1 && (bpp == 3 || bpp == 4) &&
      (long long) width * bpp <= pitch && r_off >= 0 && g_off >= 0 &&
      b_off >= 0 && r_off < bpp && g_off < bpp && b_off < bpp;
}

extern "C" cudaError_t
cip_hist_rgb (const void *src, int pitch, int width, int height, int bpp,
    int r_off, int g_off, int b_off, CipHistResult * res,
    cudaStream_t stream)
{
  if (!packed_ok (src, pitch, width, height, bpp, r_off, g_off, b_off) ||
      !res)
    return cudaErrorInvalidValue;
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  /* the result zeroed in stream order for the blocks' adds */
  const cudaError_t err = cudaMemsetAsync (res, 0, sizeof (*res), stream);
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
    int bpp, int r_off, int g_off, int b_off, uint32_t * state,
    CipHistResult * res, cudaStream_t stream)
{
  if (!packed_ok (src, pitch, width, height, bpp, r_off, g_off, b_off) ||
      !state || !res)
    return cudaErrorInvalidValue;
  const uint8_t *s = static_cast<const uint8_t *>(src);
  const bool vec = bpp == 4 && cip::is_aligned (s, pitch, 16);
  const int units = (width / 4 + 31) / 32;
  /* two blocks an SM, each with its own counters (as cudaotsu's) */
  const int grid = min (height, 2 * cip::sm_count ());
  uint32_t *hist = state;
  unsigned *sync = reinterpret_cast<unsigned *>(state + cip::HIST_COPIES *
      256);
  (void) cudaGetLastError ();
  const ResultEpilogue epi { res };
  if (vec)
    luma_kernel<true> <<< grid, LUMA_THREADS, 0, stream >>> (s, pitch, width,
        height, bpp, r_off, g_off, b_off, units, hist, sync, epi);
  else
    luma_kernel<false> <<< grid, LUMA_THREADS, 0, stream >>> (s, pitch, width,
        height, bpp, r_off, g_off, b_off, units, hist, sync, epi);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cip_hist_picture (const CipHistResult * res, int channels, int log_scale,
    void *dst, int pitch, int width, int height, cudaStream_t stream)
{
  if (!res || (channels != 1 && channels != 3) ||
      !picture_ok (dst, pitch, width, height, channels == 1 ? 1 : 4))
    return cudaErrorInvalidValue;
  const dim3 block (PIC_W, PIC_H), grid ((width + PIC_W - 1) / PIC_W,
      (height + PIC_H - 1) / PIC_H);
  (void) cudaGetLastError ();
  return cip::launch_overlapped (picture_kernel, grid, block, stream, res,
      channels, log_scale, static_cast<uint8_t *>(dst), pitch, width,
      height);
}
