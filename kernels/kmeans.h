/* cudaimgproc: per-frame k-means colour segmentation kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One cooperative launch per frame: initialisation (k-means++ or uniform,
 * on a fixed subsample, when there are no centres yet), Lloyd's iterations
 * with a grid barrier between them, and the output.  Sums are exact
 * integers (colours and pixel coordinates), so their order does not matter
 * and every run gives the same bits; each block derives the same new
 * centres from them, so the only barrier an iteration needs is the one
 * after accumulating (and one more where a cluster came out empty: the
 * farthest pixel is found in a pass of its own).  tests/cpu_ref.c
 * (ref_kmeans) defines the result.
 */
#ifndef __CIP_KERNELS_KMEANS_H__
#define __CIP_KERNELS_KMEANS_H__

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "cip_yuv.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CIP_KMEANS_MAX_K 64

typedef struct
{
  int k;                        /* 2..64 */
  int max_iterations;           /* Lloyd iterations at most, 0..1000 */
  float epsilon;                /* stop when no centre moved more */
  float spatial_weight;         /* 0: colour only */
  int init;                     /* 0 k-means++, 1 uniform */
  uint32_t seed;                /* k-means++'s draws */
  int reinit;                   /* 1: initialise (else warm start) */
  int output;                   /* 0 colour, 1 labels, 2 spread labels */
  int attempts;                 /* 1..32 starts (0 as 1) where centres
                                 * start afresh; the lowest inertia is
                                 * kept */
} CipKmeansParams;

/* Attempt @a's seed: attempt 0 is @seed itself */
#define CIP_KMEANS_ATTEMPT_SEED(seed, a) \
  ((uint32_t) (seed) + (uint32_t) (a) * 0x9e3779b9u)

#define CIP_KMEANS_MAX_ATTEMPTS 32

/* Inertia's fixed point: each pixel's squared distance in units of 1/64,
 * rounded to nearest (even), summed exactly */
#define CIP_KMEANS_INERTIA_SCALE 64.0f

/* The frame's outcome, on the device: what the element's message carries. */
typedef struct
{
  uint32_t iterations;          /* Lloyd iterations run */
  uint32_t k;
  float centres[CIP_KMEANS_MAX_K][5];   /* r, g, b, x, y (scaled) */
  uint32_t counts[CIP_KMEANS_MAX_K];    /* pixels of each in the output */
  uint64_t inertia;             /* sum of the pixels' squared distances to
                                 * their centres, CIP_KMEANS_INERTIA_SCALE
                                 * units */
} CipKmeansResult;

typedef struct _CipKmeans CipKmeans;

/* Device state for frames of @width x @height; keeps the centres between
 * frames (warm start). */
cudaError_t cip_kmeans_create (CipKmeans ** km, int width, int height);
void cip_kmeans_destroy (CipKmeans * km);

typedef enum
{
  CIP_KMEANS_PACKED,            /* R, G, B (and a 4th byte) per pixel */
  CIP_KMEANS_I420,              /* planes Y, U, V; chroma 2x2 subsampled */
  CIP_KMEANS_NV12,              /* planes Y, UV interleaved */
} CipKmeansLayout;

typedef struct
{
  CipKmeansLayout layout;
  int bpp, r_off, g_off, b_off; /* PACKED: 3 or 4, byte offsets */
  CipYuvMatrix yuv;             /* I420, NV12: clustering is on R'G'B' */
} CipKmeansFormat;

/* Device pointers and pitches of a frame's planes (layout order). */
typedef struct
{
  void *data[3];
  int pitch[3];
} CipKmeansPlanes;

/* Clusters @src (in @fmt) and writes @dst: with params->output 0 the same
 * layout, every pixel its cluster's mean colour (a packed 4th byte copied;
 * for 4:2:0 Y per pixel and each chroma sample the rounded mean of its
 * pixels' cluster chroma), else GRAY8 labels in @dst plane 0.  @result
 * (device memory, may be NULL: then the inertia is not summed, which saves
 * a few percent) gets the frame's outcome. */
cudaError_t cip_kmeans (CipKmeans * km, const CipKmeansFormat * fmt,
    const CipKmeansPlanes * src, const CipKmeansPlanes * dst,
    const CipKmeansParams * params, CipKmeansResult * result,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_KMEANS_H__ */
