/* cudaimgproc: plain CPU references.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written from the definitions in docs/, one pixel at a time, with no
 * attempt at speed: these are what the GPU output is compared to.
 */
#include "cpu_ref.h"

static uint8_t
scale_luma (int y, int scale_q16)
{
  int v = (y * scale_q16 + (1 << 15)) >> 16;
  return (uint8_t) (v > 255 ? 255 : v);
}

void
ref_gray_packed (const uint8_t * src, int src_stride, int bpp, int r_off,
    int g_off, int b_off, uint8_t * dst, int dst_stride, int width,
    int height, int cr, int cg, int cb, int scale_q16)
{
  for (int y = 0; y < height; y++) {
    for (int x = 0; x < width; x++) {
      const uint8_t *p = src + (long) y * src_stride + (long) x * bpp;
      int l = (p[r_off] * cr + p[g_off] * cg + p[b_off] * cb + (1 << 14)) >> 15;
      dst[(long) y * dst_stride + x] = scale_luma (l, scale_q16);
    }
  }
}

void
ref_gray_luma (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int width, int height, int scale_q16)
{
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      dst[(long) y * dst_stride + x] =
          scale_luma (src[(long) y * src_stride + x], scale_q16);
}
