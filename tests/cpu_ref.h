/* cudaimgproc: plain CPU references that define each element's semantics.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cudagray on packed RGB: bpp 3 or 4, byte offsets of R, G, B in a pixel,
 * Q15 weights, Q16 scale (65536 = 1.0). */
void ref_gray_packed (const uint8_t * src, int src_stride, int bpp, int r_off,
    int g_off, int b_off, uint8_t * dst, int dst_stride, int width,
    int height, int cr, int cg, int cb, int scale_q16);

/* cudagray on a luma plane (YUV, GRAY8). */
void ref_gray_luma (const uint8_t * y, int y_stride, uint8_t * dst,
    int dst_stride, int width, int height, int scale_q16);

#ifdef __cplusplus
}
#endif
