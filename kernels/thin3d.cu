/* cudaimgproc: 3D thinning kernels (Palágyi & Kuba's 12 sub-iterations).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The work volume is one byte a voxel (0/1) with a background margin of
 * one voxel and padding to whole bricks of 32 x 8 x 4, so neighbours
 * outside the volume read as background for free.  A voxel's 26
 * neighbours are one 27-bit word (bit (dz + 1) * 9 + (dy + 1) * 3 + dx + 1),
 * and each direction's 14 templates are turned, at compile time, into
 * masks on that word: a template test is a few ANDs.
 *
 * One cooperative launch does a whole volume.  A sub-iteration evaluates
 * bricks (each block loads a brick with its halo into shared memory, one
 * thread a column of 4 voxels), records the deletions as bit masks, then,
 * after a grid barrier, applies them; all of a sub-iteration's deletions
 * happen together, as the algorithm requires.  A brick is evaluated only
 * if a brick of its 3x3x3 neighbourhood changed since the last
 * sub-iteration of the same direction (12 earlier): otherwise each of its
 * voxels sees the neighbourhood it was last tested on, with the same
 * outcome (kept).
 */
#include "thin3d.h"
#include "thin3d_templates.h"
#include "thin3d_lee.h"
#include "cip_alloc.h"
#include "cip_cooperative.cuh"

#include <new>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

namespace {

constexpr int BX = 32, BY = 8, BZ = 4;  /* brick: one warp a row */
constexpr int THREADS = BX * BY;        /* one thread a column of BZ */
constexpr int WORDS = BY * BZ;  /* deletion mask words a brick */
constexpr int NDIR = CIP_PK12_N_DIRECTIONS, NTPL = CIP_PK12_N_TEMPLATES;
constexpr int NEVER = -(1 << 30);

/* ---- the templates as masks on the neighbourhood word ------------------ */

struct Tpl
{
  uint32_t black, white, any;   /* all set, none set, one set (if any) */
  uint32_t nand1, nand2;        /* not both set (if any) */
  uint32_t one;                 /* exactly one set (if any) */
};

struct Table
{
  Tpl t[NDIR][NTPL];
  uint32_t pq[NDIR];            /* P's and Q's neighbours: one is white */
};

constexpr const char *kTemplates[NTPL] = { CIP_PK12_TEMPLATES };
constexpr int kDirs[NDIR][2][3] = { CIP_PK12_DIRECTIONS };

__host__ __device__ constexpr uint32_t
bit_of (int dx, int dy, int dz)
{
  return 1u << ((dz + 1) * 9 + (dy + 1) * 3 + dx + 1);
}

/* direction PQ: template voxel (a, b, c) is the volume offset
 * (a - 1)(P x Q) - (b - 1) Q + (c - 1) P, as thin3d_templates.h says */
constexpr Table
build_table ()
{
  Table tab {};
  for (int k = 0; k < NDIR; k++) {
    const int *p = kDirs[k][0], *q = kDirs[k][1];
    const int e[3] = { p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2],
      p[0] * q[1] - p[1] * q[0]
    };
    tab.pq[k] = bit_of (p[0], p[1], p[2]) | bit_of (q[0], q[1], q[2]);
    for (int i = 0; i < NTPL; i++) {
      Tpl t {};
      for (int j = 0; j < 27; j++) {
        const int a = j % 3 - 1, b = j / 3 % 3 - 1, c = j / 9 - 1;
        const uint32_t m = bit_of (a * e[0] - b * q[0] + c * p[0],
            a * e[1] - b * q[1] + c * p[1], a * e[2] - b * q[2] + c * p[2]);
        switch (kTemplates[i][j]) {
          case '1':
            t.black |= m;
            break;
          case '0':
            t.white |= m;
            break;
          case 'a':
            t.any |= m;
            break;
          case 'n':
            t.nand1 |= m;
            break;
          case 'm':
            t.nand2 |= m;
            break;
          case 'o':
            t.one |= m;
            break;
          default:
            break;
        }
      }
      tab.t[k][i] = t;
    }
  }
  return tab;
}

__constant__ Table c_tab = build_table ();

__device__ __forceinline__ bool
deletable (uint32_t n, int k)
{
  const uint32_t pq = c_tab.pq[k];
  if (!(n & bit_of (0, 0, 0)) || (n & pq) == pq)
    return false;
#pragma unroll 2
  for (int i = 0; i < NTPL; i++) {
    const Tpl t = c_tab.t[k][i];
    if ((n & t.black) == t.black && !(n & t.white) &&
        (!t.any || (n & t.any)) &&
        (!t.nand1 || (n & t.nand1) != t.nand1) &&
        (!t.nand2 || (n & t.nand2) != t.nand2) &&
        (!t.one || __popc (n & t.one) == 1))
      return true;
  }
  return false;
}

/* ---- the cooperative kernel ------------------------------------------- */

enum
{
  CTL_LIST = 0,                 /* 2: bricks with deletions, by s & 1 */
  CTL_ROUND = 2,                /* 2: voxels deleted, by round & 1 */
  CTL_BRICKS = 4,               /* brick evaluations */
  CTL_VOXELS = 5,               /* voxels left */
  CTL_STEP = 6,                 /* 3: lee94's sums, by step % 3 */
  CTL_N = 9
};

struct Args
{
  const uint8_t *src;
  uint8_t *dst;
  size_t sp, ss, dp, ds;        /* pitches and slice pitches */
  uint8_t *vol;                 /* padded work volume */
  size_t pw, pslice, ptotal;    /* its pitch, slice pitch, bytes */
  int w, h, d, nbx, nby, nbz, nbricks;
  int *touched;                 /* per brick: last sub-iteration a brick of
                                 * its neighbourhood changed */
  uint32_t *mask;               /* per brick: WORDS words of deletions */
  int *list;                    /* 2 x nbricks: bricks with deletions */
  unsigned long long *ctl;
  CipThin3dResult *result;
  unsigned max_rounds;
};

__device__ __forceinline__ int
brick_of (const Args & a, int x, int y, int z)
{
  return (z / BZ * a.nby + y / BY) * a.nbx + x / BX;
}

/* Brick @b and its one-voxel halo into @tile.  __ldcg: other blocks write
 * the volume during the launch, and L1 is not coherent. */
__device__ void
load_tile (const Args & a, int b, uint8_t (*tile)[BY + 2][BX + 2])
{
  const int bx = b % a.nbx, by = b / a.nbx % a.nby, bz = b / a.nbx / a.nby;
  const uint8_t *base = a.vol + (size_t) (bz * BZ) * a.pslice +
      (size_t) (by * BY) * a.pw + bx * BX;
  constexpr int TILE = (BZ + 2) * (BY + 2) * (BX + 2);

  for (int i = threadIdx.x; i < TILE; i += THREADS) {
    const int xx = i % (BX + 2), yy = i / (BX + 2) % (BY + 2),
        zz = i / (BX + 2) / (BY + 2);
    tile[zz][yy][xx] = __ldcg (base + (size_t) zz * a.pslice +
        (size_t) yy * a.pw + xx);
  }
  __syncthreads ();
}

/* The 3x3 plane @j of the tile around column (@tx, @ty) as 9 bits (dy * 3
 * + dx): the voxels whose byte has all the bits of @bits */
__device__ __forceinline__ uint32_t
tile_plane (const uint8_t (*tile)[BY + 2][BX + 2], int j, int ty, int tx,
    unsigned bits)
{
  uint32_t p = 0;
#pragma unroll
  for (int dy = 0; dy < 3; dy++)
#pragma unroll
    for (int dx = 0; dx < 3; dx++)
      p |= (uint32_t) ((tile[j][ty + dy][tx + dx] & bits) == bits) <<
          (dy * 3 + dx);
  return p;
}

/* Evaluate brick @b for direction @k; returns the voxels to delete. */
__device__ int
evaluate (const Args & a, int b, int k, uint8_t (*tile)[BY + 2][BX + 2],
    uint32_t * dmask)
{
  const int tid = threadIdx.x, tx = tid % BX, ty = tid / BX;

  load_tile (a, b, tile);
  uint32_t pl[BZ + 2];
#pragma unroll
  for (int j = 0; j < BZ + 2; j++)
    pl[j] = tile_plane (tile, j, ty, tx, 1);
  int count = 0;
#pragma unroll
  for (int j = 0; j < BZ; j++) {
    const uint32_t n = pl[j] | pl[j + 1] << 9 | pl[j + 2] << 18;
    const unsigned del = __ballot_sync (~0u, deletable (n, k));
    if (tx == 0)
      dmask[j * BY + ty] = del;
    count += __popc (del);
  }
  /* count: the warp's deletions, the same in every lane */
  return count;
}

/* A block's shared memory: a brick with its halo, the brick's bit masks
 * (a word a row of 32 voxels), a count per warp */
struct BrickShared
{
  uint8_t tile[BZ + 2][BY + 2][BX + 2];
  uint32_t mask[WORDS];
  int warp_n[THREADS / 32];
};

/* After brick @b's evaluation, @n (per warp) things found: if any warp
 * found one, the brick's mask words @smask are stored and @b is appended
 * to @list (@count its length).  Uses @warp_n (shared) and a barrier. */
__device__ __forceinline__ void
list_brick (const Args & a, int b, int n, const uint32_t * smask,
    int *warp_n, int *list, unsigned long long *count)
{
  const int tid = threadIdx.x;
  int any = 0;

  if (tid % 32 == 0)
    warp_n[tid / 32] = n;
  __syncthreads ();
#pragma unroll
  for (int w = 0; w < THREADS / 32; w++)
    any |= warp_n[w];
  if (any) {
    if (tid < WORDS)
      a.mask[(size_t) b * WORDS + tid] = smask[tid];
    if (tid == 0)
      list[atomicAdd (count, 1ull)] = b;
  }
}

/* The voxel row of mask word @wd of brick @b: bit x is voxel x of it */
__device__ __forceinline__ uint8_t *
mask_row (const Args & a, int b, int wd)
{
  const int bx = b % a.nbx, by = b / a.nbx % a.nby, bz = b / a.nbx / a.nby;
  return a.vol + (size_t) (bz * BZ + wd / BY + 1) * a.pslice +
      (size_t) (by * BY + wd % BY + 1) * a.pw + bx * BX + 1;
}

/* Start of a launch: the control words zeroed, every brick's state
 * @none, then the work volume filled: 0/1, background in the margin and
 * the padding; bricks with an object voxel get state @some. */
__device__ void
fill (const Args & a, cg::grid_group & grid, int none, int some)
{
  const size_t gtid = grid.thread_rank (), gthreads = grid.size ();

  for (size_t i = gtid; i < (size_t) a.nbricks; i += gthreads)
    a.touched[i] = none;
  if (gtid < CTL_N)
    a.ctl[gtid] = 0;
  grid.sync ();
  for (size_t i = gtid; i < a.ptotal; i += gthreads) {
    const int x = (int) (i % a.pw) - 1, y = (int) (i / a.pw % (a.pslice /
            a.pw)) - 1, z = (int) (i / a.pslice) - 1;
    uint8_t v = 0;
    if (x >= 0 && x < a.w && y >= 0 && y < a.h && z >= 0 && z < a.d &&
        a.src[(size_t) z * a.ss + (size_t) y * a.sp + x]) {
      v = 1;
      a.touched[brick_of (a, x, y, z)] = some;
    }
    a.vol[i] = v;
  }
  grid.sync ();
}

/* End of a launch: the work volume out as 0/255, and the result. */
__device__ void
finish (const Args & a, cg::grid_group & grid, unsigned rounds,
    bool converged, unsigned steps, unsigned long long bricks)
{
  const size_t gtid = grid.thread_rank (), gthreads = grid.size ();
  unsigned long long left = 0;

  for (size_t i = gtid; i < (size_t) a.w * a.h * a.d; i += gthreads) {
    const int x = (int) (i % a.w), y = (int) (i / a.w % a.h),
        z = (int) (i / a.w / a.h);
    const uint8_t v = __ldcg (a.vol + (size_t) (z + 1) * a.pslice +
        (size_t) (y + 1) * a.pw + x + 1);
    a.dst[(size_t) z * a.ds + (size_t) y * a.dp + x] = v ? 255 : 0;
    left += v;
  }
  if (left)
    atomicAdd (&a.ctl[CTL_VOXELS], left);
  if (bricks)
    atomicAdd (&a.ctl[CTL_BRICKS], bricks);
  grid.sync ();
  if (gtid == 0 && a.result) {
    CipThin3dResult res = { };
    res.rounds = rounds;
    res.converged = converged;
    res.subiterations = steps;
    res.bricks = __ldcg (&a.ctl[CTL_BRICKS]);
    res.voxels = __ldcg (&a.ctl[CTL_VOXELS]);
    *a.result = res;
  }
}

__global__ void __launch_bounds__ (THREADS)
pk12_kernel (Args a)
{
  cg::grid_group grid = cg::this_grid ();
  __shared__ BrickShared sh;
  const int tid = threadIdx.x;
  const size_t gtid = grid.thread_rank (), gthreads = grid.size ();
  unsigned long long bricks = 0;

  /* a brick with an object voxel is evaluated in the first round */
  fill (a, grid, NEVER, 0);

  /* rounds: those that deleted, so also the index of the running round
   * (the first that deletes nothing is the last) */
  unsigned rounds = 0, s = 0;
  bool converged = false;
  for (;;) {
    const int k = s % NDIR;
    int *list = a.list + (size_t) (s & 1) * a.nbricks;

    /* evaluate */
    for (int b = blockIdx.x; b < a.nbricks; b += gridDim.x) {
      if (__ldcg (&a.touched[b]) < (int) s - NDIR)
        continue;
      list_brick (a, b, evaluate (a, b, k, sh.tile, sh.mask), sh.mask,
          sh.warp_n, list, &a.ctl[CTL_LIST + (s & 1)]);
      bricks += tid == 0;
      __syncthreads ();         /* sh is reused */
    }
    /* the next sub-iteration's list is free: last read before the
     * barrier that began this one */
    if (gtid == 0)
      a.ctl[CTL_LIST + ((s + 1) & 1)] = 0;
    grid.sync ();

    /* apply, and mark the changed bricks' neighbourhoods */
    const unsigned long long n = __ldcg (&a.ctl[CTL_LIST + (s & 1)]);
    unsigned long long del = 0;
    for (size_t i = gtid; i < n * WORDS; i += gthreads) {
      const int b = __ldcg (&list[i / WORDS]), wd = (int) (i % WORDS);
      uint32_t m = __ldcg (&a.mask[(size_t) b * WORDS + wd]);
      if (!m)
        continue;
      uint8_t *row = mask_row (a, b, wd);
      del += __popc (m);
      while (m) {
        row[__ffs (m) - 1] = 0;
        m &= m - 1;
      }
    }
    for (size_t i = gtid; i < n * 27; i += gthreads) {
      const int b = __ldcg (&list[i / 27]), j = (int) (i % 27);
      const int bx = b % a.nbx + j % 3 - 1, by = b / a.nbx % a.nby +
          j / 3 % 3 - 1, bz = b / a.nbx / a.nby + j / 9 - 1;
      if (bx >= 0 && bx < a.nbx && by >= 0 && by < a.nby && bz >= 0 &&
          bz < a.nbz)
        a.touched[(bz * a.nby + by) * a.nbx + bx] = (int) s;
    }
    if (del)
      atomicAdd (&a.ctl[CTL_ROUND + (rounds & 1)], del);
    /* the next round's counter: last read at the end of the previous
     * round, before this round's first barrier */
    if (k == 0 && gtid == 0)
      a.ctl[CTL_ROUND + ((rounds + 1) & 1)] = 0;
    grid.sync ();

    s++;
    if (k == NDIR - 1) {
      const unsigned long long dr = __ldcg (&a.ctl[CTL_ROUND + (rounds & 1)]);
      if (!dr) {
        converged = true;
        break;
      }
      rounds++;
      if (a.max_rounds && rounds >= a.max_rounds)
        break;
    }
  }

  finish (a, grid, rounds, converged, s, bricks);
}

/* ---- Lee, Kashyap & Chu 1994 (scikit-image's skeletonize) -------------- */

/* A pass (one border direction) collects candidates, the voxels that are
 * deletable on the volume as it stands, then rechecks them one by one in
 * raster order, each deleted if it still is simple after the earlier
 * deletions.  A candidate's recheck sees its 13 earlier neighbours as
 * decided and its 13 later ones as they were, so the outcome is the
 * unique fixed point of "deleted = simple, with the earlier candidate
 * neighbours as decided": every candidate starts as deleted and is
 * re-decided against its neighbours' current decisions, over and over,
 * until a whole sweep changes no decision (then every decision agrees with
 * the others, which only the sequential outcome does).  A sweep or two
 * usually settles it.  Work volume bytes: bit 0 object, bit 1 candidate,
 * bit 2 decided deleted. */

constexpr uint32_t ALL27 = (1u << 27) - 1, CENTRE = 1u << 13;
constexpr uint32_t EARLIER = CENTRE - 1;        /* raster order: z, y, x */
constexpr uint8_t CAND = 2, DEL = 4;

/* the bits whose coordinate along @axis (0 x, 1 y, 2 z) is @v (0..2) */
__host__ __device__ constexpr uint32_t
axis_plane (int axis, int v)
{
  uint32_t m = 0;
  for (int i = 0; i < 27; i++)
    if ((axis == 0 ? i % 3 : axis == 1 ? i / 3 % 3 : i / 9) == v)
      m |= 1u << i;
  return m;
}

/* the 26-neighbours of the bits of @m, and @m */
__device__ __forceinline__ uint32_t
dilate26 (uint32_t m)
{
  constexpr uint32_t X0 = axis_plane (0, 0), X2 = axis_plane (0, 2);
  constexpr uint32_t Y0 = axis_plane (1, 0), Y2 = axis_plane (1, 2);
  m |= (m & ~X2) << 1 | (m & ~X0) >> 1;
  m |= (m & ~Y2) << 3 | (m & ~Y0) >> 3;
  m |= m << 9 | m >> 9;
  return m & ALL27;
}

/* Lee's conditions 2 and 3 as scikit-image tests them: the object voxels
 * among the 26 neighbours form at most one 26-connected component */
__device__ __forceinline__ bool
lee_simple (uint32_t n)
{
  const uint32_t obj = n & ALL27 & ~CENTRE;
  uint32_t c = obj & (0u - obj);
  if (!obj)
    return true;
  for (;;) {
    const uint32_t grown = dilate26 (c) & obj;
    if (grown == c)
      return c == obj;
    c = grown;
  }
}

/* Lee's condition 1: the Euler characteristic kept (thin3d_lee.h) */
__device__ __forceinline__ bool
lee_euler_invariant (uint32_t n)
{
  int sum = 0;
#pragma unroll
  for (int o = 0; o < 8; o++) {
    const int sx = o & 1 ? 1 : -1, sy = o & 2 ? 1 : -1, sz = o & 4 ? 1 : -1;
    unsigned cfg = 0;
#pragma unroll
    for (int j = 1; j < 8; j++)
      if (n & bit_of ((j & 1) * sx, (j >> 1 & 1) * sy, (j >> 2) * sz))
        cfg |= 1u << (j - 1);
    sum += cip_lee_octant_delta (cfg);
  }
  return sum == 0;
}

/* scikit-image's order: y - 1, y + 1, x + 1, x - 1, z + 1, z - 1; a
 * single slice only the first four */
__constant__ uint32_t c_lee_dir[6] = {
  bit_of (0, -1, 0), bit_of (0, 1, 0), bit_of (1, 0, 0), bit_of (-1, 0, 0),
  bit_of (0, 0, 1), bit_of (0, 0, -1)
};

/* Grid-wide sums, one per barrier-delimited step @t: step t adds to slot
 * t % 3 and clears slot (t + 1) % 3, which was last read in step t - 1. */
__device__ __forceinline__ unsigned long long *
step_sum (const Args & a, unsigned t)
{
  return &a.ctl[CTL_STEP + t % 3];
}

/* Candidates of brick @b for the border whose neighbour is @dir: marked
 * CAND | DEL in the volume and in @cmask; returns the candidates (in
 * every lane of a warp) and sets *@objects if the brick has an object
 * voxel. */
__device__ int
lee_scan (const Args & a, int b, uint32_t dir, uint8_t (*tile)[BY + 2][BX + 2],
    uint32_t * cmask, bool *objects)
{
  const int tid = threadIdx.x, tx = tid % BX, ty = tid / BX;
  const int bx = b % a.nbx, by = b / a.nbx % a.nby, bz = b / a.nbx / a.nby;
  uint8_t *col = a.vol + (size_t) (bz * BZ + 1) * a.pslice +
      (size_t) (by * BY + ty + 1) * a.pw + bx * BX + tx + 1;

  load_tile (a, b, tile);
  uint32_t pl[BZ + 2];
#pragma unroll
  for (int j = 0; j < BZ + 2; j++)
    pl[j] = tile_plane (tile, j, ty, tx, 1);
  int count = 0;
  bool any = false;
#pragma unroll
  for (int j = 0; j < BZ; j++) {
    const uint32_t n = pl[j] | pl[j + 1] << 9 | pl[j + 2] << 18;
    const bool cand = (n & CENTRE) && !(n & dir) &&
        __popc (n & ~CENTRE) != 1 && lee_euler_invariant (n) &&
        lee_simple (n);
    const unsigned m = __ballot_sync (~0u, cand);
    any |= (n & CENTRE) != 0;
    if (cand)
      col[(size_t) j * a.pslice] = 1 | CAND | DEL;
    if (tx == 0)
      cmask[j * BY + ty] = m;
    count += __popc (m);
  }
  *objects = __syncthreads_or (any);
  return count;
}

/* One sweep over brick @b's candidates (@cmask): each re-decided against
 * the current decisions of its earlier neighbours.  Returns how many
 * decisions changed. */
__device__ int
lee_sweep (const Args & a, int b, const uint32_t * cmask,
    uint8_t (*tile)[BY + 2][BX + 2])
{
  const int tid = threadIdx.x, tx = tid % BX, ty = tid / BX;
  const int bx = b % a.nbx, by = b / a.nbx % a.nby, bz = b / a.nbx / a.nby;
  uint8_t *col = a.vol + (size_t) (bz * BZ + 1) * a.pslice +
      (size_t) (by * BY + ty + 1) * a.pw + bx * BX + tx + 1;
  int changed = 0;

  load_tile (a, b, tile);
#pragma unroll
  for (int j = 0; j < BZ; j++) {
    if (!(cmask[j * BY + ty] >> tx & 1))
      continue;
    uint32_t obj = 0, gone = 0;
#pragma unroll
    for (int dz = 0; dz < 3; dz++) {
      obj |= tile_plane (tile, j + dz, ty, tx, 1) << (9 * dz);
      gone |= tile_plane (tile, j + dz, ty, tx, 1 | CAND | DEL) << (9 * dz);
    }
    const bool del = lee_simple (obj & ~(gone & EARLIER));
    if (del != ((tile[j + 1][ty + 1][tx + 1] & DEL) != 0)) {
      col[(size_t) j * a.pslice] = 1 | CAND | (del ? DEL : 0);
      changed++;
    }
  }
  return changed;
}

__global__ void __launch_bounds__ (THREADS)
lee94_kernel (Args a)
{
  cg::grid_group grid = cg::this_grid ();
  __shared__ BrickShared sh;
  const int tid = threadIdx.x;
  const size_t gtid = grid.thread_rank (), gthreads = grid.size ();
  const int ndir = a.d == 1 ? 4 : 6;
  unsigned long long bricks = 0;

  /* touched: 1 while a brick has an object voxel */
  fill (a, grid, 0, 1);

  unsigned rounds = 0, pass = 0, t = 0;
  int unchanged = 0;
  bool converged = false;
  for (;;) {
    const int k = pass % ndir;
    int *list = a.list;
    unsigned long long *nlist = &a.ctl[CTL_LIST + (pass & 1)];

    /* candidates; the next pass's list counter was last read in the
     * previous pass */
    if (gtid == 0)
      a.ctl[CTL_LIST + ((pass + 1) & 1)] = 0;
    for (int b = blockIdx.x; b < a.nbricks; b += gridDim.x) {
      if (!__ldcg (&a.touched[b]))
        continue;
      bool objects;
      const int n = lee_scan (a, b, c_lee_dir[k], sh.tile, sh.mask,
          &objects);
      list_brick (a, b, n, sh.mask, sh.warp_n, list, nlist);
      if (!objects && tid == 0)
        a.touched[b] = 0;
      bricks += tid == 0;
      __syncthreads ();         /* sh is reused */
    }
    grid.sync ();
    const unsigned long long nb = __ldcg (nlist);

    /* sweeps until no decision changes */
    while (nb) {
      unsigned long long changed = 0;
      if (gtid == 0)
        *step_sum (a, t + 1) = 0;
      for (unsigned long long i = blockIdx.x; i < nb; i += gridDim.x) {
        const int b = __ldcg (&list[i]);
        if (tid < WORDS)
          sh.mask[tid] = __ldcg (&a.mask[(size_t) b * WORDS + tid]);
        __syncthreads ();
        changed += lee_sweep (a, b, sh.mask, sh.tile);
        __syncthreads ();
      }
      if (changed)
        atomicAdd (step_sum (a, t), changed);
      grid.sync ();
      const bool settled = !__ldcg (step_sum (a, t));
      t++;
      if (settled)
        break;
    }

    /* the decisions applied */
    unsigned long long del = 0;
    if (gtid == 0)
      *step_sum (a, t + 1) = 0;
    for (size_t i = gtid; i < nb * WORDS; i += gthreads) {
      const int b = __ldcg (&list[i / WORDS]), wd = (int) (i % WORDS);
      uint32_t m = __ldcg (&a.mask[(size_t) b * WORDS + wd]);
      uint8_t *row = mask_row (a, b, wd);
      while (m) {
        uint8_t *v = row + __ffs (m) - 1;
        const bool gone = (__ldcg (v) & DEL) != 0;
        *v = !gone;
        del += gone;
        m &= m - 1;
      }
    }
    if (del)
      atomicAdd (step_sum (a, t), del);
    grid.sync ();
    const bool deleted = __ldcg (step_sum (a, t)) != 0;
    t++;

    pass++;
    unchanged += !deleted;
    if (k == ndir - 1) {
      if (unchanged == ndir) {
        converged = true;
        break;
      }
      unchanged = 0;
      rounds++;
      if (a.max_rounds && rounds >= a.max_rounds)
        break;
    }
  }
  finish (a, grid, rounds, converged, pass, bricks);
}

/* ---- the naive loop ---------------------------------------------------- */

__global__ void
naive_kernel (const uint8_t * src, uint8_t * dst, int w, int h, int d,
    int k, unsigned long long *deleted)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z;
  if (x >= w || y >= h)
    return;
  const size_t i = ((size_t) z * h + y) * w + x;
  uint32_t n = 0;
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const int xx = x + dx, yy = y + dy, zz = z + dz;
        if (xx >= 0 && xx < w && yy >= 0 && yy < h && zz >= 0 && zz < d &&
            src[((size_t) zz * h + yy) * w + xx])
          n |= bit_of (dx, dy, dz);
      }
  const bool del = deletable (n, k);
  dst[i] = src[i] && !del;
  if (del)
    atomicAdd (deleted, 1ull);
}

}                               /* namespace */

struct _CipThin3d
{
  int width, height, depth, nbx, nby, nbz, nbricks, grid_pk12, grid_lee94;
  size_t pw, pslice, ptotal;
  void *mem;
  uint8_t *vol;
  int *touched, *list;
  uint32_t *mask;
  unsigned long long *ctl;
};

static size_t
align256 (size_t n)
{
  return (n + 255) & ~(size_t) 255;
}

struct Layout
{
  int nbx, nby, nbz, nbricks;
  size_t pw, pslice, ptotal, off_touched, off_list, off_mask, off_ctl, size;
};

static bool
layout (int width, int height, int depth, Layout * l)
{
  if (width < 1 || height < 1 || depth < 1)
    return false;
  l->nbx = (width + BX - 1) / BX;
  l->nby = (height + BY - 1) / BY;
  l->nbz = (depth + BZ - 1) / BZ;
  size_t bricks;
  /* every product checked: a volume too large is refused, never wrapped */
  if (__builtin_mul_overflow ((size_t) l->nbx, (size_t) l->nby, &bricks) ||
      __builtin_mul_overflow (bricks, (size_t) l->nbz, &bricks) ||
      bricks > (1u << 29))
    return false;
  l->nbricks = (int) bricks;
  l->pw = (size_t) l->nbx * BX + 2;
  if (__builtin_mul_overflow (l->pw, (size_t) l->nby * BY + 2, &l->pslice) ||
      __builtin_mul_overflow (l->pslice, (size_t) l->nbz * BZ + 2,
          &l->ptotal))
    return false;
  l->off_touched = align256 (l->ptotal);
  l->off_list = l->off_touched + align256 (sizeof (int) * l->nbricks);
  l->off_mask = l->off_list + align256 (2 * sizeof (int) * l->nbricks);
  l->off_ctl = l->off_mask + align256 (sizeof (uint32_t) * WORDS *
      (size_t) l->nbricks);
  l->size = l->off_ctl + align256 (sizeof (unsigned long long) * CTL_N);
  return true;
}

extern "C" size_t
cip_thin3d_scratch_size (int width, int height, int depth)
{
  Layout l;
  return layout (width, height, depth, &l) ? l.size : 0;
}

extern "C" cudaError_t
cip_thin3d_create (CipThin3d ** out, int width, int height, int depth)
{
  CipThin3d *th;
  Layout l;
  int cap, cap_lee;
  cudaError_t err;

  *out = NULL;
  if (!layout (width, height, depth, &l))
    return cudaErrorInvalidValue;
  if ((err = cip::cooperative_capacity (pk12_kernel, THREADS, &cap)) !=
      cudaSuccess ||
      (err = cip::cooperative_capacity (lee94_kernel, THREADS, &cap_lee)) !=
      cudaSuccess)
    return err;

  th = new (std::nothrow) CipThin3d ();
  if (!th)
    return cudaErrorMemoryAllocation;
  th->width = width;
  th->height = height;
  th->depth = depth;
  th->nbx = l.nbx;
  th->nby = l.nby;
  th->nbz = l.nbz;
  th->nbricks = l.nbricks;
  th->pw = l.pw;
  th->pslice = l.pslice;
  th->ptotal = l.ptotal;
  th->grid_pk12 = cap;
  th->grid_lee94 = cap_lee;
  if ((err = cip_malloc (&th->mem, l.size, "cudathin3d work volume"))
      != cudaSuccess) {
    delete th;
    return err;
  }
  th->vol = (uint8_t *) th->mem;
  th->touched = (int *) ((char *) th->mem + l.off_touched);
  th->list = (int *) ((char *) th->mem + l.off_list);
  th->mask = (uint32_t *) ((char *) th->mem + l.off_mask);
  th->ctl = (unsigned long long *) ((char *) th->mem + l.off_ctl);
  *out = th;
  return cudaSuccess;
}

extern "C" void
cip_thin3d_destroy (CipThin3d * th)
{
  if (!th)
    return;
  cip_free (th->mem);
  delete th;
}

extern "C" cudaError_t
cip_thin3d (CipThin3d * th, const void *src, size_t src_pitch,
    size_t src_slice_pitch, void *dst, size_t dst_pitch,
    size_t dst_slice_pitch, CipThin3dMethod method, unsigned max_rounds,
    CipThin3dResult * result, cudaStream_t stream)
{
  Args a;
  void *params[] = { &a };

  if (method != CIP_THIN3D_PK12 && method != CIP_THIN3D_LEE94)
    return cudaErrorInvalidValue;
  a.src = (const uint8_t *) src;
  a.dst = (uint8_t *) dst;
  a.sp = src_pitch;
  a.ss = src_slice_pitch;
  a.dp = dst_pitch;
  a.ds = dst_slice_pitch;
  a.vol = th->vol;
  a.pw = th->pw;
  a.pslice = th->pslice;
  a.ptotal = th->ptotal;
  a.w = th->width;
  a.h = th->height;
  a.d = th->depth;
  a.nbx = th->nbx;
  a.nby = th->nby;
  a.nbz = th->nbz;
  a.nbricks = th->nbricks;
  a.touched = th->touched;
  a.mask = th->mask;
  a.list = th->list;
  a.ctl = th->ctl;
  a.result = result;
  a.max_rounds = max_rounds;
  if (method == CIP_THIN3D_LEE94)
    return cudaLaunchCooperativeKernel ((const void *) lee94_kernel,
        th->grid_lee94, THREADS, params, 0, stream);
  return cudaLaunchCooperativeKernel ((const void *) pk12_kernel,
      th->grid_pk12, THREADS, params, 0, stream);
}

extern "C" cudaError_t
cip_thin3d_naive_step (const uint8_t * src, uint8_t * dst, int width,
    int height, int depth, int k, unsigned long long *deleted,
    cudaStream_t stream)
{
  const dim3 block (32, 8);
  const dim3 grid ((width + 31) / 32, (height + 7) / 8, depth);
  if (k < 0 || k >= NDIR)
    return cudaErrorInvalidValue;
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  naive_kernel <<< grid, block, 0, stream >>> (src, dst, width, height,
      depth, k, deleted);
  return cudaGetLastError ();
}
