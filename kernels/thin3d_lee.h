/* cudaimgproc: Lee, Kashyap & Chu's Euler condition, shared by the kernels
 * and the CPU tests.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * T.-C. Lee, R. L. Kashyap and C.-N. Chu, "Building skeleton models via
 * 3-D medial surface/axis thinning algorithms", CVGIP: Graphical Models
 * and Image Processing 56 (1994) 462-478.
 *
 * Deleting a voxel keeps the Euler characteristic of the object (the
 * union of its voxels' closed unit cubes) if the changes at the 8 corners
 * of the voxel's cube sum to zero (Lee's condition 1, his table of
 * changes).  Each corner sees an octant: the voxel and the 7 others that
 * share the corner, voxel (a, b, c) of the octant (a, b, c in {0, 1},
 * away from the centre along each axis) bit a + 2b + 4c - 1 of @cfg.  The
 * change, times 8: the cells of the voxel's cube at that corner that no
 * other voxel's cube holds go, each counted (-1)^dimension and shared out
 * among the corners it touches (a vertex 8/8, an edge 4/8, a face 2/8, the
 * cube 1/8).
 */
#ifndef __CIP_KERNELS_THIN3D_LEE_H__
#define __CIP_KERNELS_THIN3D_LEE_H__

#ifdef __CUDACC__
#define CIP_LEE_FN __host__ __device__ static inline
#else
#define CIP_LEE_FN static inline
#endif

CIP_LEE_FN int
cip_lee_octant_delta (unsigned cfg)
{
#define CIP_LEE_HAS(abc) ((cfg >> ((abc) - 1)) & 1u)
  /* the edges along x, y and z are shared with the voxels offset in the
   * other two axes only; a face with the one voxel across it */
  const int vertex = cfg == 0;
  const int edges = !(CIP_LEE_HAS (2) | CIP_LEE_HAS (4) | CIP_LEE_HAS (6)) +
      !(CIP_LEE_HAS (1) | CIP_LEE_HAS (4) | CIP_LEE_HAS (5)) +
      !(CIP_LEE_HAS (1) | CIP_LEE_HAS (2) | CIP_LEE_HAS (3));
  const int faces = !CIP_LEE_HAS (1) + !CIP_LEE_HAS (2) + !CIP_LEE_HAS (4);
#undef CIP_LEE_HAS
  return 8 * vertex - 4 * edges + 2 * faces - 1;
}

#undef CIP_LEE_FN
#endif /* __CIP_KERNELS_THIN3D_LEE_H__ */
