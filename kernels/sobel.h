/* cudaimgproc: Sobel gradient magnitude kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CIP_KERNELS_SOBEL_H__
#define __CIP_KERNELS_SOBEL_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  int ksize;                    /* 3, 5 or 7: OpenCV's Sobel kernels */
  int border;                   /* 0 replicate, 1 reflect-101 */
  int l1;                       /* |gx| + |gy|, else sqrt (gx^2 + gy^2) */
  float scale;                  /* applied to the magnitude */
  int threshold;                /* > 0: output 255 above it, else 0 */
} CipSobelParams;

/* dst = saturate (round (scale * magnitude (Sobel_x, Sobel_y))), as
 * tests/cpu_ref.c defines it. */
cudaError_t cip_sobel (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, const CipSobelParams * params,
    cudaStream_t stream);

/* Tests: counts into *d_mismatches (device memory, zeroed by the caller)
 * the S in 0..65281 whose fast rounded square root (the scale 1.0 path)
 * differs from exact rounding.  0 expected. */
cudaError_t cip_sobel_self_check (unsigned *d_mismatches,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_SOBEL_H__ */
