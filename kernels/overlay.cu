/* cudaimgproc: a mask painted over video, plane by plane (semantics in
 * overlay.h).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One thread per pixel of the plane, four-byte pixels loaded and stored as
 * one word where the frame is aligned; the table (alpha and colour of each
 * mask value, in device memory) is copied to shared memory first.
 */
#include "overlay.h"
#include "cip_pointwise.cuh"

namespace {

/* (sum + 255 n / 2) / (255 n) with the divisor a constant of each case */
__device__ __forceinline__ int
mean_blend (int sum, int n)
{
  if (n == 1)
    return (sum + 127) / 255;
  if (n == 2)
    return (sum + 255) / 510;
  return (sum + 510) / 1020;
}

template <int BPP, int SX, int SY, bool WORD>
__global__ void
__launch_bounds__ (256)
overlay_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int pw, int ph,
    const uint8_t * __restrict__ mask, int mask_pitch, int mw, int mh,
    int lw, int lh, unsigned keep, const CipOverlayTable * __restrict__ table,
    int placed, int ox, int oy)
{
  __shared__ uint32_t s_colour[CIP_OVERLAY_VALUES];
  __shared__ uint8_t s_alpha[CIP_OVERLAY_VALUES];

  for (int i = threadIdx.x; i < CIP_OVERLAY_VALUES; i += blockDim.x) {
    s_colour[i] = __ldg (reinterpret_cast<const uint32_t *>(table->colour[i]));
    s_alpha[i] = __ldg (&table->alpha[i]);
  }
  __syncthreads ();

  const long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long) pw * ph)
    return;
  const int y = (int) (t / pw);
  const int x = (int) (t - (long long) y * pw);
  const uint8_t *s = src + (size_t) y * src_pitch + (size_t) x * BPP;
  uint8_t *d = dst + (size_t) y * dst_pitch + (size_t) x * BPP;

  int p[BPP], sum[BPP];
  if constexpr (WORD && BPP == 4) {
    const uint32_t w = __ldg (reinterpret_cast<const uint32_t *>(s));
#pragma unroll
    for (int k = 0; k < BPP; k++) {
      p[k] = (w >> (8 * k)) & 255;
      sum[k] = 0;
    }
  } else {
#pragma unroll
    for (int k = 0; k < BPP; k++) {
      p[k] = __ldg (s + k);
      sum[k] = 0;
    }
  }

  int n = 0;
#pragma unroll
  for (int j = 0; j < (1 << SY); j++) {
    const int Y = (y << SY) + j;
    if (Y < lh) {
      const int my = placed ? Y - oy : mh == lh ? Y :
          (int) ((long long) Y * mh / lh);
      const bool row_in = my >= 0 && my < mh;
      const uint8_t *mrow = mask + (size_t) (row_in ? my : 0) * mask_pitch;
#pragma unroll
      for (int i = 0; i < (1 << SX); i++) {
        const int X = (x << SX) + i;
        if (X < lw) {
          const int mx = placed ? X - ox : mw == lw ? X :
              (int) ((long long) X * mw / lw);
          const bool in = row_in && mx >= 0 && mx < mw;
          const int v = in ? __ldg (mrow + mx) : 0;
          const int a = in ? s_alpha[v] : 0;
          const uint32_t c = s_colour[v];
#pragma unroll
          for (int k = 0; k < BPP; k++)
            sum[k] += p[k] * (255 - a) + (int) ((c >> (8 * k)) & 255) * a;
          n++;
        }
      }
    }
  }

  uint8_t o[BPP];
#pragma unroll
  for (int k = 0; k < BPP; k++)
    o[k] = (uint8_t) (((keep >> k) & 1) ? p[k] :
        (SX == 0 && SY == 0) ? (sum[k] + 127) / 255 : mean_blend (sum[k], n));
  if constexpr (WORD && BPP == 4) {
    *reinterpret_cast<uint32_t *>(d) = o[0] | (o[1] << 8) | (o[2] << 16) |
        ((uint32_t) o[3] << 24);
  } else {
#pragma unroll
    for (int k = 0; k < BPP; k++)
      d[k] = o[k];
  }
}

template <int BPP, int SX, int SY>
cudaError_t
launch (const CipOverlayPlane * pl, const void *mask, int mask_pitch, int mw,
    int mh, int lw, int lh, const CipOverlayTable * table, cudaStream_t stream)
{
  const int pw = (lw + (1 << SX) - 1) >> SX;
  const int ph = (lh + (1 << SY) - 1) >> SY;
  const long long total = (long long) pw * ph;
  const int block = 256;
  const unsigned grid = (unsigned) ((total + block - 1) / block);

  const bool word = BPP == 4 && cip::is_aligned (pl->src, pl->src_pitch, 4) &&
      cip::is_aligned (pl->dst, pl->dst_pitch, 4);

  const auto kernel = word ? overlay_kernel<BPP, SX, SY, true> :
      overlay_kernel<BPP, SX, SY, false>;

  (void) cudaGetLastError ();
  kernel<<<grid, block, 0, stream>>> (static_cast<const uint8_t *>(pl->src),
      pl->src_pitch, static_cast<uint8_t *>(pl->dst), pl->dst_pitch, pw, ph,
      static_cast<const uint8_t *>(mask), mask_pitch, mw, mh, lw, lh,
      pl->keep, table, pl->placed, pl->mask_x, pl->mask_y);
  return cudaGetLastError ();
}

template <int BPP>
cudaError_t
launch_bpp (const CipOverlayPlane * pl, const void *mask, int mask_pitch,
    int mw, int mh, int lw, int lh, const CipOverlayTable * table,
    cudaStream_t stream)
{
  if (pl->sub_x == 0 && pl->sub_y == 0)
    return launch<BPP, 0, 0> (pl, mask, mask_pitch, mw, mh, lw, lh, table,
        stream);
  if (pl->sub_x == 1 && pl->sub_y == 1)
    return launch<BPP, 1, 1> (pl, mask, mask_pitch, mw, mh, lw, lh, table,
        stream);
  if (pl->sub_x == 1 && pl->sub_y == 0)
    return launch<BPP, 1, 0> (pl, mask, mask_pitch, mw, mh, lw, lh, table,
        stream);
  return cudaErrorInvalidValue;
}

}  /* namespace */

extern "C" cudaError_t
cip_overlay_plane (const CipOverlayPlane * pl, const void *mask,
    int mask_pitch, int mask_w, int mask_h, int luma_w, int luma_h,
    const CipOverlayTable * table, cudaStream_t stream)
{
  if (!pl || !mask || !table || mask_w <= 0 || mask_h <= 0 || luma_w <= 0 ||
      luma_h <= 0)
    return cudaErrorInvalidValue;
  switch (pl->bpp) {
    case 1:
      return launch_bpp<1> (pl, mask, mask_pitch, mask_w, mask_h, luma_w,
          luma_h, table, stream);
    case 2:
      return launch_bpp<2> (pl, mask, mask_pitch, mask_w, mask_h, luma_w,
          luma_h, table, stream);
    case 3:
      return launch_bpp<3> (pl, mask, mask_pitch, mask_w, mask_h, luma_w,
          luma_h, table, stream);
    case 4:
      return launch_bpp<4> (pl, mask, mask_pitch, mask_w, mask_h, luma_w,
          luma_h, table, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

/* ------------------------------------------------------------------------ */
/* boxes */

namespace {

/* One block a box; its threads walk the outline only: the top and bottom
 * bands (line_width rows each), then the left and right bands of the rows
 * between.  A box no larger than two bands each way is all outline. */
__global__ void
boxes_kernel (uint8_t * mask, int pitch, int w, int h,
    const CipOverlayBox * boxes, int line_width)
{
  const CipOverlayBox b = boxes[blockIdx.x];
  if (b.w <= 0 || b.h <= 0)
    return;
  const int lw = line_width;
  const bool solid = b.w <= 2 * lw || b.h <= 2 * lw;
  const long long bands = 2LL * lw * b.w;
  const long long total = solid ? (long long) b.w * b.h :
      bands + 2LL * lw * (b.h - 2 * lw);
  for (long long k = threadIdx.x; k < total; k += blockDim.x) {
    long long x, y;
    if (solid) {
      x = b.x + k % b.w;
      y = b.y + k / b.w;
    } else if (k < bands) {
      const long long r = k / b.w;
      x = b.x + k % b.w;
      y = r < lw ? b.y + r : b.y + b.h - 2 * lw + r;
    } else {
      const long long j = k - bands, c = j % (2 * lw);
      x = c < lw ? b.x + c : b.x + b.w - 2 * lw + c;
      y = b.y + lw + j / (2 * lw);
    }
    if (x >= 0 && y >= 0 && x < w && y < h)
      mask[(size_t) y * pitch + x] = 255;
  }
}

}                               /* namespace */

extern "C" cudaError_t
cip_overlay_boxes (uint8_t * mask, int pitch, int w, int h,
    const CipOverlayBox * boxes, int n, int line_width, cudaStream_t stream)
{
  if (!mask || w <= 0 || h <= 0 || pitch < w || n < 0 || (n && !boxes) ||
      line_width < 1)
    return cudaErrorInvalidValue;
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  cudaError_t err = cudaMemset2DAsync (mask, pitch, 0, w, h, stream);
  if (err != cudaSuccess || n == 0)
    return err;
  boxes_kernel <<< n, 256, 0, stream >>> (mask, pitch, w, h, boxes,
      line_width);
  return cudaGetLastError ();
}
