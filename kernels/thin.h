/* cudaimgproc: iterative thinning kernels (Hilditch, Zhang-Suen, Guo-Hall).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One cooperative launch per frame: the frame is packed to bits (32 pixels
 * a word), then thinned in 32-row x 256-pixel tiles, 8 passes at a time in
 * shared memory, with a grid-wide barrier between those steps and the
 * convergence test on the GPU; tiles whose neighbourhood did not change in
 * the previous step are skipped.  The host is not in the loop.
 */
#ifndef __CIP_KERNELS_THIN_H__
#define __CIP_KERNELS_THIN_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CIP_THIN_HILDITCH,
  CIP_THIN_ZHANG_SUEN,
  CIP_THIN_GUO_HALL,
} CipThinMethod;

/* What the outermost rows and columns are */
typedef enum
{
  CIP_THIN_BORDER_BACKGROUND,   /* thinned like the rest; outside is
                                 * background */
  CIP_THIN_BORDER_OPENCV,       /* never removed, as cv::ximgproc::thinning */
} CipThinBorder;

/* Written on the device at the end of each frame. */
typedef struct
{
  uint32_t passes;              /* passes that removed a pixel */
  uint32_t converged;           /* 1: a further pass removed nothing */
  uint32_t steps;               /* grid-wide steps (8 passes each at most) */
  uint32_t tiles;               /* tile-steps computed (the rest skipped) */
} CipThinResult;

typedef struct _CipThin CipThin;

/* Device scratch for frames of @width x @height: two bit planes and the
 * per-tile state, plus the launch geometry.  Allocated once per caps. */
cudaError_t cip_thin_create (CipThin ** thin, int width, int height);
void cip_thin_destroy (CipThin * thin);

/* dst = 255 where the thinned @src (non-zero = foreground) is foreground,
 * else 0, as tests/cpu_ref.c defines it.  @max_passes 0: until a pass
 * removes nothing.  @result: device memory, or NULL. */
cudaError_t cip_thin (CipThin * thin, const void *src, int src_pitch,
    void *dst, int dst_pitch, CipThinMethod method, CipThinBorder border,
    unsigned max_passes, CipThinResult * result, cudaStream_t stream);

/* The naive loop's pass, for comparison and cross-checking: one byte per
 * pixel (0/1), one launch per sub-iteration, src -> dst; sets *changed
 * (device) to 1 if a pixel was removed.  Zhang-Suen and Guo-Hall take two
 * sub-iterations per pass (@sub 0 and 1). */
cudaError_t cip_thin_naive_step (const uint8_t * src, uint8_t * dst,
    int pitch, int width, int height, CipThinMethod method, int sub,
    unsigned *changed, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_THIN_H__ */
