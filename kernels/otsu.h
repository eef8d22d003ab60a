/* cudaimgproc: Otsu threshold kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Histogram, threshold choice and binarization all run on the stream; the
 * threshold goes from the choosing kernel to the binarizing one through
 * device memory, never through the host.
 */
#ifndef __CIP_KERNELS_OTSU_H__
#define __CIP_KERNELS_OTSU_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Written by cip_otsu_threshold; copied as one block to the host when an
 * application wants the values. */
typedef struct
{
  uint32_t threshold;           /* what binarize applies */
  uint32_t otsu;                /* this frame's Otsu threshold (or fixed) */
  uint32_t exact_path;          /* 1: chosen by the recurrence, 0: certified */
  uint32_t hist[256];           /* this frame's histogram */
} CipOtsuResult;

typedef struct
{
  int fixed;                    /* use fixed_threshold, not Otsu's */
  int fixed_threshold;
  int offset;                   /* added after smoothing, then clamped */
  float smoothing;              /* EMA weight of the past, 0 = off */
  int reset;                    /* forget the EMA state */
  int exact_only;               /* tests: always run OpenCV's recurrence */
} CipOtsuParams;

/* Device state: @hist, CIP_OTSU_HIST_WORDS counters (copies of the
 * histogram: their sum is the frame's), then @sync, CIP_OTSU_SYNC_WORDS
 * more, all zero before the first frame (CIP_OTSU_STATE_WORDS in all, from
 * cudaMalloc: aligned); the kernels leave them zero again but for a few
 * that count frames. */
#define CIP_OTSU_HIST_WORDS (16 * 256)
#define CIP_OTSU_SYNC_WORDS (9 * 32)
#define CIP_OTSU_STATE_WORDS (CIP_OTSU_HIST_WORDS + CIP_OTSU_SYNC_WORDS)

/* A whole frame in one launch: the plane's histogram, Otsu's threshold as
 * OpenCV computes it (or the fixed one), smoothing (state in @ema), offset
 * and clamp, written to @res, then dst = src > threshold ? 255 : 0 (or the
 * reverse with @invert).  Where the device has no cooperative launch, the
 * same as cip_otsu_choose then cip_otsu_binarize. */
cudaError_t cip_otsu_frame (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, uint32_t * hist, unsigned *sync,
    const CipOtsuParams * params, int invert, CipOtsuResult * res,
    float *ema, cudaStream_t stream);

/* The first half of cip_otsu_frame: the histogram, then in the launch's
 * last block the threshold, written to @res. */
cudaError_t cip_otsu_choose (const void *src, int pitch, int width,
    int height, uint32_t * hist, unsigned *sync, const CipOtsuParams * params,
    CipOtsuResult * res, float *ema, cudaStream_t stream);

/* The histogram alone, added to @hist (benchmarks): the copies' sum. */
cudaError_t cip_otsu_histogram (const void *src, int pitch, int width,
    int height, uint32_t * hist, unsigned *sync, cudaStream_t stream);

/* One block: the threshold of the complete 256-bin @hist (one copy; fixed
 * mode, tests), as in cip_otsu_choose; zeroes @hist. */
cudaError_t cip_otsu_threshold (uint32_t * hist, uint64_t total,
    const CipOtsuParams * params, CipOtsuResult * res, float *ema,
    cudaStream_t stream);

/* out = (in > *threshold) ? 255 : 0, or the reverse with @invert. */
cudaError_t cip_otsu_binarize (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, const uint32_t * threshold,
    int invert, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_OTSU_H__ */
