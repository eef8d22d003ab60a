/* cudaimgproc: iterative thinning kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Bit planes: 32 pixels a word, bit i of word j in a row is column 32j + i,
 * rows padded to whole tiles with background (which never turns
 * foreground), so pixels outside the frame read as background for free.
 * With CIP_THIN_BORDER_OPENCV a pass puts back the outermost rows' and
 * columns' pixels it removed (they are read as they are, as OpenCV's
 * thinning reads them; the outside is only ever read by them).
 * A neighbour column is a funnel shift, and each method's conditions are
 * bitwise counters over the eight neighbour planes: one word evaluates 32
 * pixels in about 100 instructions.
 *
 * One cooperative launch does a whole frame: pack, then steps of up to K
 * passes each, a grid barrier after each step, then unpack.  A step loads a
 * tile with a 2K-row halo (one word each side covers 2K columns) into
 * shared memory and runs its passes there.  A pass reads 2 pixels around
 * each pixel, so if no tile of a tile's 3x3 neighbourhood changed in the
 * previous step, the tile cannot change in this one (tiles are at least 2K
 * pixels each way): it is skipped, and keeps its buffer (per-tile buffer
 * selection instead of a copy).
 */
#include "thin.h"
#include "cip_alloc.h"
#include "cip_block.cuh"
#include "cip_cooperative.cuh"

#include <new>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

namespace {

constexpr int TW = 8;           /* tile width in words: 256 pixels */
constexpr int TH = 32;          /* tile height in rows */
constexpr int K = 8;            /* passes per grid step */
constexpr int HALO = 2 * K;     /* a pass reads 2 rows above and below */
constexpr int SR = TH + 2 * HALO;       /* rows in shared memory */
constexpr int SW = TW + 2;      /* words per shared row */
constexpr int THREADS = TW * TH;        /* one thread per word of a tile */
/* The lean kernel's blocks an SM must hold (48 registers a thread, a few
 * spilled): a frame whose grid fills half the GPU or a little more (1080p:
 * 272 blocks; an H100/H200 holds 528 of the full kernel, 660 of the lean)
 * then leaves room for another stream's frame beside it, which otherwise
 * waits for all of it.  Alone a frame is 3-10 % slower lean, so the full
 * kernel runs where two grids fit either way or neither does. */
constexpr int LEAN_BLOCKS = 5;
static_assert (2 * K <= 32, "the one-word side halo covers 2K columns");
static_assert (2 * K <= TH, "skipping needs tiles at least 2K rows tall");
static_assert (HALO <= TH, "the halo reaches only the adjacent tiles");

struct Args
{
  const uint8_t *src;
  uint8_t *dst;
  int src_pitch, dst_pitch;
  int src_aligned, dst_aligned; /* 4-byte loads and stores possible */
  int width, height, wwords;    /* wwords: words holding pixels of a row */
  int tiles_x, tiles_y, ntiles, pw;     /* pw: words per padded row */
  uint32_t *bits0, *bits1;      /* selected with ?:, not indexed: an
                                 * indexed array would live in local memory */
  uint8_t *sel;                 /* 2 x ntiles: buffer of each tile's data */
  uint32_t *epoch;              /* step in which the tile last changed */
  unsigned *ctl;                /* changed[3], last pass, tile-steps */
  CipThinResult *result;
  unsigned max_passes;
  int keep_border;              /* CIP_THIN_BORDER_OPENCV */
};

/* ---- bitwise neighbourhood logic --------------------------------------- */

/* A row's word at column word x and its neighbours one and two columns
 * west and one east, as planes aligned with the centre word. */
struct Nb
{
  uint32_t ww, w, c, e;
};

__device__ __forceinline__ Nb
nb (const uint32_t * in, int y, int x)
{
  const uint32_t *r = in + y * SW;
  const uint32_t a = x > 0 ? r[x - 1] : 0u, b = r[x];
  const uint32_t c = x < SW - 1 ? r[x + 1] : 0u;
  return {__funnelshift_l (a, b, 2), __funnelshift_l (a, b, 1), b,
      __funnelshift_r (b, c, 1)};
}

/* Bit-sliced counting: after add()ing planes, one = at least one set,
 * two = at least two set. */
struct Count
{
  uint32_t one = 0, two = 0;
  __device__ __forceinline__ void add (uint32_t t)
  {
    two |= one & t;
    one |= t;
  }
  __device__ __forceinline__ uint32_t exactly_one () const
  {
    return one & ~two;
  }
};

/* Exactly one 0 -> 1 transition in the circular sequence v[0..7], v[0]. */
__device__ __forceinline__ uint32_t
one_transition (const uint32_t v[8])
{
  Count k;
#pragma unroll
  for (int i = 0; i < 8; i++)
    k.add (~v[i] & v[(i + 1) & 7]);
  return k.exactly_one ();
}

/* 2 <= number of set planes <= 6 */
__device__ __forceinline__ uint32_t
two_to_six (const uint32_t v[8])
{
  Count set, clear;
#pragma unroll
  for (int i = 0; i < 8; i++) {
    set.add (v[i]);
    clear.add (~v[i]);
  }
  return set.two & clear.two;
}

/* Hilditch: neighbours P2..P9 = N, NW, W, SW, S, SE, E, NE.  Reads rows
 * y-2..y+1, columns x-2..x+1. */
__device__ __forceinline__ uint32_t
hilditch (const uint32_t * in, int y, int x)
{
  const Nb m2 = nb (in, y - 2, x), m1 = nb (in, y - 1, x);
  const Nb z = nb (in, y, x), p1 = nb (in, y + 1, x);
  const uint32_t v[8] = { m1.c, m1.w, z.w, p1.w, p1.c, p1.e, z.e, m1.e };
  /* around P2 = (y-1, x) and around P4 = (y, x-1) */
  const uint32_t v2[8] = { m2.c, m2.w, m1.w, z.w, z.c, z.e, m1.e, m2.e };
  const uint32_t v4[8] = { m1.w, m1.ww, z.ww, p1.ww, p1.w, p1.c, z.c, m1.c };
  const uint32_t del = two_to_six (v) & one_transition (v) &
      (~(v[0] & v[2] & v[6]) | ~one_transition (v2)) &
      (~(v[0] & v[2] & v[4]) | ~one_transition (v4));
  return z.c & ~del;
}

/* OpenCV's labels: p2..p9 = N, NE, E, SE, S, SW, W, NW. */
struct Ring
{
  uint32_t c, p[8];
};

__device__ __forceinline__ Ring
ring (const uint32_t * in, int y, int x)
{
  const Nb m1 = nb (in, y - 1, x), z = nb (in, y, x), p1 = nb (in, y + 1, x);
  return {z.c, {m1.c, m1.e, z.e, p1.e, p1.c, p1.w, z.w, m1.w}};
}

/* cv::ximgproc::thinning, THINNING_ZHANGSUEN, sub-iteration @sub */
__device__ __forceinline__ uint32_t
zhang_suen (const uint32_t * in, int y, int x, int sub)
{
  const Ring r = ring (in, y, x);
  const uint32_t p2 = r.p[0], p4 = r.p[2], p6 = r.p[4], p8 = r.p[6];
  const uint32_t m1 = sub == 0 ? (p2 & p4 & p6) : (p2 & p4 & p8);
  const uint32_t m2 = sub == 0 ? (p4 & p6 & p8) : (p2 & p6 & p8);
  const uint32_t del = one_transition (r.p) & two_to_six (r.p) & ~m1 & ~m2;
  return r.c & ~del;
}

/* cv::ximgproc::thinning, THINNING_GUOHALL, sub-iteration @sub */
__device__ __forceinline__ uint32_t
guo_hall (const uint32_t * in, int y, int x, int sub)
{
  const Ring r = ring (in, y, x);
  const uint32_t p2 = r.p[0], p3 = r.p[1], p4 = r.p[2], p5 = r.p[3];
  const uint32_t p6 = r.p[4], p7 = r.p[5], p8 = r.p[6], p9 = r.p[7];
  Count c, n1, n2;
  c.add (~p2 & (p3 | p4));
  c.add (~p4 & (p5 | p6));
  c.add (~p6 & (p7 | p8));
  c.add (~p8 & (p9 | p2));
  const uint32_t a1 = p9 | p2, a2 = p3 | p4, a3 = p5 | p6, a4 = p7 | p8;
  const uint32_t b1 = p2 | p3, b2 = p4 | p5, b3 = p6 | p7, b4 = p8 | p9;
  n1.add (a1);
  n1.add (a2);
  n1.add (a3);
  n1.add (a4);
  n2.add (b1);
  n2.add (b2);
  n2.add (b3);
  n2.add (b4);
  /* N = min (N1, N2): N >= 2 needs both, N <= 3 needs one not to be 4 */
  const uint32_t n_ok = n1.two & n2.two &
      ~((a1 & a2 & a3 & a4) & (b1 & b2 & b3 & b4));
  const uint32_t m = sub == 0 ? ((p6 | p7 | ~p9) & p8) : ((p2 | p3 | ~p5) & p4);
  const uint32_t del = c.exactly_one () & n_ok & ~m;
  return r.c & ~del;
}

template <int M>
__device__ __forceinline__ uint32_t
step_word (const uint32_t * in, int y, int x, int sub)
{
  if (M == CIP_THIN_HILDITCH)
    return hilditch (in, y, x);
  else if (M == CIP_THIN_ZHANG_SUEN)
    return zhang_suen (in, y, x, sub);
  else
    return guo_hall (in, y, x, sub);
}

/* ---- packing ---------------------------------------------------------- */

/* bit i = (byte i of @v != 0) */
__device__ __forceinline__ uint32_t
nonzero_bits4 (uint32_t v)
{
  const uint32_t m = __vcmpne4 (v, 0u);
  return ((m >> 7) & 1u) | ((m >> 14) & 2u) | ((m >> 21) & 4u) |
      ((m >> 28) & 8u);
}

/* byte i = 255 * bit i of @nib */
__device__ __forceinline__ uint32_t
expand4 (uint32_t nib)
{
  return ((nib * 0x00204081u) & 0x01010101u) * 0xffu;
}

/* Thread i of the block packs word i of tile @t (row i / TW). */
__device__ void
pack_tile (const Args & a, int t)
{
  const int tx = t % a.tiles_x, ty = t / a.tiles_x;
  const int y = ty * TH + threadIdx.x / TW, xw = tx * TW + threadIdx.x % TW;
  uint32_t word = 0;

  if (y < a.height && xw < a.wwords) {
    const uint8_t *row = a.src + (size_t) y * a.src_pitch + xw * 32;
    const int n = min (32, a.width - xw * 32);
    if (n == 32 && a.src_aligned) {
      const uint32_t *p = (const uint32_t *) row;
#pragma unroll
      for (int q = 0; q < 8; q++)
        word |= nonzero_bits4 (__ldg (p + q)) << (4 * q);
    } else {
      for (int i = 0; i < n; i++)
        word |= (uint32_t) (__ldg (row + i) != 0) << i;
    }
  }
  a.bits0[(size_t) y * a.pw + xw] = word;
}

__device__ void
unpack_tile (const Args & a, int t, const uint32_t * bits)
{
  const int tx = t % a.tiles_x, ty = t / a.tiles_x;
  const int y = ty * TH + threadIdx.x / TW, xw = tx * TW + threadIdx.x % TW;

  if (y >= a.height || xw >= a.wwords)
    return;
  const uint32_t word = __ldcg (bits + (size_t) y * a.pw + xw);
  uint8_t *row = a.dst + (size_t) y * a.dst_pitch + xw * 32;
  const int n = min (32, a.width - xw * 32);
  if (n == 32 && a.dst_aligned) {
    uint32_t *p = (uint32_t *) row;
#pragma unroll
    for (int q = 0; q < 8; q++)
      p[q] = expand4 ((word >> (4 * q)) & 15u);
  } else {
    for (int i = 0; i < n; i++)
      row[i] = ((word >> i) & 1u) ? 255 : 0;
  }
}

/* ---- the step ---------------------------------------------------------- */

/* The pixels of word @xw of row @y that lie on the frame's outermost rows
 * and columns (rows outside the frame hold no pixel) */
__device__ __forceinline__ uint32_t
border_bits (const Args & a, int y, int xw)
{
  if (y == 0 || y == a.height - 1)
    return ~0u;
  return (xw == 0 ? 1u : 0u) |
      (xw == (a.width - 1) >> 5 ? 1u << ((a.width - 1) & 31) : 0u);
}

struct Shared
{
  uint32_t buf[2][SR * SW];
  int list[THREADS];
  int nlist;
  unsigned last;
  uint8_t sel[9];
};

/* Whether tile @t can change in step @step: a tile of its 3x3
 * neighbourhood changed in the previous step. */
__device__ __forceinline__ bool
tile_active (const Args & a, int t, unsigned step)
{
  if (step == 1)
    return true;
  const int tx = t % a.tiles_x, ty = t / a.tiles_x;
  unsigned m = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      const int x = tx + dx, y = ty + dy;
      if (x >= 0 && x < a.tiles_x && y >= 0 && y < a.tiles_y)
        m = max (m, __ldcg (a.epoch + y * a.tiles_x + x));
    }
  return m + 1 >= step;
}

/* @np passes on tile @t from its current buffer into the other one.
 * Returns the last pass (1-based) that changed the tile, 0 if none. */
template <int M>
__device__ unsigned
thin_tile (const Args & a, int t, const uint8_t * sel_cur,
    uint8_t * sel_next, unsigned np, Shared & s)
{
  constexpr int SUB = M == CIP_THIN_HILDITCH ? 1 : 2;
  constexpr int RAD = M == CIP_THIN_HILDITCH ? 2 : 1;
  const int tid = threadIdx.x;
  const int tx = t % a.tiles_x, ty = t / a.tiles_x;

  if (tid < 9) {
    const int x = tx + tid % 3 - 1, y = ty + tid / 3 - 1;
    s.sel[tid] = (x >= 0 && x < a.tiles_x && y >= 0 && y < a.tiles_y) ?
        __ldcg (sel_cur + y * a.tiles_x + x) : 2;
  }
  if (tid == 0)
    s.last = 0;
  __syncthreads ();

  const int gy0 = ty * TH - HALO, gx0 = tx * TW - 1;
  for (int i = tid; i < SR * SW; i += THREADS) {
    const int y = i / SW, x = i - y * SW;
    const int dy = y < HALO ? 0 : (y < HALO + TH ? 1 : 2);
    const int dx = x == 0 ? 0 : (x <= TW ? 1 : 2);
    const uint8_t b = s.sel[dy * 3 + dx];
    s.buf[0][i] = b < 2 ? __ldcg ((b ? a.bits1 : a.bits0) +
        (size_t) (gy0 + y) * a.pw + gx0 + x) : 0u;
  }
  __syncthreads ();

  unsigned last = 0;
  int cur = 0;
  for (unsigned p = 0; p < np; p++) {
#pragma unroll
    for (int sub = 0; sub < SUB; sub++) {
      const int lo = ((int) p * SUB + sub + 1) * RAD, hi = SR - lo;
      const uint32_t *in = s.buf[cur];
      uint32_t *out = s.buf[cur ^ 1];
      for (int i = tid; i < (hi - lo) * SW; i += THREADS) {
        const int y = lo + i / SW, x = i % SW;
        const uint32_t o = in[y * SW + x];
        uint32_t n = o ? step_word < M > (in, y, x, sub) : 0u;
        if (a.keep_border)
          n |= o & border_bits (a, gy0 + y, gx0 + x);
        out[y * SW + x] = n;
        if (n != o && y >= HALO && y < HALO + TH && x >= 1 && x <= TW)
          last = p + 1;
      }
      __syncthreads ();
      cur ^= 1;
    }
  }

  const uint8_t to = 1 - s.sel[4];
  uint32_t *dst = (to ? a.bits1 : a.bits0) + (size_t) ty * TH * a.pw + tx * TW;
  {
    const int y = tid / TW, x = tid % TW;
    dst[(size_t) y * a.pw + x] = s.buf[cur][(HALO + y) * SW + 1 + x];
  }
  if (tid == 0)
    sel_next[t] = to;
  if (last)
    atomicMax (&s.last, last);
  __syncthreads ();
  const unsigned r = s.last;
  __syncthreads ();
  return r;
}

template <int M, int MIN_BLOCKS>
__global__ void
__launch_bounds__ (THREADS, MIN_BLOCKS * THREADS <= CIP_SM_THREADS ?
    MIN_BLOCKS : CIP_SM_THREADS / THREADS)
thin_kernel (Args a)
{
  __shared__ Shared s;
  cg::grid_group grid = cg::this_grid ();
  const int tid = threadIdx.x;
  const int mine = (a.ntiles - (int) blockIdx.x + (int) gridDim.x - 1) /
      (int) gridDim.x;          /* tiles blockIdx.x + i * gridDim.x */

  for (int i = 0; i < mine; i++) {
    const int t = blockIdx.x + i * gridDim.x;
    pack_tile (a, t);
    if (tid == 0) {
      a.sel[a.ntiles + t] = 0;  /* step 1 reads sel[1] */
      a.epoch[t] = 0;
    }
  }
  if (blockIdx.x == 0 && tid < 5)
    a.ctl[tid] = 0;
  grid.sync ();

  unsigned step = 0, done = 0;
  for (;;) {
    step++;
    const unsigned np = a.max_passes ? min ((unsigned) K,
        a.max_passes - done) : (unsigned) K;
    const uint8_t *sel_cur = a.sel + (step & 1) * a.ntiles;
    uint8_t *sel_next = a.sel + ((step + 1) & 1) * a.ntiles;
    bool changed = false;
    unsigned worked = 0;

    for (int base = 0; base < mine; base += THREADS) {
      if (tid == 0)
        s.nlist = 0;
      __syncthreads ();
      if (base + tid < mine) {
        const int t = blockIdx.x + (base + tid) * gridDim.x;
        if (tile_active (a, t, step))
          s.list[atomicAdd (&s.nlist, 1)] = t;
        else
          sel_next[t] = __ldcg (sel_cur + t);
      }
      __syncthreads ();
      const int n = s.nlist;
      for (int j = 0; j < n; j++) {
        const int t = s.list[j];
        const unsigned last = thin_tile < M > (a, t, sel_cur, sel_next, np,
            s);
        if (last) {
          changed = true;
          if (tid == 0) {
            a.epoch[t] = step;
            atomicMax (&a.ctl[3], done + last);
          }
        }
      }
      worked += n;
    }
    if (tid == 0) {
      if (changed)
        *(volatile unsigned *) &a.ctl[step % 3] = 1;
      if (worked)
        atomicAdd (&a.ctl[4], worked);
      /* read by every block after the barrier two steps ago */
      if (blockIdx.x == 0)
        *(volatile unsigned *) &a.ctl[(step + 1) % 3] = 0;
    }
    grid.sync ();
    done += np;
    const unsigned any = __ldcg (&a.ctl[step % 3]);
    if (!any || (a.max_passes && done >= a.max_passes))
      break;
  }

  const uint8_t *sel_fin = a.sel + ((step + 1) & 1) * a.ntiles;
  for (int i = 0; i < mine; i++) {
    const int t = blockIdx.x + i * gridDim.x;
    unpack_tile (a, t, __ldcg (sel_fin + t) ? a.bits1 : a.bits0);
  }
  if (blockIdx.x == 0 && tid == 0 && a.result) {
    a.result->passes = __ldcg (&a.ctl[3]);
    a.result->converged = __ldcg (&a.ctl[3]) < done;
    a.result->steps = step;
    a.result->tiles = __ldcg (&a.ctl[4]);
  }
}

/* ---- the naive pass, one byte per pixel --------------------------------- */

__device__ __forceinline__ int
px (const uint8_t * s, int pitch, int w, int h, int y, int x)
{
  return x >= 0 && x < w && y >= 0 && y < h && s[(size_t) y * pitch + x];
}

__device__ int
naive_tr (const uint8_t * s, int pitch, int w, int h, int y, int x)
{
  /* N, NW, W, SW, S, SE, E, NE */
  const int dy[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
  const int dx[8] = { 0, -1, -1, -1, 0, 1, 1, 1 };
  int v[8], t = 0;
  for (int i = 0; i < 8; i++)
    v[i] = px (s, pitch, w, h, y + dy[i], x + dx[i]);
  for (int i = 0; i < 8; i++)
    t += !v[i] && v[(i + 1) & 7];
  return t;
}

__global__ void
naive_kernel (const uint8_t * src, uint8_t * dst, int pitch, int w, int h,
    int method, int sub, unsigned *changed)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const int p1 = px (src, pitch, w, h, y, x);
  int del = 0;
  if (p1 && method == CIP_THIN_HILDITCH) {
    const int dy[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
    const int dx[8] = { 0, -1, -1, -1, 0, 1, 1, 1 };
    int v[8], nz = 0;
    for (int i = 0; i < 8; i++)
      nz += v[i] = px (src, pitch, w, h, y + dy[i], x + dx[i]);
    del = nz >= 2 && nz <= 6 && naive_tr (src, pitch, w, h, y, x) == 1 &&
        (!(v[0] && v[2] && v[6])
        || naive_tr (src, pitch, w, h, y - 1, x) != 1) &&
        (!(v[0] && v[2] && v[4])
        || naive_tr (src, pitch, w, h, y, x - 1) != 1);
  } else if (p1) {
    /* p2..p9 = N, NE, E, SE, S, SW, W, NW */
    const int dy[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
    const int dx[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
    int p[10];
    for (int i = 0; i < 8; i++)
      p[i + 2] = px (src, pitch, w, h, y + dy[i], x + dx[i]);
    const int p2 = p[2], p3 = p[3], p4 = p[4], p5 = p[5], p6 = p[6];
    const int p7 = p[7], p8 = p[8], p9 = p[9];
    if (method == CIP_THIN_ZHANG_SUEN) {
      int a = 0, b = 0;
      for (int i = 2; i < 10; i++) {
        a += !p[i] && p[i == 9 ? 2 : i + 1];
        b += p[i];
      }
      const int m1 = sub == 0 ? p2 * p4 * p6 : p2 * p4 * p8;
      const int m2 = sub == 0 ? p4 * p6 * p8 : p2 * p6 * p8;
      del = a == 1 && b >= 2 && b <= 6 && !m1 && !m2;
    } else {
      const int c = (!p2 & (p3 | p4)) + (!p4 & (p5 | p6)) +
          (!p6 & (p7 | p8)) + (!p8 & (p9 | p2));
      const int n1 = (p9 | p2) + (p3 | p4) + (p5 | p6) + (p7 | p8);
      const int n2 = (p2 | p3) + (p4 | p5) + (p6 | p7) + (p8 | p9);
      const int n = n1 < n2 ? n1 : n2;
      const int m = sub == 0 ? ((p6 | p7 | !p9) & p8) : ((p2 | p3 | !p5) & p4);
      del = c == 1 && n >= 2 && n <= 3 && !m;
    }
  }
  dst[(size_t) y * pitch + x] = p1 && !del;
  if (del)
    *changed = 1;
}

/* [lean][method] */
const void *const thin_kernels[2][3] = {
  /* 0: the compiler's own choice, 58-61 registers (4 blocks an SM) */
  {(const void *) thin_kernel < CIP_THIN_HILDITCH, 0 >,
      (const void *) thin_kernel < CIP_THIN_ZHANG_SUEN, 0 >,
      (const void *) thin_kernel < CIP_THIN_GUO_HALL, 0 >},
  {(const void *) thin_kernel < CIP_THIN_HILDITCH, LEAN_BLOCKS >,
      (const void *) thin_kernel < CIP_THIN_ZHANG_SUEN, LEAN_BLOCKS >,
      (const void *) thin_kernel < CIP_THIN_GUO_HALL, LEAN_BLOCKS >},
};

}                               /* namespace */

struct _CipThin
{
  int width, height, wwords, tiles_x, tiles_y, ntiles, pw;
  int grid[3];
  const void *fn[3];
  void *mem;
  uint32_t *bits[2];
  uint8_t *sel;
  uint32_t *epoch;
  unsigned *ctl;
};

extern "C" cudaError_t
cip_thin_create (CipThin ** out, int width, int height)
{
  CipThin *th;
  int cap[2][3];
  cudaError_t err;

  *out = NULL;
  if (width < 1 || height < 1)
    return cudaErrorInvalidValue;
  for (int lean = 0; lean < 2; lean++)
    for (int m = 0; m < 3; m++)
      if ((err = cip::cooperative_capacity (thin_kernels[lean][m], THREADS,
                  &cap[lean][m])) != cudaSuccess)
        return err;

  th = new (std::nothrow) CipThin ();
  if (!th)
    return cudaErrorMemoryAllocation;
  th->width = width;
  th->height = height;
  th->wwords = (width + 31) / 32;
  th->tiles_x = (th->wwords + TW - 1) / TW;
  th->tiles_y = (height + TH - 1) / TH;
  th->ntiles = th->tiles_x * th->tiles_y;
  th->pw = th->tiles_x * TW;
  for (int m = 0; m < 3; m++) {
    const int lean = 2 * th->ntiles > cap[0][m] &&
        2 * th->ntiles <= cap[1][m];
    th->fn[m] = thin_kernels[lean][m];
    th->grid[m] = min (th->ntiles, cap[lean][m]);
  }

  const size_t plane = (size_t) th->pw * th->tiles_y * TH * sizeof (uint32_t);
  const size_t epoch_off = 2 * plane;
  const size_t ctl_off = epoch_off + (size_t) th->ntiles * sizeof (uint32_t);
  const size_t sel_off = ctl_off + 8 * sizeof (unsigned);
  err = cip_malloc (&th->mem, sel_off + 2 * (size_t) th->ntiles,
      "cudathin bit planes");
  if (err != cudaSuccess) {
    delete th;
    return err;
  }
  uint8_t *base = (uint8_t *) th->mem;
  th->bits[0] = (uint32_t *) base;
  th->bits[1] = (uint32_t *) (base + plane);
  th->epoch = (uint32_t *) (base + epoch_off);
  th->ctl = (unsigned *) (base + ctl_off);
  th->sel = base + sel_off;
  *out = th;
  return cudaSuccess;
}

extern "C" void
cip_thin_destroy (CipThin * th)
{
  if (!th)
    return;
  cip_free (th->mem);
  delete th;
}

extern "C" cudaError_t
cip_thin (CipThin * th, const void *src, int src_pitch, void *dst,
    int dst_pitch, CipThinMethod method, CipThinBorder border,
    unsigned max_passes, CipThinResult * result, cudaStream_t stream)
{
  Args a;
  void *params[] = { &a };

  a.src = (const uint8_t *) src;
  a.dst = (uint8_t *) dst;
  a.src_pitch = src_pitch;
  a.dst_pitch = dst_pitch;
  a.src_aligned = (((uintptr_t) src) | (uintptr_t) src_pitch) % 4 == 0;
  a.dst_aligned = (((uintptr_t) dst) | (uintptr_t) dst_pitch) % 4 == 0;
  a.width = th->width;
  a.height = th->height;
  a.wwords = th->wwords;
  a.tiles_x = th->tiles_x;
  a.tiles_y = th->tiles_y;
  a.ntiles = th->ntiles;
  a.pw = th->pw;
  a.bits0 = th->bits[0];
  a.bits1 = th->bits[1];
  a.sel = th->sel;
  a.epoch = th->epoch;
  a.ctl = th->ctl;
  a.result = result;
  a.max_passes = max_passes;
  if (border != CIP_THIN_BORDER_BACKGROUND && border != CIP_THIN_BORDER_OPENCV)
    return cudaErrorInvalidValue;
  a.keep_border = border == CIP_THIN_BORDER_OPENCV;

  if ((unsigned) method > CIP_THIN_GUO_HALL)
    return cudaErrorInvalidValue;
  return cudaLaunchCooperativeKernel (th->fn[method], dim3 (th->grid[method]),
      dim3 (THREADS), params, 0, stream);
}

extern "C" cudaError_t
cip_thin_naive_step (const uint8_t * src, uint8_t * dst, int pitch,
    int width, int height, CipThinMethod method, int sub, unsigned *changed,
    cudaStream_t stream)
{
  const dim3 block (32, 8);
  const dim3 grid ((width + 31) / 32, (height + 7) / 8);
  /* a stale error of an earlier call is not this launch's */
  (void) cudaGetLastError ();
  naive_kernel <<< grid, block, 0, stream >>> (src, dst, pitch, width,
      height, (int) method, sub, changed);
  return cudaGetLastError ();
}
