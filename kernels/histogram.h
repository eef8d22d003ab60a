/* cudaimgproc: a frame's histogram, and the histogram as a picture
 * (cudahistogram).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain C launchers (no GLib, no GStreamer): device pointers, pitches in
 * bytes, a stream; they return the launch's cudaError_t.
 *
 * The luma histogram is cudaotsu's (cip_histogram.cuh: one launch, the
 * counts written out by its last block), of a GRAY8 plane or of packed
 * RGB's luma made on the way; the three channel histograms of packed RGB
 * count in shared memory, a block's at a time.
 *
 * The picture (tests/cpu_ref.c, ref_histogram_picture defines it), W x H:
 *  - column x shows bins b0 = x * 256 / W to b1 = max (b0, (x + 1) * 256 /
 *    W - 1) (integer division), its count c the largest of theirs;
 *  - with M the frame's largest bin, the column is h = c * H / M pixels
 *    high (linear), or h = L(1 + c) * H / L(1 + M) (log), L(x) log2 (x)
 *    in 16.16 fixed point by the bit-by-bit method (cip_hist_log2), all in
 *    integers, so that CPU and GPU agree to the pixel;
 *  - pixel (x, y) is lit where y >= H - h: 255 in GRAY8 (one histogram),
 *    or in its channel's byte of RGBA (three; alpha 255).
 */
#ifndef __CIP_KERNELS_HISTOGRAM_H__
#define __CIP_KERNELS_HISTOGRAM_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A frame's histograms: the luma's in [0], or R, G and B in [0], [1], [2].
 * Copied as one block to the host for the messages. */
typedef struct
{
  uint32_t channels;            /* 1 or 3 */
  /* each histogram's largest count, where the launch's last block took
   * it (cip_hist_gray and cip_hist_luma_packed: most[0]; cip_hist_rgb
   * leaves it 0) */
  uint32_t most[3];
  uint32_t hist[3][256];
} CipHistResult;

/* Device state of the luma histogram: as cudaotsu's (otsu.h), zero before
 * the first frame, left zero again. */
#define CIP_HIST_STATE_WORDS (16 * 256 + 9 * 32)

/* The luma histogram of a GRAY8 plane into @res (channels 1). */
cudaError_t cip_hist_gray (const void *src, int pitch, int width, int height,
    uint32_t * state, CipHistResult * res, cudaStream_t stream);

/* The luma histogram of packed RGB (@bpp 3 or 4 bytes; the byte offsets of
 * R, G and B in a pixel) into @res (channels 1): the BT.601 luma of
 * cudagray (cip_gray_packed, scale 1) made on the way, no GRAY8 plane;
 * @state as cip_hist_gray's. */
cudaError_t cip_hist_luma_packed (const void *src, int pitch, int width,
    int height, int bpp, int r_off, int g_off, int b_off, uint32_t * state,
    CipHistResult * res, cudaStream_t stream);

/* The R, G and B histograms of packed pixels (@bpp 3 or 4 bytes; the byte
 * offsets of R, G and B in a pixel) into @res (channels 3). */
cudaError_t cip_hist_rgb (const void *src, int pitch, int width, int height,
    int bpp, int r_off, int g_off, int b_off, CipHistResult * res,
    cudaStream_t stream);

/* Largest picture width and height: the kernel's column arithmetic in 32
 * bits and its products in 64 are exact below it. */
#define CIP_HIST_PICTURE_MAX 65536

/* The picture of @res (device memory): GRAY8 where it has one histogram
 * (its largest count from res->most[0], as cip_hist_gray and
 * cip_hist_luma_packed leave it), RGBA where three; @log_scale 0 linear,
 * 1 log; @width and @height at most CIP_HIST_PICTURE_MAX. */
cudaError_t cip_hist_picture (const CipHistResult * res, int channels,
    int log_scale, void *dst, int pitch, int width, int height,
    cudaStream_t stream);

/* log2 (x) in 16.16 fixed point, x >= 1: the integer part is the top
 * bit's place; each of 16 fraction bits squares the mantissa (Q1.31) and
 * takes the bit where it reaches 2.  Exact in integers, the same here and
 * on the GPU. */
static inline
#ifdef __CUDACC__
    __host__ __device__
#endif
    uint32_t cip_hist_log2 (uint64_t x)
{
  int e = 63;
  uint64_t y;
  uint32_t frac = 0;
  int i;

  while (e > 0 && !(x >> e))
    e--;
  y = e <= 31 ? x << (31 - e) : x >> (e - 31);
  for (i = 0; i < 16; i++) {
    y = (y * y) >> 31;
    if (y >= (1ull << 32)) {
      y >>= 1;
      frac |= 1u << (15 - i);
    }
  }
  return ((uint32_t) e << 16) | frac;
}

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_HISTOGRAM_H__ */
