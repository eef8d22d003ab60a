/* cudaimgproc: smoothing kernels (triangular, box, Gaussian, median).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CIP_KERNELS_SMOOTH_H__
#define __CIP_KERNELS_SMOOTH_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CIP_SMOOTH_TRIANGULAR,        /* (1 2 3 2 1) along x and y, / 81 */
  CIP_SMOOTH_BOX,               /* cv::blur */
  CIP_SMOOTH_GAUSSIAN,          /* cv::GaussianBlur, 8-bit fixed point */
  CIP_SMOOTH_MEDIAN,            /* cv::medianBlur */
} CipSmoothMethod;

typedef struct
{
  CipSmoothMethod method;
  int ksize;                    /* box 3..15 odd, gaussian 3..7, median 3, 5;
                                 * triangular: 5 whatever this says */
  double sigma;                 /* gaussian; <= 0: OpenCV's from ksize */
  int border;                   /* 0 replicate, 1 reflect-101 */
  int bpp;                      /* bytes a pixel: 1, 3 or 4 */
  int keep_off;                 /* byte of each pixel copied (alpha), or -1 */
} CipSmoothParams;

/* NULL when @p is served, else why not (for an error message). */
const char *cip_smooth_check (const CipSmoothParams * p);

/* cv::GaussianBlur's 8-bit taps for @ksize (3..7) and @sigma in units of
 * 1/256 (they sum to 256) into @taps, as tests/cpu_ref.c defines them. */
void cip_smooth_gaussian_taps (int ksize, double sigma, int *taps);

/* dst = the smoothed src, each channel on its own, as tests/cpu_ref.c's
 * ref_smooth defines it.  @width in pixels; pitches in bytes. */
cudaError_t cip_smooth (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, const CipSmoothParams * p,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_SMOOTH_H__ */
