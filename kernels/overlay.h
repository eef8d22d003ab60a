/* cudaimgproc: a mask painted over video, plane by plane.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain C launcher (no GLib, no GStreamer): device pointers, pitches in
 * bytes, a stream; it returns the launch's cudaError_t.
 *
 * Semantics, exact integer arithmetic (tests/cpu_ref.c, ref_overlay_plane):
 *
 *  - The mask (GRAY8, mask_w x mask_h) is stretched over the video's full
 *    resolution (luma_w x luma_h) by nearest neighbour: video pixel (X, Y)
 *    reads mask pixel (X * mask_w / luma_w, Y * mask_h / luma_h), integer
 *    division; equal sizes read the same pixel.
 *  - A table gives, for each mask value v, an alpha a[v] (0..255) and the
 *    colour's bytes c[v][j] in the plane's own layout.
 *  - Byte j of pixel (x, y) of a plane subsampled by (2^sub_x, 2^sub_y)
 *    covers the n (1, 2 or 4) video pixels (X, Y) with X >> sub_x == x and
 *    Y >> sub_y == y inside the frame.  With p the input byte:
 *        out = (sum over them of (p * (255 - a) + c * a) + 255 * n / 2)
 *              / (255 * n)
 *    that is the mean of the n blends, rounded half up.  At full
 *    resolution (n = 1): out = (p * (255 - a) + c * a + 127) / 255, so
 *    a = 0 gives p and a = 255 gives c exactly.
 *  - Bytes whose bit is set in @keep (alpha, padding) are copied.
 *  - Placed (mode=picture: @placed set in the plane): the mask is not
 *    stretched but put with its top left corner at video pixel (@mask_x,
 *    @mask_y): video pixel (X, Y) reads mask pixel (X - mask_x, Y -
 *    mask_y), and a video pixel outside it takes a = 0 (unchanged).
 */
#ifndef __CIP_KERNELS_OVERLAY_H__
#define __CIP_KERNELS_OVERLAY_H__

#include <stdint.h>
#include <math.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CIP_OVERLAY_VALUES 256

typedef struct
{
  uint8_t alpha[CIP_OVERLAY_VALUES];
  uint8_t colour[CIP_OVERLAY_VALUES][4];
} CipOverlayTable;

typedef struct
{
  const void *src;
  int src_pitch;
  void *dst;
  int dst_pitch;
  int bpp;                      /* bytes per pixel of this plane, 1..4 */
  unsigned keep;                /* bit j: byte j of a pixel copied as is */
  int sub_x, sub_y;             /* log2 of the subsampling, 0 or 1 */
  int placed;                   /* the mask at (mask_x, mask_y), 1:1 */
  int mask_x, mask_y;
} CipOverlayPlane;

/* @table is in device memory (each block copies it to shared memory; a
 * table passed by value would be read from the constant bank, which
 * serialises lanes reading different entries). */
cudaError_t cip_overlay_plane (const CipOverlayPlane * plane,
    const void *mask, int mask_pitch, int mask_w, int mask_h,
    int luma_w, int luma_h, const CipOverlayTable * table,
    cudaStream_t stream);

/* A box to outline (cudaoverlay mode=boxes): left, top, width, height. */
typedef struct
{
  int32_t x, y, w, h;
} CipOverlayBox;

/* cudaoverlay draws at most this many boxes a frame */
#define CIP_OVERLAY_MAX_BOXES 1024

/* Clears @mask (GRAY8, w x h) and draws the outlines of @boxes (device
 * memory, @n of them) into it, 255: the pixels of a box that lie within
 * @line_width of its edge, inside it, clipped to the frame
 * (tests/cpu_ref.c, ref_overlay_boxes).  The mask is then painted as
 * mode=mask paints one. */
cudaError_t cip_overlay_boxes (uint8_t * mask, int pitch, int w, int h,
    const CipOverlayBox * boxes, int n, int line_width, cudaStream_t stream);

/* The colour (R, G, B) in Y'CbCr of a matrix given by Kr and Kb: studio
 * range (Y 16..235, Cb/Cr 16..240) or full range; rounded to nearest. */
static inline void
cip_overlay_rgb_to_yuv (double kr, double kb, int full_range, int r, int g,
    int b, uint8_t yuv[3])
{
  const double R = r / 255.0, G = g / 255.0, B = b / 255.0;
  const double y = kr * R + (1.0 - kr - kb) * G + kb * B;
  const double cb = (B - y) / (2.0 * (1.0 - kb));
  const double cr = (R - y) / (2.0 * (1.0 - kr));
  double v[3];
  int i;

  if (full_range) {
    v[0] = 255.0 * y;
    v[1] = 128.0 + 255.0 * cb;
    v[2] = 128.0 + 255.0 * cr;
  } else {
    v[0] = 16.0 + 219.0 * y;
    v[1] = 128.0 + 224.0 * cb;
    v[2] = 128.0 + 224.0 * cr;
  }
  for (i = 0; i < 3; i++)
    yuv[i] = (uint8_t) (v[i] < 0 ? 0 : v[i] > 255 ? 255 : floor (v[i] + 0.5));
}

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_OVERLAY_H__ */
