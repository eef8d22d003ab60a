/* cudaimgproc: connected components of a binary frame, with OpenCV's
 * numbering and statistics (cudablobs).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain C launchers (no GLib, no GStreamer): device pointers, pitches in
 * bytes, a stream; they return the launch's cudaError_t.
 *
 * Non-zero pixels of a GRAY8 mask are foreground.  Components are 8- or
 * 4-connected and numbered from 1 (background 0) in the order OpenCV's
 * connectedComponentsWithStats numbers them: at 4-connectivity the raster
 * order of each component's first pixel, at 8-connectivity the order of
 * OpenCV's 2x2-block scan (rows two at a time, blocks left to right, in a
 * block top-left, top-right, bottom-left, bottom-right).  tests/cpu_ref.h
 * (ref_label) defines it; docs/notes/blobs.md says how it was found.
 *
 * Union-find (lock-free, the root the smaller index) over pairs of a
 * row's pixels at 4-connectivity and over 2x2 blocks at 8, first inside
 * tiles of 32x16
 * of them in shared memory (a row's runs linked by a warp ballot), then
 * across tile borders in global memory; then each tile's pieces, listed,
 * to their roots.  A root is its component's first node, so a component's
 * label is its root's rank by index (a bit a node, a prefix sum over the
 * bits' words).
 * Statistics are summed per label in shared memory over 32x256 strips
 * before the global atomics.  No host round trip inside a frame.
 */
#ifndef __CIP_KERNELS_BLOBS_H__
#define __CIP_KERNELS_BLOBS_H__

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A component's statistics as the kernels accumulate them: bounding box
 * (inclusive right and bottom), area, and the sums of x and y, from which
 * the centroid is sum / area in double precision, as OpenCV computes it. */
typedef struct
{
  int32_t left, top, right, bottom;
  uint32_t area;
  uint32_t pad;
  unsigned long long sum_x, sum_y;
} CipBlobStats;

/* Bytes of device scratch a @width x @height frame needs; 0 if its pixel
 * count or a scratch size would not fit. */
size_t cip_blobs_scratch_size (int width, int height);

/* Labels @mask (GRAY8, @mask_pitch bytes a row) into @labels (int32,
 * @labels_pitch bytes a row), and writes the number of components
 * (background not counted) to @d_count.  With @stats (room for
 * @max_stats + 1 entries, index 0 unused) the statistics of components 1
 * to @max_stats are accumulated there; later ones are counted but not
 * described.  @scratch: cip_blobs_scratch_size () bytes.  Returns
 * cudaErrorInvalidValue for a connectivity other than 4 or 8 or a frame
 * too large. */
cudaError_t cip_blobs_label (const uint8_t * mask, int mask_pitch,
    int width, int height, int connectivity, int32_t * labels,
    int labels_pitch, uint32_t * d_count, CipBlobStats * stats,
    uint32_t max_stats, void *scratch, size_t scratch_size,
    cudaStream_t stream);

/* What cudablobs keeps of a frame's components and reads back: the
 * statistics of the first CIP_BLOBS_LABEL_MAX components (in OpenCV's
 * order) are kept on the device; those of area >= min_area, and of them
 * the max_blobs largest (ties: the smaller label), are the frame's blobs,
 * numbered 1.. in the components' order; the first CIP_BLOBS_REPORT_MAX
 * of them are described in the record. */
#define CIP_BLOBS_LABEL_MAX 65535
#define CIP_BLOBS_REPORT_MAX 1024

typedef struct
{
  uint32_t total;               /* components in the frame */
  uint32_t kept;                /* blobs, numbered 1 .. kept */
  uint32_t described;           /* min (kept, CIP_BLOBS_REPORT_MAX) */
  uint32_t pad;
  CipBlobStats blob[CIP_BLOBS_REPORT_MAX];      /* blob i is blob[i - 1] */
} CipBlobsRecord;

/* Scratch of cip_blobs_select, whatever the frame. */
size_t cip_blobs_select_scratch_size (void);

/* From cip_blobs_label's @stats (CIP_BLOBS_LABEL_MAX + 1 entries) and
 * @d_count: the blobs kept (@max_blobs 0: no limit), @newid (a blob's
 * number for each component, 0 for one not kept; CIP_BLOBS_LABEL_MAX + 1
 * entries) and @record. */
cudaError_t cip_blobs_select (const CipBlobStats * stats,
    const uint32_t * d_count, uint32_t min_area, uint32_t max_blobs,
    uint16_t * newid, CipBlobsRecord * record, void *scratch,
    size_t scratch_size, cudaStream_t stream);

/* The GRAY16 (native-endian) map of the blobs: each pixel its blob's
 * number, 0 where it is background or its component was not kept, and
 * CIP_BLOBS_LABEL_MAX (saturated) for a component past the
 * CIP_BLOBS_LABEL_MAX-th. */
cudaError_t cip_blobs_relabel (const int32_t * labels, int labels_pitch,
    int width, int height, const uint16_t * newid, uint16_t * out,
    int out_pitch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
