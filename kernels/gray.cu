/* cudaimgproc: colour to luma kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gray.h"
#include "cip_pointwise.cuh"
#include "cip_luma.cuh"

namespace {

constexpr int PX = 8;           /* pixels per thread, 4-byte pixels */

/* 3-byte pixels: 16 a thread where rows are 16-byte aligned, three
 * 16-byte loads and one 16-byte store (with 8, three 8-byte loads and one
 * 8-byte store, RGB at 1080p took 3.16 against 2.60 us on an H200, 4K
 * 10.20 against 9.98; 640x480 1.65 against 1.71); else 8 (PX), whose
 * accesses need only 8-byte alignment. */
constexpr int PX3 = 16;

__device__ __forceinline__ uint8_t
apply_scale (int y, int scale_q16)
{
  if (scale_q16 == CIP_GRAY_SCALE_ONE)
    return (uint8_t) y;
  return (uint8_t) min (255, (y * scale_q16 + (1 << 15)) >> 16);
}

/* 4-byte pixels: each pixel is one 32-bit word, its channels weighed in
 * place (cip::luma_word). */
struct Gray4
{
  int cr, cg, cb, scale_q16;
  int ro, go, bo;

  __device__ void operator() (const uint8_t (&in)[PX * 4],
      uint8_t (&out)[PX]) const
  {
    const cip::LumaWeights lw = cip::luma_weights (cr, cg, cb, ro, go, bo);
#pragma unroll
    for (int p = 0; p < PX; p++) {
      const uint32_t w = reinterpret_cast<const uint32_t *>(in)[p];
      out[p] = apply_scale (cip::luma_word (w, lw), scale_q16);
    }
  }
};

/* 3-byte pixels, @N a thread: RGB or BGR, known at compile time.  Each
 * pixel's three bytes gathered into a word (one PRMT from the two words
 * it spans), then luma_word. */
template <bool BGR, int N>
struct Gray3
{
  int cr, cg, cb, scale_q16;

  __device__ void operator() (const uint8_t (&in)[N * 3],
      uint8_t (&out)[N]) const
  {
    static_assert (N * 3 % 4 == 0, "whole words");
    const uint32_t *w = reinterpret_cast<const uint32_t *>(in);
    const cip::LumaWeights lw = cip::luma_weights (cr, cg, cb, BGR ? 2 : 0,
        1, BGR ? 0 : 2);
    /* the scale's test out of the loop: inside it, each pixel's branch
     * cost registers (the 16-pixel kernel spilled under 32) */
    if (scale_q16 == CIP_GRAY_SCALE_ONE)
      luma3 (w, lw, [](int y) {
            return y;
          }, out);
    else
      luma3 (w, lw, [this](int y) {
            return apply_scale (y, scale_q16);
          }, out);
  }

  template <class S>
  __device__ __forceinline__ static void luma3 (const uint32_t * w,
      cip::LumaWeights lw, S scale, uint8_t (&out)[N])
  {
#pragma unroll
    for (int p = 0; p < N; p++) {
      const int k = p * 3 / 4, o = p * 3 % 4;
      /* bytes o, o + 1, o + 2 of w[k] w[k + 1] (little-endian) */
      const uint32_t px = o <= 1 ? w[k] >> (8 * o) :
          __byte_perm (w[k], w[k + 1], o | (o + 1) << 4 | (o + 2) << 8);
      out[p] = (uint8_t) scale (cip::luma_word (px, lw));
    }
  }
};

struct ScaleLuma
{
  int scale_q16;

  __device__ void operator() (const uint8_t (&in)[16], uint8_t (&out)[16]) const
  {
#pragma unroll
    for (int p = 0; p < 16; p++)
      out[p] = apply_scale (in[p], scale_q16);
  }
};

}  /* namespace */

/* 3-byte pixels, BGR or not */
template <bool BGR>
static cudaError_t
gray3 (const void *src, int src_pitch, void *dst, int dst_pitch, int width,
    int height, const CipGrayParams * p, cudaStream_t stream)
{
  if (cip::is_aligned (src, src_pitch, 16) &&
      cip::is_aligned (dst, dst_pitch, 16)) {
    Gray3<BGR, PX3> f = { p->cr, p->cg, p->cb, p->scale_q16 };
    return cip::launch_map<3, 1, PX3> (src, src_pitch, dst, dst_pitch,
        width, height, f, stream);
  }
  Gray3<BGR, PX> f = { p->cr, p->cg, p->cb, p->scale_q16 };
  return cip::launch_map<3, 1, PX> (src, src_pitch, dst, dst_pitch, width,
      height, f, stream);
}

extern "C" cudaError_t
cip_gray_packed (const void *src, int src_pitch, int bpp, int r_off,
    int g_off, int b_off, void *dst, int dst_pitch, int width, int height,
    const CipGrayParams * p, cudaStream_t stream)
{
  /* cip::luma_word multiplies 16-bit weights */
  if (!p || p->cr < 0 || p->cg < 0 || p->cb < 0 || p->cr > 0xffff ||
      p->cg > 0xffff || p->cb > 0xffff)
    return cudaErrorInvalidValue;
  if (bpp == 4) {
    Gray4 f = { p->cr, p->cg, p->cb, p->scale_q16, r_off, g_off, b_off };
    return cip::launch_map<4, 1, PX> (src, src_pitch, dst, dst_pitch, width,
        height, f, stream);
  }
  if (bpp == 3 && g_off == 1 && r_off == 0 && b_off == 2)
    return gray3<false> (src, src_pitch, dst, dst_pitch, width, height, p,
        stream);
  if (bpp == 3 && g_off == 1 && r_off == 2 && b_off == 0)
    return gray3<true> (src, src_pitch, dst, dst_pitch, width, height, p,
        stream);
  return cudaErrorInvalidValue;
}

extern "C" cudaError_t
cip_gray_luma (const void *y, int y_pitch, void *dst, int dst_pitch,
    int width, int height, int scale_q16, cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaErrorInvalidValue;
  /* Even at scale 1.0 the map kernel, not cudaMemcpy2DAsync: on an H200 the
   * 2D copy engine path took 3.3x the bandwidth floor for a 4K plane. */
  ScaleLuma f = { scale_q16 };
  return cip::launch_map<1, 1, 16> (y, y_pitch, dst, dst_pitch, width, height,
      f, stream);
}
