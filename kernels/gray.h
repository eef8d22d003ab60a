/* cudaimgproc: colour to luma kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain C launchers (no GLib, no GStreamer): device pointers, pitches in
 * bytes, a stream; they return the launch's cudaError_t.
 *
 * Gray value of one pixel, all integer so CPU and GPU agree to the bit:
 *   Y   = (R * cr + G * cg + B * cb + (1 << 14)) >> 15
 *   out = min (255, (Y * scale_q16 + (1 << 15)) >> 16)
 * With the BT.601 weights below this Y is OpenCV's cvtColor (COLOR_RGB2GRAY)
 * on 8-bit input, checked on all 2^24 colours against OpenCV 4.6 (its
 * vectorised RGB2Gray<uchar> uses these Q15 weights; the older Q14 table,
 * 4899/9617/1868, differs on 43864 colours).  scale_q16 = 65536 (scale 1.0)
 * leaves Y untouched.
 */
#ifndef __CIP_KERNELS_GRAY_H__
#define __CIP_KERNELS_GRAY_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Q15 weights; each triple sums to 32768 so white stays 255. */
#define CIP_GRAY_SHIFT 15
#define CIP_GRAY_BT601_R 9798   /* 0.299  * 32768 */
#define CIP_GRAY_BT601_G 19235  /* 0.587  * 32768 */
#define CIP_GRAY_BT601_B 3735   /* 0.114  * 32768 */
#define CIP_GRAY_BT709_R 6966   /* 0.2126 * 32768 */
#define CIP_GRAY_BT709_G 23436  /* 0.7152 * 32768 */
#define CIP_GRAY_BT709_B 2366   /* 0.0722 * 32768 */
#define CIP_GRAY_SCALE_ONE 65536

typedef struct
{
  int cr, cg, cb;               /* Q15 weights, 0 to 65535 each */
  int scale_q16;                /* output scale, Q16; 65536 = 1.0 */
} CipGrayParams;

/* Packed RGB-family input: bpp is 3 or 4, r_off/g_off/b_off the byte of each
 * channel inside a pixel (e.g. BGRx: 2, 1, 0). */
cudaError_t cip_gray_packed (const void *src, int src_pitch, int bpp,
    int r_off, int g_off, int b_off, void *dst, int dst_pitch,
    int width, int height, const CipGrayParams * params,
    cudaStream_t stream);

/* Luma plane input (I420, NV12, Y444 ...): out = scaled Y. */
cudaError_t cip_gray_luma (const void *y, int y_pitch, void *dst,
    int dst_pitch, int width, int height, int scale_q16,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_GRAY_H__ */
