/* cudaimgproc: 3D thinning of voxel volumes (curve skeletons).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Palágyi & Kuba's 12-subiteration algorithm (Graphical Models and Image
 * Processing 61, 1999), as tests/cpu_ref.c's ref_thin3d_pk () defines it.
 * One cooperative launch per volume: the volume is copied into a padded
 * work volume, then every sub-iteration is a grid-wide step (evaluate,
 * barrier, delete, barrier), with the convergence test on the GPU; bricks
 * whose 3x3x3 brick neighbourhood did not change since the same direction's
 * last sub-iteration are skipped.  The host is not in the loop.
 *
 * Lee, Kashyap & Chu's algorithm (CVGIP: Graphical Models and Image
 * Processing 56, 1994) as scikit-image's skeletonize does it on 3D input,
 * tests/cpu_ref.c's ref_thin3d_lee (): the same cooperative launch, each
 * of the six border passes a candidate scan and the sequential recheck
 * solved as a fixed point (kernels/thin3d.cu says how); bricks with no
 * object voxel left are skipped.
 */
#ifndef __CIP_KERNELS_THIN3D_H__
#define __CIP_KERNELS_THIN3D_H__

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CIP_THIN3D_PK12,              /* Palágyi & Kuba 1999, 12 sub-iterations */
  CIP_THIN3D_LEE94,             /* Lee, Kashyap & Chu 1994, as scikit-image */
} CipThin3dMethod;

/* Written on the device at the end of each volume. */
typedef struct
{
  uint32_t rounds;              /* rounds (12 sub-iterations, or lee94's 6
                                 * border passes) that deleted */
  uint32_t converged;           /* 1: a further round deleted nothing */
  uint32_t subiterations;       /* sub-iterations (passes) run */
  uint32_t reserved;
  uint64_t bricks;              /* brick evaluations (the rest skipped) */
  uint64_t voxels;              /* object voxels left */
} CipThin3dResult;

typedef struct _CipThin3d CipThin3d;

/* Device scratch for volumes of @width x @height x @depth: the padded work
 * volume and the per-brick state.  Allocated once per size. */
cudaError_t cip_thin3d_create (CipThin3d ** thin, int width, int height,
    int depth);
void cip_thin3d_destroy (CipThin3d * thin);

/* Bytes of device memory cip_thin3d_create () takes for that size. */
size_t cip_thin3d_scratch_size (int width, int height, int depth);

/* dst = 255 where the thinned @src (non-zero = object, outside the volume
 * background) is object, else 0.  Voxel (x, y, z) is at byte
 * z * slice_pitch + y * pitch + x.  @src and @dst may be the same.
 * @max_rounds 0: until a round deletes nothing.  @result: device memory,
 * or NULL. */
cudaError_t cip_thin3d (CipThin3d * thin, const void *src, size_t src_pitch,
    size_t src_slice_pitch, void *dst, size_t dst_pitch,
    size_t dst_slice_pitch, CipThin3dMethod method, unsigned max_rounds,
    CipThin3dResult * result, cudaStream_t stream);

/* The naive loop's step, for comparison and cross-checking: one dense 0/1
 * volume (pitch @width, slice @width x @height), one launch per
 * sub-iteration @k (0..11), src -> dst; adds the voxels deleted to
 * *deleted (device). */
cudaError_t cip_thin3d_naive_step (const uint8_t * src, uint8_t * dst,
    int width, int height, int depth, int k, unsigned long long *deleted,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* __CIP_KERNELS_THIN3D_H__ */
