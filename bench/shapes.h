/* cudaimgproc: the floor of a kernel's shape (bench/shapes.cu).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CIP_BENCH_SHAPES_H__
#define __CIP_BENCH_SHAPES_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* what follows the frame's read */
enum
{
  SHAPE_NOTHING,                /* one launch, reads only */
  SHAPE_SECOND_LAUNCH,          /* a dependent launch writes the picture,
                                 * overlapping the read's end as
                                 * cudahistogram's does */
  SHAPE_LAST_BLOCK              /* the read's last block writes it */
};

/* Reads @h rows of @row_bytes (a multiple of 16) of @src once, then
 * writes @pic_bytes of @pic as @picture says.  @sink: two words, zeroed
 * once before the first call. */
cudaError_t shape_read (const uint8_t * src, int pitch, int row_bytes,
    int h, unsigned *sink, int picture, uint8_t * pic, int pic_bytes,
    cudaStream_t stream);

/* Packed RGB (@w a multiple of 16, pitches of 16) in, a byte a pixel out,
 * 16 pixels a thread: cudagray's memory pattern without its arithmetic. */
cudaError_t shape_gray (const uint8_t * src, int spitch, uint8_t * dst,
    int dpitch, int w, int h, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
