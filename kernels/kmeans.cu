/* cudaimgproc: per-frame k-means colour segmentation kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Floating point: distances and centres use explicitly rounded operations
 * (no FMA contraction) in the order tests/cpu_ref.c uses, and centres are
 * integer sums divided in double, so the CPU reference and every GPU give
 * the same bits.
 */
#include "kmeans.h"

#include <new>
#include <string.h>
#include <math.h>
#include <cooperative_groups.h>

#include "cip_block.cuh"
#include "cip_alloc.h"
#include "cip_cooperative.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr int THREADS = 256;
constexpr int MAXK = CIP_KMEANS_MAX_K;
constexpr int NSUB = 64;        /* k-means++ subsample: up to 64 x 64 */
constexpr int INIT_THREADS = 256;      /* the k-means++ block */
constexpr int PER_THREAD = NSUB * NSUB / INIT_THREADS;
constexpr unsigned FULL = 0xffffffffu;
constexpr int PWORDS = 5;       /* a label's packed sums: r, g, b, x, y */
constexpr int POLL_WORDS = 80;  /* the most polled_sums reads */

struct State
{
  float centres[MAXK][5];
  unsigned long long sums[3][MAXK][5];  /* r, g, b, x, count by step % 3 */
  unsigned long long ysum[3][MAXK];
  unsigned long long far[3];    /* farthest pixel: distance bits, ~index */
  /* packed sums (Args.pshift): r, g, b, x, y of a label, each with the
   * label's count in its top bits, by step % 3 */
  alignas (128) unsigned long long psum[3][PWORDS * MAXK];
  unsigned counts[MAXK];
  unsigned long long inertia;   /* of the last output pass */
  /* attempts: the best so far */
  unsigned long long best;
  unsigned best_it;
  float best_centres[MAXK][5];
};

/* What a launch of the main kernel is */
enum
{
  PHASE_FRAME,                  /* iterate, write the output */
  PHASE_ATTEMPT,                /* iterate, measure, keep the best */
  PHASE_BEST,                   /* write the output of the best attempt */
};

struct Args
{
  const uint8_t *src, *su, *sv; /* packed or Y; chroma of 4:2:0 */
  uint8_t *dst, *du, *dv;
  int src_pitch, src_cpitch, dst_pitch, dst_cpitch, cstep;
  int yuv, bpp, ro, go, bo;
  CipYuvMatrix m;
  int w, h;
  float sx, sy;                 /* spatial scale per pixel of x and y */
  CipKmeansParams p;
  State *st;
  CipKmeansResult *res;
  int phase, attempt;
  int measure;                  /* sum the inertia (it costs a 64-bit
                                 * conversion a pixel) */
  int dvec;                     /* WALK_VEC4: dst rows take aligned stores
                                 * of 4 pixels */
  int wide;                     /* a block's sums can pass 2^32 */
  int init_here;                /* first centres found for this launch
                                 * (else those in st) */
  int pshift;                   /* > 0: a pass's sums go to st->psum with
                                 * the count from this bit (polled_sums) */
  unsigned sel_rg, sel_b1;      /* lane_put's byte selectors */
  uint4 *boxes;                 /* prune_centres' colour box of each task
                                 * and whole_tile's sums */
};

/* An 8-bit value v in the bits of the float 2^23 + v: one subtraction
 * makes the exact float of v (cheaper than a conversion). */
constexpr unsigned MAGIC = 0x4B000000u;

__device__ __forceinline__ float
magic_float (unsigned q)
{
  return __fsub_rn (__uint_as_float (q), 8388608.0f);
}

struct Px
{
  float f[5];                   /* r, g, b, x, y (scaled) */
};

/* YUV: a 4:2:0 frame (the walk's template argument); -1: look at a.yuv
 * (the per-frame, one-pixel reads) */
template <int YUV>
__device__ __forceinline__ void
load_rgb (const Args & a, int x, int y, int &r, int &g, int &b)
{
  if (YUV > 0 || (YUV < 0 && a.yuv)) {
    const size_t c = (size_t) (y >> 1) * a.src_cpitch + (size_t) (x >> 1) *
        a.cstep;
    cip_yuv_to_rgb (&a.m, __ldg (a.src + (size_t) y * a.src_pitch + x),
        __ldg (a.su + c), __ldg (a.sv + c), &r, &g, &b);
    return;
  }
  const uint8_t *p = a.src + (size_t) y * a.src_pitch + (size_t) x * a.bpp;
  r = __ldg (p + a.ro);
  g = __ldg (p + a.go);
  b = __ldg (p + a.bo);
}

template <bool SPATIAL>
__device__ __forceinline__ Px
features_of (const Args & a, unsigned qr, unsigned qg, unsigned qb, int x,
    int y)
{
  Px p;
  p.f[0] = magic_float (qr);
  p.f[1] = magic_float (qg);
  p.f[2] = magic_float (qb);
  p.f[3] = SPATIAL ? __fmul_rn ((float) x, a.sx) : 0.0f;
  p.f[4] = SPATIAL ? __fmul_rn ((float) y, a.sy) : 0.0f;
  return p;
}

template <bool SPATIAL, int YUV = -1>
__device__ __forceinline__ Px
features (const Args & a, int x, int y)
{
  int r, g, b;
  load_rgb < YUV > (a, x, y, r, g, b);
  return features_of < SPATIAL > (a, MAGIC | r, MAGIC | g, MAGIC | b, x, y);
}

/* __byte_perm's selector moving a 4-byte pixel's r, g, b to bytes 0, 1,
 * 2 (byte 3 zero) */
__device__ __forceinline__ unsigned
rgb_order (const Args & a)
{
  return (unsigned) (a.ro | a.go << 4 | a.bo << 8) | 0x4000u;
}

/* The byte of @word that byte selector @sel picks (0x744n: byte n) in
 * MAGIC's bits */
__device__ __forceinline__ unsigned
magic_byte (unsigned word, unsigned sel)
{
  return __byte_perm (word, MAGIC, sel);
}

template <bool SPATIAL>
__device__ __forceinline__ float
dist (const Px & p, const float *c)
{
  /* as ref_kmeans sums from 0.0f: the first term alone is that sum */
  float t = __fsub_rn (p.f[0], c[0]);
  float d = __fmul_rn (t, t);
#pragma unroll
  for (int i = 1; i < (SPATIAL ? 5 : 3); i++) {
    t = __fsub_rn (p.f[i], c[i]);
    d = __fadd_rn (d, __fmul_rn (t, t));
  }
  return d;
}

/* The nearest centre by scores (colour only, k >= FAST_K): centre j's
 * score for pixel p is s_j = KEY_BIAS + |c_j|^2 - 2 p.c_j, three FMAs
 * from the terms (-2 c_j, KEY_BIAS + |c_j|^2), against 8 rounded
 * operations and a compare for the reference's distance (dist); s_j -
 * KEY_BIAS + |p|^2 is c_j's squared distance.  With the bias every score
 * lies in [2^16, 2^19) and every intermediate in (0, 2^19), so each of
 * the four roundings (the terms' and the FMAs') is within 2^-6 and the
 * reference's distance (5 roundings of 2^-24 relative) within 0.06 of
 * the true one: where the two smallest scores are more than 2 (4 2^-6 +
 * 0.06) < 0.25 apart, the smaller is the reference's one nearest centre,
 * strictly.  The key KEY_MUL (bits - KEY_BITS0) + j of a score (one IMAD,
 * on the FMA pipe; below 2^31) orders as the score does and carries j;
 * keys more than 65 KEY_MUL apart are 65 ulps apart, 0.5 at least.  The
 * two smallest keys of a pixel are kept (3 integer min/max a centre, 2.5
 * taking centres in pairs); a warp with a pixel whose two are nearer
 * (about one pixel in 10^4; 1.4 % of 128-pixel tasks at k = 8, 4.7 % at
 * 16 on the benchmark's photograph) takes the exact loop.  A kernel of
 * its own: its registers would cost the exact kernel speed. */
constexpr int FAST_K = 8;       /* below it, the scores save little */
constexpr double KEY_BIAS = 262144.0;
constexpr unsigned KEY_BITS0 = 0x47800000u;     /* 2^16 */
constexpr unsigned KEY_MUL = 67u;       /* > MAXK - 1; not a power of 2,
                                         * so an IMAD, not a shift */
constexpr unsigned KEY_GAP = 65u * KEY_MUL;
static_assert (MAXK <= (int) KEY_MUL, "a key's index");

__device__ __forceinline__ float4
score_terms (const float *c)
{
  const double n = (double) c[0] * c[0] + (double) c[1] * c[1] +
      (double) c[2] * c[2] + KEY_BIAS;
  return make_float4 (-2.0f * c[0], -2.0f * c[1], -2.0f * c[2], (float) n);
}

/* Pixel @p's key for the centre of score terms @t and key offset @jk (its
 * index less KEY_MUL KEY_BITS0) */
__device__ __forceinline__ unsigned
score_key (const Px & p, float4 t, unsigned jk)
{
  const float s = __fmaf_rn (p.f[0], t.x, __fmaf_rn (p.f[1], t.y,
          __fmaf_rn (p.f[2], t.z, t.w)));
  return __float_as_uint (s) * KEY_MUL + jk;
}

/* ---- initialisation (block 0) ------------------------------------------ */

__device__ __forceinline__ uint32_t
xorshift (uint32_t & s)
{
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

/* Column (or row) i of an n-sample grid over len pixels, as ref_kmeans
 * places it: in 32 bits where the product fits (at most 127 * 2^25),
 * else in 64 */
__device__ __forceinline__ int
sample_coord (int i, int n, int len)
{
  if (len <= (1 << 25))
    return (int) ((2 * (unsigned) i + 1) * (unsigned) len /
        (2 * (unsigned) n));
  return (int) ((2 * i + 1) * (unsigned long long) len / (2 * n));
}

/* Sample i of the subsample grid */
__device__ __forceinline__ void
sample_xy (const Args & a, int i, int nx, int ny, int &x, int &y)
{
  x = sample_coord (i % nx, nx, a.w);
  y = sample_coord (i / nx, ny, a.h);
}

/* A thread's samples i0 ... as r | g << 8 | b << 16: the grid's columns
 * and rows from @sx, @sy, so the loads have no branch between them and
 * are all in flight at once (those past n read sample n - 1; they weigh
 * nothing).  i / nx by a multiply: exact for i < 2^12, nx <= 64. */
template <int YUV>
__device__ __forceinline__ void
load_samples (const Args & a, int i0, int n, int nx, const int *sx,
    const int *sy, unsigned *rgb)
{
  const unsigned long long inv = ((1ull << 32) + nx - 1) / nx;
  int x[PER_THREAD], y[PER_THREAD];
#pragma unroll
  for (int m = 0; m < PER_THREAD; m++) {
    const unsigned i = (unsigned) min (i0 + m, n - 1);
    const unsigned iy = (unsigned) ((i * inv) >> 32);
    x[m] = sx[i - iy * nx];
    y[m] = sy[iy];
  }
  if (YUV == 0 && a.bpp == 4 &&
      (((uintptr_t) a.src | (unsigned) a.src_pitch) & 3) == 0) {
    /* a word a sample: a third of the requests of one SM's scattered
     * reads, which are what this costs */
    const unsigned order = rgb_order (a);
#pragma unroll
    for (int m = 0; m < PER_THREAD; m++)
      rgb[m] = __byte_perm (__ldg ((const unsigned *) (a.src +
                  (size_t) y[m] * a.src_pitch + (size_t) x[m] * 4)), 0,
          order);
    return;
  }
#pragma unroll
  for (int m = 0; m < PER_THREAD; m++) {
    int r, g, b;
    load_rgb < YUV > (a, x[m], y[m], r, g, b);
    rgb[m] = (unsigned) r | (unsigned) g << 8 | (unsigned) b << 16;
  }
}

/* x % t, exactly, without the 64-bit remainder's long subroutine where
 * t >= 2^14: three roundings of 2^-53 relative (x to a double, 1 / t,
 * their product) put the product within 2^64 / 2^14 * 3 * 2^-53 < 0.4 of
 * x / t, so its floor is the quotient or one off it, and one step either
 * way mends the remainder */
__device__ __forceinline__ uint32_t
mod_u64 (unsigned long long x, uint32_t t)
{
  if (t < (1u << 14))
    return (uint32_t) (x % t);
  const double q = floor (__dmul_rn (__ull2double_rn (x),
          __drcp_rn ((double) t)));
  long long r = (long long) (x - (unsigned long long) q * t);
  r += r < 0 ? t : 0;
  r -= r >= t ? t : 0;
  return (uint32_t) r;
}

/* The first centres, by the first INIT_THREADS threads of block 0 (the
 * others pass by): c gets them, in shared memory. */
template <bool SPATIAL>
__device__ __forceinline__ void
init_centres (const Args & a, float (*c)[5])
{
  __shared__ int s_pick, s_x[NSUB], s_y[NSUB];
  __shared__ unsigned s_w;
  const int tid = threadIdx.x, k = a.p.k;
  const int nx = min (a.w, NSUB), ny = min (a.h, NSUB), n = nx * ny;

  if (a.p.init == 1) {
    /* uniform: evenly spaced samples */
    if (tid < k) {
      int x, y;
      sample_xy (a, (int) ((long long) tid * n / k), nx, ny, x, y);
      const Px p = features < SPATIAL > (a, x, y);
      for (int i = 0; i < 5; i++)
        c[tid][i] = p.f[i];
    }
    return;
  }

  /* k-means++ on colour, integer squared distances: thread t owns samples
   * t * PER_THREAD ... in index order, so prefix sums run in index order;
   * the thread that owns a pick hands its colour round, and every thread
   * steps the same random sequence: one barrier a pick. */
  static_assert (INIT_THREADS >= 2 * NSUB, "a thread a column or row");
  if (tid < nx)
    s_x[tid] = sample_coord (tid, nx, a.w);
  else if (tid >= NSUB && tid - NSUB < ny)
    s_y[tid - NSUB] = sample_coord (tid - NSUB, ny, a.h);
  cip::block_barrier < INIT_THREADS > ();
  unsigned rgb[PER_THREAD];     /* r | g << 8 | b << 16 */
  uint32_t d2[PER_THREAD];
  const int i0 = tid * PER_THREAD;
  if (a.yuv)
    load_samples < 1 > (a, i0, n, nx, s_x, s_y, rgb);
  else
    load_samples < 0 > (a, i0, n, nx, s_x, s_y, rgb);
#pragma unroll
  for (int m = 0; m < PER_THREAD; m++)
    d2[m] = 0;
  uint32_t rng = a.p.seed * 2654435761u + 1u;
  if (!rng)
    rng = 1;
  /* a pick drawn at random: its owner hands its colour round */
  auto hand_round = [&](int pick) {
    if (pick >= i0 && pick < i0 + PER_THREAD) {
#pragma unroll
      for (int m = 0; m < PER_THREAD; m++)
        if (pick == i0 + m)
          s_w = rgb[m];
    }
  };
  int pick = (int) (xorshift (rng) % (uint32_t) n);
  hand_round (pick);
  cip::block_barrier < INIT_THREADS > ();
  for (int j = 0; j < k; j++) {
    /* centre j is sample pick, of colour s_w */
    const unsigned w = s_w;
    if (tid == 0) {
      const Px p = features_of < SPATIAL > (a, MAGIC | (w & 0xff),
          MAGIC | (w >> 8 & 0xff), MAGIC | (w >> 16), s_x[pick % nx],
          s_y[pick / nx]);
      for (int i = 0; i < 5; i++)
        c[j][i] = p.f[i];
    }
    if (j == k - 1)
      break;
    uint32_t local = 0, total;
#pragma unroll
    for (int m = 0; m < PER_THREAD; m++) {
      /* |dr|, |dg|, |db| a byte each, then their squares' sum */
      const unsigned ad = __vabsdiffu4 (rgb[m], w);
      const uint32_t d = __dp4a (ad, ad, 0u);
      if (i0 + m < n)
        d2[m] = j == 0 ? d : min (d2[m], d);
      local += d2[m];
    }
    /* at most 4096 * 3 * 255^2: 32 bits hold the sums.  Its barrier also
     * ends every thread's reads of s_w and s_pick. */
    const uint32_t incl = cip::block_inclusive_scan_total < INIT_THREADS,
        uint32_t > (local, total);
    if (total == 0) {
      pick = (int) (xorshift (rng) % (uint32_t) n);
      hand_round (pick);
    } else {
      const uint32_t hi = xorshift (rng), lo = xorshift (rng);
      const uint32_t r = mod_u64 (((unsigned long long) hi << 32) | lo,
          total);
      if (r >= incl - local && r < incl) {
        uint32_t acc = incl - local;
        int found = -1;
        unsigned fw = 0;
#pragma unroll
        for (int m = 0; m < PER_THREAD; m++) {
          acc += d2[m];
          if (found < 0 && acc > r) {
            found = i0 + m;
            fw = rgb[m];
          }
        }
        s_pick = found;
        s_w = fw;
      }
    }
    /* the scan's sums are read; s_pick and s_w written */
    cip::block_barrier < INIT_THREADS > ();
    if (total != 0)
      pick = s_pick;
  }
}

/* ---- the kernel -------------------------------------------------------- */

__device__ __forceinline__ unsigned long long
ld_acquire (const unsigned long long *p)
{
  unsigned long long v;
  asm volatile ("ld.acquire.gpu.global.u64 %0, [%1];":"=l" (v):"l" (p)
      :"memory");
  return v;
}

struct Shared
{
  float c[MAXK][5];
  float4 q[MAXK];               /* score_terms of c */
  float nc[MAXK][5];
  unsigned long long cnt[MAXK];
  unsigned long long pw[POLL_WORDS];    /* a pass's sums (polled_sums) */
  /* a block's sums: r, g, b, x, count, y; low words and carries (32-bit
   * shared atomics are native, 64-bit ones a compare-and-swap loop) */
  unsigned acc[2][MAXK][6];
  unsigned long long far;
  unsigned long long inertia;
  int yuv[MAXK][3];             /* 4:2:0 colour output: centres' Y, U, V */
  unsigned outw[MAXK];          /* 4-byte colour output: centres' r, g, b */
  int better;
};

/* How a frame is walked: packed pixels a byte at a time, packed 4-byte
 * pixels 16 bytes at a time (rows 16-byte aligned), or 4:2:0 */
enum
{
  WALK_PACKED,
  WALK_VEC4,
  WALK_YUV,
  WALK_TILED,                   /* host only: WALK_VEC4 in tiles (TILES) */
  N_WALKS
};

/* Walks the frame 4 pixels a lane and calls @fn (x[4], y[4], valid[4],
 * features[4], words[4], label[4], distance[4], fold) on every lane
 * after assigning each pixel its nearest centre of @c (words: WALK_VEC4's
 * pixels as read, the other walks' r, g, b in bytes 0, 1, 2 (0 past the
 * frame's edge); FAST: by the scores of @terms, the score_terms of @c,
 * and distance[] only if @want_d; fold: a warp's LANE_TASKS-th task).  A
 * task is 128 pixels of a row, each lane 4 adjacent ones (WALK_YUV: 32
 * 2x2 blocks of two rows, a lane a block, so one lane sees every pixel of
 * a chroma sample; TR > 1: TR rows of 128 / TR pixels, the scores' 4-byte
 * walk, whose search leaves out the centres prune_centres rules out:
 * @make_boxes in the launch's first pass, @hint0 its c* from pass to
 * pass; a tile left with one centre goes whole to @whole_tile (label,
 * sums, fold) instead, where it returns true); a warp takes a contiguous
 * run of tasks, so a lane's pixels come in frame order and mostly in runs
 * of one label.  KF: k fixed when built (0: the launch's k), so the loops
 * over the centres unroll: no loop counting, the centres' loads scheduled
 * early, the first pair's minima folded (with the registers for it, 12 %
 * off a k=8 or 16 frame, 5 % at k=4). */
constexpr int PX = 4;

/* lane_sums: a lane's pairs are folded every this many tasks */
constexpr int LANE_TASKS = 64;

/* The rows of a task: the scores' 4-byte walk from fresh centres
 * (WALK_TILED) takes tiles of 16 x 8 pixels (a lane 4 pixels of a row, 4
 * lanes a row), whose colours span less than a row's 128 do: a CPU count
 * over the benchmark's 1080p frame, k = 8, leaves one centre in 53 % of
 * 16 x 8 tiles (prune_centres) and two in 22 %, against 22 % and 15 % of
 * rows of 128 (32 x 4: 46 % and 24 %).  The other walks take rows, and
 * so does a warm start: it converges in a pass or two, and the first pass
 * makes the boxes at a cost the pruning of a pass does not make up (warm
 * 1080p k=8 27.9 -> 29.4 us, 4K 82.5 -> 86.2 in tiles). */
constexpr int TILE_ROWS = 8;

/* prune_centres: a centre is left out of a task's search where its score
 * exceeds c*'s by more than this at every colour of the task's box */
constexpr float PRUNE_MARGIN = 8.0f;
/* prune_centres' c*: up to this k the label of the warp's last pixel 0
 * (found anyway), past it the nearest centre to the box's middle (a
 * score in k lanes and a redux).  H100, cold frames: at k = 8 the
 * middle was 1 % slower at 1080p and 4 % at 4K, at k = 16 the label 3 %
 * slower at 1080p and 2 % at 4K. */
constexpr int HINT_MAX_K = 8;

/* for_assigned_pixels' whole_tile where no pass takes a tile whole */
struct NoWholeTile
{
  __device__ bool operator () (int, uint2, bool) const
  {
    return false;
  }
};

/* A warp's run of tasks: computed once a launch (64-bit divisions) */
struct Tasks
{
  int n, r0, t0, tpr;           /* count, first row and task in it, per row */
  int first;                    /* the first's index in the frame */
};

template <int WALK, int NW, int TR>
__device__ __forceinline__ Tasks
warp_tasks (const Args & a)
{
  constexpr bool YUV = WALK == WALK_YUV;
  const int gw = blockIdx.x * NW + (threadIdx.x >> 5);
  const int nw = gridDim.x * NW;
  const int cols = YUV ? (a.w + 1) / 2 : a.w;
  const int rows = YUV ? (a.h + 1) / 2 : (a.h + TR - 1) / TR;
  const int per = YUV ? 32 : 32 * PX / TR;
  Tasks tk;
  tk.tpr = (cols + per - 1) / per;
  const long long ntask = (long long) tk.tpr * rows;
  const int first = (int) (ntask * gw / nw);
  tk.n = (int) (ntask * (gw + 1) / nw) - first;
  tk.first = first;
  tk.r0 = first / tk.tpr;
  tk.t0 = first - tk.r0 * tk.tpr;
  return tk;
}

/* The centres that can be nearest to some colour of a task, a mask the same in
 * every lane (all where k > 32): the box of its valid pixels' colours (@rgb: r,
 * g, b in bytes 0, 1, 2), made by the launch's first pass (@make) into @box
 * with the sums of those colours and their count (@sums, as a lane's pair of
 * lane_put: r | g << 16, b | n << 16), both read back by the later passes; a
 * centre c*, the task before's label of its first pixel (@hint) or the nearest
 * to the box's middle (HINT_MAX_K); and each centre j (lane j) left out where
 * s_j - s_c* > PRUNE_MARGIN at every colour of the box (the difference is
 * linear in the colour: its least is at the corner each coefficient's sign
 * picks).  Exact, whatever c*: the computed scores of such a j exceed c*'s by
 * more than 2.06, 66 ulps (scores < 2^19; the roundings of both computations
 * are below 0.2 all told), so its key exceeds c*'s by more than KEY_GAP: it is
 * neither the least key nor within KEY_GAP of it, and the search of the rest
 * gives the labels and the exact fallbacks that the search of all gives.  Per
 * task: a redux a channel and two for the sums in the first pass, a load in the
 * others, then 3 FMAs and a ballot.  H100, cold frames, 10 iterations, same
 * hashes: 1080p k=8 147.0 -> 142.6 us, an iteration 11.6 -> 10.9; 4K 401.7 ->
 * 371.9, 8K 1502.7 -> 1310.8, 1280x720 98.2 -> 96.4, 640x480 69.4 -> 69.5; k=12
 * 215.8 -> 208.6, k=16 225.3 -> 207.2, 4K k=16 674.8 -> 588.4.  Boxes made
 * again every pass: 1080p k=8 7 % slower than without pruning; made with
 * byte-wise SIMD min/max and shuffles: 40 %. */
__device__ __forceinline__ unsigned
prune_centres (const float4 * terms, int k, const unsigned *rgb,
    const bool *v, uint4 * box, bool make, int hint, uint2 & sums)
{
  if (k > 32)
    return FULL;
  const int lane = threadIdx.x & 31;
  unsigned lo[3], hi[3];
  if (make) {
    /* each channel's least and greatest over the lane's valid pixels (255
     * and 0 past the edge), then over the warp: one redux each */
#pragma unroll
    for (int c = 0; c < 3; c++) {
      lo[c] = 255;
      hi[c] = 0;
#pragma unroll
      for (int i = 0; i < PX; i++) {
        const unsigned x = __byte_perm (rgb[i], 0, 0x4440 + c);
        lo[c] = min (lo[c], v[i] ? x : 255u);
        hi[c] = max (hi[c], v[i] ? x : 0u);
      }
      lo[c] = cip::warp_min (lo[c]);
      hi[c] = cip::warp_max (hi[c]);
    }
    /* the sums of whole_tile: r | g << 16 and b | n << 16 (at most 128
     * times 255 a half) */
    unsigned rg = 0, bn = 0;
#pragma unroll
    for (int i = 0; i < PX; i++)
      if (v[i]) {
        rg += __byte_perm (rgb[i], 0, 0x4140);
        bn += __byte_perm (rgb[i], 1, 0x5452);
      }
    sums = make_uint2 (cip::warp_sum (rg), cip::warp_sum (bn));
    if (lane == 0)
      *box = make_uint4 (lo[0] | lo[1] << 8 | lo[2] << 16,
          hi[0] | hi[1] << 8 | hi[2] << 16, sums.x, sums.y);
  } else {
    const uint4 b = __ldcg (box);
#pragma unroll
    for (int c = 0; c < 3; c++) {
      lo[c] = __byte_perm (b.x, 0, 0x4440 + c);
      hi[c] = __byte_perm (b.y, 0, 0x4440 + c);
    }
    sums = make_uint2 (b.z, b.w);
  }
  float l[3], h[3];
  Px m;
#pragma unroll
  for (int i = 0; i < 3; i++) {
    l[i] = __uint_as_float (MAGIC | lo[i]) - __uint_as_float (MAGIC);
    h[i] = __uint_as_float (MAGIC | hi[i]) - __uint_as_float (MAGIC);
    m.f[i] = 0.5f * (l[i] + h[i]);
  }
  const float4 tj = terms[lane < k ? lane : 0];
  int star = hint;
  if (k > HINT_MAX_K) {
    const unsigned key = lane < k ? score_key (m, tj,
        (unsigned) lane - KEY_MUL * KEY_BITS0) : 0xffffffffu;
    star = (int) (cip::warp_min (key) % KEY_MUL);
  }
  const float4 ts = terms[star];
  const float d0 = tj.x - ts.x, d1 = tj.y - ts.y, d2 = tj.z - ts.z;
  const float least = (tj.w - ts.w) + d0 * (d0 > 0.0f ? l[0] : h[0]) +
      d1 * (d1 > 0.0f ? l[1] : h[1]) + d2 * (d2 > 0.0f ? l[2] : h[2]);
  return __ballot_sync (FULL, lane < k && !(least > PRUNE_MARGIN));
}

template <bool SPATIAL, int WALK, bool FAST, int KF, int TR, class F,
    class G>
__device__ __forceinline__ void
for_assigned_pixels (const Args & a, const Tasks & tk, const float (*c)[5],
    const float4 * terms, bool want_d, bool make_boxes, int &hint0, F fn,
    G whole_tile)
{
  constexpr bool YUV = WALK == WALK_YUV;
  constexpr bool PRUNE = FAST && TR > 1;
  /* prune_centres' centres that a tile's search takes one at a time
   * rather than searching all: more pay at larger k.  H100, cold frames
   * against two (the first kept version): up to 4 at k = 8, 1080p 145.2
   * -> 140.6 us, 4K 373.7 -> 363.9 (up to 6: 143.6, 375.2); up to 6 at
   * k = 12, 16, 32, 1080p 210.7 -> 201.9, 209.7 -> 196.0, 430.8 ->
   * 381.2 (up to 4: 206.0, 201.2, 406.0) */
  constexpr int FEW_CENTRES = KF == 8 ? 4 : 6;
  const int lane = threadIdx.x & 31;
  const int per = YUV ? 32 : 32 * PX / TR;
  const int lrow = lane / (32 / TR), lcol = lane % (32 / TR);
  const unsigned order = rgb_order (a);
  int r = tk.r0, tc = tk.t0;
  int hint = hint0;             /* prune_centres' c* */

  for (int t = 0; t < tk.n; t++, tc = tc + 1 < tk.tpr ? tc + 1 : 0,
      r += tc == 0) {
    const int c0 = tc * per + lcol * (YUV ? 1 : PX);
    const int row = r * TR + lrow;
    const bool fold = t % LANE_TASKS == LANE_TASKS - 1;
    int x[PX], y[PX], label[PX];
    bool v[PX];
    Px p[PX];
    float bd[PX];
    unsigned words[PX], rgb[PX];
    if (WALK == WALK_VEC4) {
      /* (read even where the tile proves to have one centre: read after
       * its test instead, the 1080p k=8 frame took 3 % longer) */
      uint4 q = make_uint4 (0, 0, 0, 0);
      if (c0 < a.w && row < a.h)
        q = __ldg ((const uint4 *) (a.src + (size_t) row * a.src_pitch +
                (size_t) c0 * 4));
      words[0] = q.x;
      words[1] = q.y;
      words[2] = q.z;
      words[3] = q.w;
    }
#pragma unroll
    for (int i = 0; i < PX; i++) {
      x[i] = YUV ? 2 * c0 + (i & 1) : c0 + i;
      y[i] = YUV ? 2 * r + (i >> 1) : row;
      v[i] = x[i] < a.w && y[i] < a.h;
      if (WALK == WALK_VEC4) {
        /* r, g, b to bytes 0, 1, 2 (their features after a tile's test) */
        rgb[i] = __byte_perm (words[i], 0, order);
      } else if (v[i]) {
        /* (words: r, g, b in bytes 0, 1, 2, for lane_put) */
        int cr, cg, cb;
        load_rgb < YUV ? 1 : 0 > (a, x[i], y[i], cr, cg, cb);
        p[i] = features_of < SPATIAL > (a, MAGIC | cr, MAGIC | cg, MAGIC | cb,
            x[i], y[i]);
        words[i] = (unsigned) (cr | cg << 8 | cb << 16);
      } else {
        p[i] = features_of < SPATIAL > (a, MAGIC, MAGIC, MAGIC, 0, 0);
        words[i] = 0;
      }
    }
    const int k = KF ? KF : a.p.k;
    uint2 sums;
    const unsigned cand = PRUNE ? prune_centres (terms, k, rgb, v,
        a.boxes + tk.first + t, make_boxes, hint, sums) : FULL;
    if (PRUNE && __popc (cand) == 1 &&
        whole_tile (__ffs (cand) - 1, sums, fold)) {
      /* one centre: whole_tile took the tile's sums */
      hint = __ffs (cand) - 1;
      if (t == 0)
        hint0 = hint;
      continue;
    }
#pragma unroll
    for (int i = 0; i < PX; i++) {
      if (WALK == WALK_VEC4)
        p[i] = features_of < SPATIAL > (a, magic_byte (rgb[i], 0x7440),
            magic_byte (rgb[i], 0x7441), magic_byte (rgb[i], 0x7442), x[i],
            y[i]);
      if (!FAST) {
        /* here, not in the exact loop's start below: so the spatial
         * kernels keep their registers (fewer spills) */
        label[i] = 0;
        bd[i] = dist < SPATIAL > (p[i], c[0]);
      }
    }
    bool exact = !FAST;
    if (FAST) {
      unsigned b1[PX], b2[PX];
#pragma unroll
      for (int i = 0; i < PX; i++)
        b1[i] = b2[i] = 0xffffffffu;
      if (PRUNE && __popc (cand) == 1) {
        /* one centre: its label, no fallback (b2 past every gap) */
#pragma unroll
        for (int i = 0; i < PX; i++)
          b1[i] = (unsigned) (__ffs (cand) - 1);
      } else if (PRUNE && __popc (cand) <= FEW_CENTRES) {
        /* a few: their keys, a centre at a time */
        unsigned m = cand;
        const unsigned jk = 0u - KEY_MUL * KEY_BITS0;
#pragma unroll
        for (int q = 0; q < FEW_CENTRES; q++) {
          const int jq = __ffs (m) - 1;
          m &= m - 1;
          if (jq >= 0) {
            const float4 tq = terms[jq];
#pragma unroll
            for (int i = 0; i < PX; i++) {
              const unsigned kq = score_key (p[i], tq, jk + (unsigned) jq);
              b2[i] = min (b2[i], max (b1[i], kq));
              b1[i] = min (b1[i], kq);
            }
          }
        }
      } else {
        int j = 0;
#pragma unroll (KF ? MAXK : 1)
        for (; j + 1 < k; j += 2) {
          /* two centres: the smallest two of b1, b2, lo, hi */
          const float4 t0 = terms[j], t1 = terms[j + 1];
          const unsigned j0 = (unsigned) j - KEY_MUL * KEY_BITS0;
#pragma unroll
          for (int i = 0; i < PX; i++) {
            const unsigned k0 = score_key (p[i], t0, j0);
            const unsigned k1 = score_key (p[i], t1, j0 + 1u);
            const unsigned lo = min (k0, k1), hi = max (k0, k1);
            b2[i] = __vimin3_u32 (b2[i], hi, max (b1[i], lo));
            b1[i] = min (b1[i], lo);
          }
        }
        if (j < k) {
          const float4 t0 = terms[j];
          const unsigned j0 = (unsigned) j - KEY_MUL * KEY_BITS0;
#pragma unroll
          for (int i = 0; i < PX; i++) {
            const unsigned k0 = score_key (p[i], t0, j0);
            b2[i] = min (b2[i], max (b1[i], k0));
            b1[i] = min (b1[i], k0);
          }
        }
      }
      bool near = false;
#pragma unroll
      for (int i = 0; i < PX; i++) {
        label[i] = (int) (b1[i] % KEY_MUL);
        near |= v[i] && b2[i] - b1[i] <= KEY_GAP;
      }
      exact = __any_sync (FULL, near);
      if (!exact && want_d) {
#pragma unroll
        for (int i = 0; i < PX; i++)
          bd[i] = dist < SPATIAL > (p[i], c[label[i]]);
      }
    }
    if (exact) {
      /* the reference's distances; the first of equals */
      if (FAST) {
#pragma unroll
        for (int i = 0; i < PX; i++) {
          label[i] = 0;
          bd[i] = dist < SPATIAL > (p[i], c[0]);
        }
      }
#pragma unroll (KF ? MAXK : 1)
      for (int j = 1; j < (KF ? KF : a.p.k); j++) {
        float cj[5];
#pragma unroll
        for (int i = 0; i < (SPATIAL ? 5 : 3); i++)
          cj[i] = c[j][i];
#pragma unroll
        for (int i = 0; i < PX; i++) {
          const float d = dist < SPATIAL > (p[i], cj);
          if (d < bd[i]) {
            bd[i] = d;
            label[i] = j;
          }
        }
      }
    }
    if (PRUNE) {
      hint = __shfl_sync (FULL, label[0], 0);
      if (t == 0)
        hint0 = hint;
    }
    fn (x, y, v, p, words, label, bd, fold);
  }
}

/* Adds @v to the shared word OFF bytes past @sa (an address in the shared
 * window), with no wait for the old value */
template <int OFF = 0>
__device__ __forceinline__ void
shared_add (unsigned sa, unsigned v)
{
  asm volatile ("red.shared.add.u32 [%0+%2], %1;"::"r" (sa), "r" (v),
      "n" (OFF):"memory");
}

/* Adds @v to a block's 64-bit sum held as a low word and its carries
 * (WIDE), or to the low word alone where a block's sums stay below 2^32
 * (only position sums of very large frames do not): then a reduction,
 * with no wait for the old value. */
template <bool WIDE>
__device__ __forceinline__ void
sum_add (unsigned (*acc)[MAXK][6], int lab, int e, unsigned v)
{
  if (WIDE) {
    const unsigned old = atomicAdd (&acc[0][lab][e], v);
    if (old + v < old)
      atomicAdd (&acc[1][lab][e], 1u);
  } else {
    shared_add ((unsigned) __cvta_generic_to_shared (&acc[0][lab][e]), v);
  }
}

/* A block's sum @e of label @lab */
__device__ __forceinline__ unsigned long long
sum_of (unsigned (*acc)[MAXK][6], int lab, int e)
{
  return ((unsigned long long) acc[1][lab][e] << 32) | acc[0][lab][e];
}

/* A lane's running sums over its pixels of one label, added to the block's
 * sums when the label changes: a lane's pixels mostly come in runs, so
 * the shared atomics are fewer than the pixels.  n stays at most 2^16
 * (tested before each task): float sums of colours stay below 2^24, so
 * they are exact, and the 32-bit sums of coordinates cannot wrap. */
constexpr unsigned RUN_MAX = 65536 - PX;

template <bool SPATIAL, bool COUNT_ONLY>
struct Run
{
  int lab;
  unsigned n, xs, ys;
  float q[3];                   /* colour sums: integers below 2^24, exact */

  __device__ __forceinline__ void start (int l)
  {
    lab = l;
    n = xs = ys = 0;
    q[0] = q[1] = q[2] = 0.0f;
  }
  template <bool WIDE>
  __device__ __forceinline__ void add_to (unsigned (*acc)[MAXK][6])
  {
    if (!COUNT_ONLY) {
      for (int i = 0; i < 3; i++)
        sum_add < WIDE > (acc, lab, i, __float2uint_rn (q[i]));
      if (SPATIAL) {
        sum_add < WIDE > (acc, lab, 3, xs);
        sum_add < WIDE > (acc, lab, 5, ys);
      }
    }
    sum_add < WIDE > (acc, lab, 4, n);
  }
  /* (adding an empty run adds zeros: no test) */
  __device__ __forceinline__ void flush (unsigned (*acc)[MAXK][6], bool wide)
  {
    if (wide)
      add_to < true > (acc);
    else
      add_to < false > (acc);
  }
  /* A task's pixels of a lane */
  __device__ __forceinline__ void put (unsigned (*acc)[MAXK][6], bool wide,
      const int *x, const int *y, const bool *v, const Px * p,
      const int *label)
  {
    if (n > RUN_MAX) {
      flush (acc, wide);
      start (lab);
    }
    if (v[PX - 1]) {            /* the last valid: all are */
#pragma unroll
      for (int i = 0; i < PX; i++)
        put1 (acc, wide, x[i], y[i], p[i], label[i]);
    } else {
#pragma unroll
      for (int i = 0; i < PX; i++)
        if (v[i])
          put1 (acc, wide, x[i], y[i], p[i], label[i]);
    }
  }
  __device__ __forceinline__ void put1 (unsigned (*acc)[MAXK][6], bool wide,
      int x, int y, const Px & p, int l)
  {
    if (l != lab) {
      flush (acc, wide);
      start (l);
    }
    n++;
    if (!COUNT_ONLY) {
      for (int c = 0; c < 3; c++)
        q[c] = __fadd_rn (q[c], p.f[c]);
      if (SPATIAL) {
        xs += (unsigned) x;
        ys += (unsigned) y;
      }
    }
  }
};

/* k-means++ by the block's first INIT_THREADS threads into @c, then by
 * all @nt of them to st->centres */
template <bool SPATIAL>
__device__ __forceinline__ void
first_centres (const Args & a, float (*c)[5], int nt)
{
  if (threadIdx.x < INIT_THREADS)
    init_centres < SPATIAL > (a, c);
  __syncthreads ();
  for (int i = threadIdx.x; i < a.p.k * 5; i += nt)
    a.st->centres[i / 5][i % 5] = c[i / 5][i % 5];
}

/* One block: the first centres, for the kernels that do not find them
 * themselves (init_inside). */
template <bool SPATIAL>
__global__ void __launch_bounds__ (INIT_THREADS)
init_kernel (Args a)
{
  __shared__ float c[MAXK][5];
  first_centres < SPATIAL > (a, c, INIT_THREADS);
}

/* Whether a kernel finds the first centres itself, in its block 0 before
 * a grid barrier, rather than after a kernel of their own: a launch less
 * (its host time, the GPU's gap between two kernels).  H100, cold frames,
 * 10 iterations: 1080p k=8 167 -> 163 us, k=16 244 -> 234, position k=3
 * 177 -> 174.  Not where it costs more than it saves: the exact kernels
 * with k a launch argument spill with its registers at 64 (k=6 172 ->
 * 174), k = 4 is 2 us slower at 1080p, the one-block-an-SM kernels 0.7 %
 * at 8K. */
__host__ __device__ constexpr bool
init_inside (bool spatial, bool fast, int nt)
{
  return nt == THREADS && (spatial || fast);
}

/* Blocks an SM a kernel of @nt threads is built for (the registers a
 * thread may use: 64 at 4 blocks of 256, 80 at 3 or one of 768, 128 at
 * 2).  Measured (H100, 1080p and 4K cold frames): the exact kernel with k
 * a launch argument is fastest at 4, k = 4 unrolled at 2, and the kernels
 * that spilled at 64 registers (scores, position) at 3; the unrolled
 * score kernels need 80. */
constexpr int
blocks_per_sm (bool spatial, bool fast, int kf, int nt)
{
  return nt > THREADS ? 1 : kf == 4 ? 2 : kf || spatial || fast ? 3 : 4;
}

/* A pass's sums by polling (Args.pshift): each block adds its sums of
 * label j to words e * k + j of st->psum[b] (e: r, g, b, x, y), each with
 * the block's count of j from bit pshift (the host checks that the sums
 * stay below it); then its first warp reads the k NWORDS words until
 * their counts add up to NWORDS times the pixels: every block has added
 * all of its sums then, and the words read are the sums (s.pw).  One trip
 * to L2 once the last block's sums land, where a grid barrier takes two
 * (its arrival, then its release) before the sums can be read at all.
 * H100, cold frames, 10 iterations, against the grid barrier: 1080p k=8
 * 164 -> 154 us, k=6 171 -> 165, k=2 121 -> 114, position k=3 175 -> 163,
 * k=12 314 -> 310, 640x480 k=8 84 -> 74; k=16 equal.  Words read with
 * ld.acquire (a relaxed read and a fence once complete: 5 us slower at
 * 1080p k=8), a pause between reads (fewer reads queued at the lines the
 * sums go to: k=6 and 16 1-2 % faster).
 *
 * Not in every kernel (polls): in the score kernel with k a launch
 * argument its code alone, where not taken, cost k=32 and k=64 4-5 %, and
 * polling them still cost 1-4 %; in the k=4 kernel it cost 4K and 8K
 * frames 7 % and 20 % (taken or not); the one-block-an-SM kernels gained
 * nothing (4K k=8 432 either way).  Nor with more than POLL_WORDS words
 * (position, k > 16). */
__host__ __device__ constexpr bool
polls (bool fast, int kf, int nt)
{
  return nt == THREADS && !(fast && kf == 0) && kf != 4;
}

template <int NT, int NWORDS>
__device__ __forceinline__ void
polled_sums (const Args & a, Shared & s, int b)
{
  const int tid = threadIdx.x, k = a.p.k;
  State *st = a.st;
  for (int i = tid; i < k * NWORDS; i += NT) {
    const int lab = i / NWORDS, e = i % NWORDS;
    const unsigned long long n = sum_of (s.acc, lab, 4);
    if (n)
      atomicAdd (&st->psum[b][e * k + lab], sum_of (s.acc, lab,
              e == 4 ? 5 : e) + (n << a.pshift));
  }
  if (tid < 32) {
    const unsigned long long want = (unsigned long long) NWORDS * a.w * a.h;
    /* a bound, so that a fault cannot hang the GPU: over 10 s */
    for (unsigned spin = 0;; spin++) {
      unsigned long long got = 0;
      for (int i = tid; i < k * NWORDS; i += 32) {
        const unsigned long long w = ld_acquire (&st->psum[b][i]);
        s.pw[i] = w;
        got += w >> a.pshift;
      }
      for (int o = 16; o; o >>= 1)
        got += __shfl_xor_sync (FULL, got, o);
      if (got == want)
        break;
      if (spin == (1u << 24))
        __trap ();
      /* fewer reads queued at the L2 lines that the sums go to */
      __nanosleep (100);
    }
  }
  __syncthreads ();
}

/* A pass's colour sums in lane-private shared memory: for each pixel a
 * lane adds two packed words, r | g << 16 and b | 1 << 16, to its own
 * pair of the pixel's label, with no atomic and no branch; after the pass
 * (and every LANE_TASKS tasks, 256 pixels, so that a half's 255 each
 * cannot carry) a warp adds its lanes' words to the block's sums
 * (fold_lanes).  The running sums (Run), which the other kernels and the
 * output pass's counts keep, add to the block's sums where a lane's label
 * changes: a divergent branch that a warp takes on most of its steps (some
 * lane changes at 59 % of a warp's pixel steps; CPU count over the
 * benchmark's 1080p frame, k = 8).  H100, cold frames, 10 iterations,
 * same hashes: 1080p k=8 155.9 -> 150.1 us, k=4 138.9 -> 123.5, k=16
 * 234.9 -> 229.7, 1280x720 k=8 105.6 -> 100.2, 640x480 75.8 -> 70.3, 4K
 * k=4 339.8 -> 314.5, 8K k=4 1202 -> 1167; blocks of 768 (dynamic
 * shared memory): 4K k=8 435.6 -> 413.0, 2560x1440 k=8 241.2 -> 222.7,
 * 8K k=8 1573.5 -> 1523.4 (k=16: 4K 676.5 -> 650.9, 2560x1440 356.4 ->
 * 347.1, but its pairs do not fit every GPU, lane_bytes).  The
 * output pass's counts this way: within a run's spread (8K k=4 1155);
 * warps taking their block's tasks one at a time from a shared counter
 * (label runs no longer matter): 1080p k=8 6 % slower.  Tasks walked down
 * strips of 128 columns, which cut a lane's label changes to a third (the
 * warp's steps with one: 56 %), gained nothing for the runs (4K k=8 5 %
 * and k=32 9 % slower).  Taken by the colour kernels with k fixed, every
 * layout (pairs and a label more for the pixels past the frame's edge: 18
 * KB a block of 256 at k = 8, 34 KB at 16, within three blocks an SM;
 * blocks of 768 at k = 8, lane_bytes).  The packed 3-byte and 4:2:0
 * walks too, with the red.shared adds (a load, two adds and a store
 * before): 3-byte RGB 1080p k=8 184.7 -> 174.2, k=4 163.7 -> 143.7, 4K
 * k=8 514.6 -> 481.8; NV12 1080p k=8 212.1 -> 207.2, k=16 294.5 ->
 * 281.2, 4K k=8 602.0 -> 570.7; RGBA 1-2 % (1080p k=8 151.8 -> 149.3). */
__host__ __device__ constexpr bool
lane_sums (bool spatial, int kf, int nt)
{
  return !spatial && kf != 0 && (nt == THREADS ? kf <= 16 : kf == 8);
}

/* The bytes of lane_sums' pairs a block; dynamic shared memory for the
 * blocks of 768 (55 KB at k = 8, past the 48 KB of static shared memory;
 * with the rest 63 KB, within every architecture we build for, sm_75's
 * 64 KB the least: k = 16's 104 KB is not, so it keeps the runs), static
 * for the rest (lane_dynamic_bytes: 0) */
__host__ __device__ constexpr int
lane_bytes (bool spatial, int kf, int nt)
{
  return lane_sums (spatial, kf, nt) ? nt / 32 * (kf + 1) * 32 * 8 : 0;
}

__host__ __device__ constexpr int
lane_dynamic_bytes (bool spatial, int kf, int nt)
{
  return nt > THREADS ? lane_bytes (spatial, kf, nt) : 0;
}

/* A task's pixels (@words, as for_assigned_pixels gives them; a.sel_rg and
 * a.sel_b1 pick their bytes) to a lane's pairs @mine (label j's at
 * mine[32 j]; a pixel past the edge to label KF's) */
template <int KF>
__device__ __forceinline__ void
lane_put (const Args & a, uint2 * mine, const unsigned *words, const bool *v,
    const int *label)
{
#pragma unroll
  for (int i = 0; i < PX; i++) {
    uint2 *const o = mine + (v[i] ? label[i] : KF) * 32;
    const unsigned sa = (unsigned) __cvta_generic_to_shared (o);
    shared_add (sa, __byte_perm (words[i], 0, a.sel_rg));
    shared_add < 4 > (sa, __byte_perm (words[i], 1, a.sel_b1));
  }
}

/* A warp's pairs @lw into the block's sums, and back to zero.  Column c
 * (label c / 2, word c % 2) of the C = 2 KF is summed over the 32 lanes'
 * pairs by G = 32 / C lanes, each over S = C of them, then a shuffle adds
 * the G parts: every lane busy, S steps.  Lane g S + (s + c / 2 + KF (2 g
 * / G)) % S at step s puts a step's 32 loads in 32 banks.  H100, cold
 * frames, k = 8 (16 columns, 32 steps by 16 lanes before), same hashes:
 * 1080p 136.7 -> 131.1 us, 1280x720 97.0 -> 93.1, 640x480 70.5 -> 67.1,
 * an iteration at 1080p 10.2 -> 9.7; 4K equal. */
template <int KF>
__device__ __forceinline__ void
fold_lanes (uint2 * lw, unsigned (*acc)[MAXK][6], bool wide)
{
  constexpr int C = KF * 2, G = 32 / C, S = C;
  static_assert (32 % C == 0, "fold_lanes: 2 KF must divide 32");
  unsigned *const w = (unsigned *) lw;
  const int t = threadIdx.x & 31, c = t % C, g = t / C, lab = c >> 1;
  const int l0 = g * S, rot = lab + KF * (2 * g / G);
  unsigned lo = 0, hi = 0;

  __syncwarp ();
#pragma unroll 8
  for (int s = 0; s < S; s++) {
    const int i = lab * 64 + (l0 + (s + rot) % S) * 2 + (c & 1);
    const unsigned v = w[i];
    w[i] = 0;
    lo += v & 0xffffu;
    hi += v >> 16;
  }
#pragma unroll
  for (int o = C; o < 32; o *= 2) {
    lo += __shfl_xor_sync (0xffffffffu, lo, o);
    hi += __shfl_xor_sync (0xffffffffu, hi, o);
  }
  if (g == 0) {
    const int e0 = (c & 1) ? 2 : 0, e1 = (c & 1) ? 4 : 1;
    if (wide) {
      sum_add < true > (acc, lab, e0, lo);
      sum_add < true > (acc, lab, e1, hi);
    } else {
      sum_add < false > (acc, lab, e0, lo);
      sum_add < false > (acc, lab, e1, hi);
    }
  }
  __syncwarp ();
}

template <bool SPATIAL, int WALK, bool FAST, int KF, int NT, bool TILES>
__global__ void __launch_bounds__ (NT, blocks_per_sm (SPATIAL, FAST, KF, NT))
kmeans_kernel (Args a)
{
  static_assert (!TILES || (WALK == WALK_VEC4 && FAST), "tiles: scores, "
      "4-byte pixels");
  constexpr int NW = NT / 32;
  constexpr bool YUV = WALK == WALK_YUV;
  constexpr bool POLL = polls (FAST, KF, NT);
  __shared__ Shared s;
  cg::grid_group grid = cg::this_grid ();
  State *st = a.st;
  const int tid = threadIdx.x, k = a.p.k;

  /* The sums, counts and inertia start at zero: cip_kmeans_create clears
   * them and each launch clears what it used at its end (no grid barrier
   * here). */
  if (blockIdx.x == 0 && tid == 0 && a.phase == PHASE_ATTEMPT &&
      a.attempt == 0)
    st->best = ~0ull;
  if (init_inside (SPATIAL, FAST, NT) && a.init_here) {
    if (blockIdx.x == 0)
      first_centres < SPATIAL > (a, s.c, NT);
    grid.sync ();
  }
  if (tid < k) {
    for (int i = 0; i < 5; i++)
      s.c[tid][i] = __ldcg (a.phase == PHASE_BEST ?
          &st->best_centres[tid][i] : &st->centres[tid][i]);
    if (FAST)
      s.q[tid] = score_terms (s.c[tid]);
  }
  for (int i = tid; i < 2 * MAXK * 6; i += NT)
    (&s.acc[0][0][0])[i] = 0;
  /* lane_sums' pairs (LK: KF where taken, so that others build) */
  constexpr bool LANES = lane_sums (SPATIAL, KF, NT);
  constexpr int LK = LANES ? KF : 1;
  constexpr int NPAIRS = lane_bytes (SPATIAL, KF, NT) / sizeof (uint2);
  constexpr bool LDYN = lane_dynamic_bytes (SPATIAL, KF, NT) > 0;
  __shared__ uint2 lstatic[LANES && !LDYN ? NPAIRS : 1];
  extern __shared__ uint2 ldynamic[];
  uint2 *const lpair = LDYN ? ldynamic : lstatic;
  uint2 *const lw = lpair + (tid >> 5) * (NPAIRS / NW);
  for (int i = tid; i < NPAIRS; i += NT)
    lpair[i] = make_uint2 (0, 0);
  __syncthreads ();              /* with no iterations, the output reads s.c */

  const float eps2 = __fmul_rn (a.p.epsilon, a.p.epsilon);
  const bool polled = POLL && a.pshift;
  constexpr int TR = TILES ? TILE_ROWS : 1;
  const Tasks tk = warp_tasks < WALK, NW, TR > (a);
  int hint0 = 0;
  int it = 0;
  while (it < a.p.max_iterations) {
    const int b = it % 3;
    Run < SPATIAL, false > run;
    run.start (0);
    for_assigned_pixels < SPATIAL, WALK, FAST, KF, TR > (a, tk, s.c, s.q,
        false, it == 0, hint0,
        [&](const int *x, const int *y, const bool *v, const Px * p,
            const unsigned *words, const int *label, const float *bd,
            bool fold) {
          if (LANES) {
            lane_put < LK > (a, lw + (tid & 31), words, v, label);
            if (fold)
              fold_lanes < LK > (lw, s.acc, a.wide);
          } else {
            run.put (s.acc, a.wide, x, y, v, p, label);
          }
        },
        [&](int lab, uint2 ts, bool fold) {
          /* A tile of one centre (53 % of them in the benchmark's 1080p
           * frame at k = 8): the sums its box came with, lane e sum e,
           * rather than its pixels' pairs.  H100, cold frames, same
           * hashes: 4K k=8 363.3 -> 345.1 us, 8K 1275.6 -> 1211.3, 1080p
           * k=16 198.1 -> 195.5, k=8 139.5 -> 139.2.  Not with the runs:
           * k = 32 1.7 % slower. */
          if (!LANES)
            return false;
          const int e = tid & 31;
          if (e < 4) {
            const unsigned w = e < 2 ? ts.x : ts.y;
            const unsigned n = e & 1 ? w >> 16 : w & 0xffffu;
            if (a.wide)
              sum_add < true > (s.acc, lab, e == 3 ? 4 : e, n);
            else
              sum_add < false > (s.acc, lab, e == 3 ? 4 : e, n);
          }
          if (fold)
            fold_lanes < LK > (lw, s.acc, a.wide);
          return true;
        });
    if (LANES)
      fold_lanes < LK > (lw, s.acc, a.wide);
    else
      run.flush (s.acc, a.wide);
    __syncthreads ();
    constexpr int NWORDS = SPATIAL ? 5 : 3;
    if (polled) {
      polled_sums < NT, NWORDS > (a, s, b);
      if (blockIdx.x == 0 && tid >= NT - 32) {
        /* The step after next's sums: every block has read them (it has
         * added this step's).  The fence returns once the zeros are at L2,
         * where the atomics are done, before this warp's next pass and so
         * before this block's sums of the next step (its block barrier),
         * which every block must see before it adds to these.  (Not a
         * release in the memory model's terms, as the block's sums leave
         * from other warps; red.release there would put a fence on the
         * path of every pass's end in block 0.)  The last warp, so that
         * block 0's sums leave without waiting for it.  Only the words
         * this launch's k uses: each launch starts from zeros. */
        const int nb = (it + 2) % 3;
        for (int i = tid - (NT - 32); i < k * NWORDS; i += 32)
          st->psum[nb][i] = 0;
        if (tid == NT - 32)
          st->far[nb] = 0;
        __threadfence ();
      }
    } else {
      for (int i = tid; i < k * 6; i += NT) {
        const int lab = i / 6, e = i % 6;
        const unsigned long long v = sum_of (s.acc, lab, e);
        if (v)
          atomicAdd (e == 5 ? &st->ysum[b][lab] : &st->sums[b][lab][e], v);
      }
      if (blockIdx.x == 0) {
        /* next step's sums; their last readers passed the barrier before */
        const int nb = (it + 1) % 3;
        for (int i = tid; i < MAXK * 5; i += NT)
          (&st->sums[nb][0][0])[i] = 0;
        if (tid < MAXK)
          st->ysum[nb][tid] = 0;
        if (tid == 0)
          st->far[nb] = 0;
      }
      grid.sync ();
    }

    /* new centres: every block computes the same ones, thread j centre j */
    bool empty = false, moved = false;
    if (tid < k) {
      /* word e of centre tid's sums: r, g, b, x, y */
      const unsigned long long mask = (1ull << a.pshift) - 1;
      auto sum = [&](int e) {
        return polled ? s.pw[e * k + tid] & mask : __ldcg (e == 4 ?
            &st->ysum[b][tid] : &st->sums[b][tid][e]);
      };
      const unsigned long long n = polled ? s.pw[tid] >>
          a.pshift : __ldcg (&st->sums[b][tid][4]);
      float nc[5];
      for (int i = 0; i < 5; i++)
        nc[i] = s.c[tid][i];
      if (n) {
        const double dn = (double) n;
        for (int i = 0; i < 3; i++)
          nc[i] = (float) ((double) sum (i) / dn);
        if (SPATIAL) {
          nc[3] = (float) ((double) sum (3) * (double) a.sx / dn);
          nc[4] = (float) ((double) sum (4) * (double) a.sy / dn);
        }
      }
      float m = 0.0f;
      for (int i = 0; i < (SPATIAL ? 5 : 3); i++) {
        const float t = __fsub_rn (nc[i], s.c[tid][i]);
        m = __fadd_rn (m, __fmul_rn (t, t));
      }
      for (int i = 0; i < 5; i++)
        s.nc[tid][i] = nc[i];
      s.cnt[tid] = n;
      empty = n == 0;
      moved = m > eps2;
    }
    /* the next pass's sums (read by nobody now) */
    for (int i = tid; i < 2 * MAXK * 6; i += NT)
      (&s.acc[0][0][0])[i] = 0;
    if (tid == 0)
      s.far = 0;
    bool reseeded = false;
    if (__syncthreads_or (empty)) {
      /* The first empty cluster moves to the pixel farthest from its
       * centre, the lowest index of equals: a pass of its own, as empty
       * clusters are rare (a packed walk meets a lane's pixels in index
       * order). */
      float fd = 0.0f;
      unsigned fi = 0;
      for_assigned_pixels < SPATIAL, WALK, false, 0, TR > (a, tk, s.c, s.q,
          true, false, hint0,
          [&](const int *x, const int *y, const bool *v, const Px * p,
              const unsigned *words, const int *label, const float *bd,
              bool fold) {
#pragma unroll
            for (int i = 0; i < PX; i++) {
              const unsigned idx = (unsigned) (y[i] * a.w + x[i]);
              if (v[i] && (bd[i] > fd || (YUV && bd[i] == fd && idx < fi))) {
                fd = bd[i];
                fi = idx;
              }
            }
          }, NoWholeTile ());
      const unsigned long long key = cip::warp_max (fd > 0.0f ?
          ((unsigned long long) __float_as_uint (fd) << 32) |
          (0xffffffffu - fi) : 0ull);
      if ((tid & 31) == 0 && key)
        atomicMax (&s.far, key);
      __syncthreads ();
      if (tid == 0 && s.far)
        atomicMax (&st->far[b], s.far);
      grid.sync ();
      const unsigned long long fk = __ldcg (&st->far[b]);
      reseeded = (fk >> 32) != 0;
      if (tid == 0 && reseeded) {
        for (int j = 0; j < k; j++)
          if (!s.cnt[j]) {
            const unsigned idx = 0xffffffffu - (unsigned) (fk & 0xffffffffu);
            const Px p = features < SPATIAL > (a, idx % a.w, idx / a.w);
            for (int i = 0; i < 5; i++)
              s.nc[j][i] = p.f[i];
            break;
          }
      }
      __syncthreads ();
    }
    if (tid < k) {
      for (int i = 0; i < 5; i++)
        s.c[tid][i] = s.nc[tid][i];
      if (FAST)
        s.q[tid] = score_terms (s.nc[tid]);
    }
    it++;
    /* converged: no centre moved more than epsilon, none reseeded */
    if (!__syncthreads_or (moved) && !reseeded)
      break;
  }

  /* output: nearest final centre (s.acc is zero: cleared before the
   * first pass and after each update) */
  if (tid == 0)
    s.inertia = 0;
  if (YUV && tid < k)
    cip_rgb_to_yuv (&a.m, __float2int_rn (s.c[tid][0]),
        __float2int_rn (s.c[tid][1]), __float2int_rn (s.c[tid][2]),
        &s.yuv[tid][0], &s.yuv[tid][1], &s.yuv[tid][2]);
  if (WALK == WALK_VEC4 && tid < k)
    s.outw[tid] = (__float2uint_rn (s.c[tid][0]) << (8 * a.ro)) |
        (__float2uint_rn (s.c[tid][1]) << (8 * a.go)) |
        (__float2uint_rn (s.c[tid][2]) << (8 * a.bo));
  __syncthreads ();
  /* a 4-byte pixel's fourth byte, copied */
  const unsigned keep = 0xffu << (8 * (6 - a.ro - a.go - a.bo));
  unsigned long long inertia = 0;
  Run < SPATIAL, true > run;
  run.start (0);
  for_assigned_pixels < SPATIAL, WALK, FAST, KF, TR > (a, tk, s.c, s.q,
      a.measure, it == 0, hint0, [&](const int *x, const int *y,
          const bool *v, const Px * p, const unsigned *words,
          const int *label, const float *bd, bool fold) {
        if (a.measure) {
#pragma unroll
          for (int i = 0; i < PX; i++)
            if (v[i])
              inertia += __float2ull_rn (__fmul_rn (bd[i],
                      CIP_KMEANS_INERTIA_SCALE));
        }
        if (a.phase == PHASE_ATTEMPT)
          return;               /* measured only */
        run.put (s.acc, a.wide, x, y, v, p, label);
        if (a.p.output == 0 && YUV) {
          /* Y per pixel; a chroma sample the rounded mean of its pixels' */
          int cu = 0, cv = 0, n = 0;
#pragma unroll
          for (int i = 0; i < PX; i++)
            if (v[i]) {
              a.dst[(size_t) y[i] * a.dst_pitch + x[i]] =
                  (uint8_t) s.yuv[label[i]][0];
              cu += s.yuv[label[i]][1];
              cv += s.yuv[label[i]][2];
              n++;
            }
          if (n) {
            const size_t o = (size_t) (y[0] >> 1) * a.dst_cpitch +
                (size_t) (x[0] >> 1) * a.cstep;
            a.du[o] = (uint8_t) ((cu + n / 2) / n);
            a.dv[o] = (uint8_t) ((cv + n / 2) / n);
          }
        } else if (WALK == WALK_VEC4 && a.dvec && v[PX - 1]) {
          /* four whole pixels: one aligned store */
          uint8_t *o = a.dst + (size_t) y[0] * a.dst_pitch;
          if (a.p.output == 0) {
            uint4 w;
            w.x = (words[0] & keep) | s.outw[label[0]];
            w.y = (words[1] & keep) | s.outw[label[1]];
            w.z = (words[2] & keep) | s.outw[label[2]];
            w.w = (words[3] & keep) | s.outw[label[3]];
            *(uint4 *) (o + (size_t) x[0] * 4) = w;
          } else {
            unsigned w = 0;
#pragma unroll
            for (int i = 0; i < PX; i++)
              w |= (unsigned) (a.p.output == 2 ? label[i] * 255 / (k - 1) :
                  label[i]) << (8 * i);
            *(unsigned *) (o + x[0]) = w;
          }
        } else {
#pragma unroll
          for (int i = 0; i < PX; i++) {
            if (!v[i])
              continue;
            if (a.p.output == 0) {
              const uint8_t *in = a.src + (size_t) y[i] * a.src_pitch +
                  (size_t) x[i] * a.bpp;
              uint8_t *o = a.dst + (size_t) y[i] * a.dst_pitch +
                  (size_t) x[i] * a.bpp;
              if (a.bpp == 4) {
                const int other = 6 - a.ro - a.go - a.bo;
                o[other] = in[other];
              }
              o[a.ro] = (uint8_t) __float2int_rn (s.c[label[i]][0]);
              o[a.go] = (uint8_t) __float2int_rn (s.c[label[i]][1]);
              o[a.bo] = (uint8_t) __float2int_rn (s.c[label[i]][2]);
            } else {
              a.dst[(size_t) y[i] * a.dst_pitch + x[i]] =
                  (uint8_t) (a.p.output == 2 ? label[i] * 255 / (k - 1) :
                  label[i]);
            }
          }
        }
      }, NoWholeTile ());
  run.flush (s.acc, a.wide);
  /* one shared 64-bit atomic a warp */
  for (int o = 16; o; o >>= 1)
    inertia += __shfl_xor_sync (FULL, inertia, o);
  if ((tid & 31) == 0 && inertia)
    atomicAdd (&s.inertia, inertia);
  __syncthreads ();
  if (tid < k && s.acc[0][tid][4])
    atomicAdd (&st->counts[tid], s.acc[0][tid][4]);
  if (tid == 0 && s.inertia)
    atomicAdd (&st->inertia, s.inertia);
  grid.sync ();
  if (blockIdx.x == 0 && a.phase == PHASE_ATTEMPT) {
    /* the lowest inertia is kept, the earliest attempt of equals */
    if (tid == 0) {
      const unsigned long long total = __ldcg (&st->inertia);
      s.better = total < st->best;
      if (s.better) {
        st->best = total;
        st->best_it = (unsigned) it;
      }
    }
    __syncthreads ();
    if (s.better)
      for (int i = tid; i < k * 5; i += NT)
        st->best_centres[i / 5][i % 5] = s.c[i / 5][i % 5];
  } else if (blockIdx.x == 0) {
    for (int i = tid; i < k * 5; i += NT)
      st->centres[i / 5][i % 5] = s.c[i / 5][i % 5];
    if (a.res) {
      for (int i = tid; i < k * 5; i += NT)
        a.res->centres[i / 5][i % 5] = s.c[i / 5][i % 5];
      if (tid < k)
        a.res->counts[tid] = __ldcg (&st->counts[tid]);
      if (tid == 0) {
        a.res->iterations = a.phase == PHASE_BEST ? st->best_it : it;
        a.res->k = k;
        a.res->inertia = __ldcg (&st->inertia);
      }
    }
  }
  if (blockIdx.x == 0) {
    /* the next launch starts from zero sums: the other blocks are done
     * with them (the grid barrier above), this one's readers after this
     * barrier */
    __syncthreads ();
    for (int i = tid; i < 3 * MAXK * 5; i += NT)
      (&st->sums[0][0][0])[i] = 0;
    for (int i = tid; i < 3 * MAXK; i += NT)
      (&st->ysum[0][0])[i] = 0;
    if (tid < 3)
      st->far[tid] = 0;
    for (int i = tid; i < 3 * MAXK * PWORDS; i += NT)
      (&st->psum[0][0])[i] = 0;
    if (tid < MAXK)
      st->counts[tid] = 0;
    if (tid == 0)
      st->inertia = 0;
  }
}

/* What a frame's kernel finds nearest centres by; the kernel for each
 * and each walk */
enum
{
  BY_DISTANCE,                  /* colour: the reference's distances */
  BY_DISTANCE_4,                /* the same, k = 4 unrolled */
  BY_POSITION,                  /* colour and position: the same */
  BY_SCORE,                     /* colour, k >= FAST_K: scores first */
  BY_SCORE_8,                   /* the same, k = 8 unrolled */
  BY_SCORE_16,                  /* the same, k = 16 unrolled */
  BY_SCORE_8_WIDE,              /* k = 8, one block of 768 an SM */
  BY_SCORE_16_WIDE,
  N_BY
};

/* The kernel of each walk, and its threads a block */
struct Kernels
{
  const void *fn[N_WALKS];
  int threads;
  bool init_inside, polls;
  int smem;                     /* dynamic shared memory */
};

/* (WALK_TILED: the kernels without scores walk rows) */
#define KERNEL(SPATIAL, WALK, FAST, KF, NT, TILES) \
    (const void *) kmeans_kernel < SPATIAL, WALK, FAST, KF, NT, TILES >
#define KERNELS(SPATIAL, FAST, KF, NT) { { \
    KERNEL (SPATIAL, WALK_PACKED, FAST, KF, NT, false), \
    KERNEL (SPATIAL, WALK_VEC4, FAST, KF, NT, false), \
    KERNEL (SPATIAL, WALK_YUV, FAST, KF, NT, false), \
    KERNEL (SPATIAL, WALK_VEC4, FAST, KF, NT, FAST) }, NT, \
    init_inside (SPATIAL, FAST, NT), polls (FAST, KF, NT), \
    lane_dynamic_bytes (SPATIAL, KF, NT) }
const Kernels kernels[N_BY] = {
  KERNELS (false, false, 0, THREADS),
  KERNELS (false, false, 4, THREADS),
  KERNELS (true, false, 0, THREADS),
  KERNELS (false, true, 0, THREADS),
  KERNELS (false, true, 8, THREADS),
  KERNELS (false, true, 16, THREADS),
  KERNELS (false, true, 8, 3 * THREADS),
  KERNELS (false, true, 16, 3 * THREADS),
};
#undef KERNELS
#undef KERNEL

/* From this many pixels k = 8 and 16 run one block of 768 threads an SM,
 * not three of 256: the first of three blocks on an SM finished a pass
 * well before the last (stamps of a 4K k=8 frame: 11 of 35 us), which
 * then ran on with a third of the warps.  H100, cold frames, 10
 * iterations: 4K k=8 450 -> 436 us, 8K k=8 1644 -> 1580, k=16 2585 ->
 * 2397, 2560x1440 k=16 367 -> 349 (k=8 equal); 1080p k=8 167 -> 174, so
 * not there. */
constexpr long long WIDE_PIXELS = 3 << 20;

int
kernel_by (const CipKmeansParams * p, long long pixels)
{
  const bool wide = pixels >= WIDE_PIXELS;
  if (p->spatial_weight > 0.0f)
    return BY_POSITION;
  switch (p->k) {
    case 4:
      return BY_DISTANCE_4;
    case 8:
      return wide ? BY_SCORE_8_WIDE : BY_SCORE_8;
    case 16:
      return wide ? BY_SCORE_16_WIDE : BY_SCORE_16;
  }
  return p->k >= FAST_K ? BY_SCORE : BY_DISTANCE;
}

}                               /* namespace */

/* A frame's tasks of 128 pixels (as warp_tasks counts them) */
static long long
task_count (int w, int h, int walk, bool fast)
{
  const int tr = walk == WALK_TILED && fast ? TILE_ROWS : 1;
  return walk == WALK_YUV ? (long long) (((w + 1) / 2 + 31) / 32) *
      ((h + 1) / 2) : (long long) ((w + 128 / tr - 1) / (128 / tr)) *
      ((h + tr - 1) / tr);
}

struct _CipKmeans
{
  int width, height, grid[N_BY][N_WALKS];
  int wide[N_BY][N_WALKS];      /* a block's sums can pass 2^32 */
  int have_centres;             /* a frame has run: warm start possible */
  int pshift[2];                /* Args.pshift, colour and position */
  State *st;
  uint4 *boxes;                 /* Args.boxes */
};

extern "C" cudaError_t
cip_kmeans_create (CipKmeans ** out, int width, int height)
{
  int cap[N_BY][N_WALKS];
  cudaError_t err;

  *out = NULL;
  if (width < 1 || height < 1)
    return cudaErrorInvalidValue;
  for (int i = 0; i < N_BY * N_WALKS; i++) {
    const Kernels & kn = kernels[i / N_WALKS];
    const void *const fn = kn.fn[i % N_WALKS];
    const int smem = kn.smem;
    /* past 48 KB a kernel must ask (for the current device) */
    if (smem > 48 * 1024 && (err = cudaFuncSetAttribute (fn,
                cudaFuncAttributeMaxDynamicSharedMemorySize, smem)) !=
        cudaSuccess)
      return err;
    if ((err = cip::cooperative_capacity (fn, kn.threads,
                &cap[i / N_WALKS][i % N_WALKS], smem)) != cudaSuccess)
      return err;
  }

  CipKmeans *km = new (std::nothrow) CipKmeans ();
  if (!km)
    return cudaErrorMemoryAllocation;
  km->width = width;
  km->height = height;
  for (int i = 0; i < N_BY * N_WALKS; i++) {
    const int by = i / N_WALKS, walk = i % N_WALKS;
    /* a warp a task of 128 pixels (small frames: the shortest chain a
     * pass), at most what is resident at once */
    const long long tasks = task_count (width, height, walk,
        by >= BY_SCORE);
    const int nw = kernels[by].threads / 32;
    const int grid = max (1, (int) min ((tasks + nw - 1) / nw,
            (long long) cap[by][walk]));
    /* the most pixels a block sums in a pass, times the largest value */
    const long long warps = (long long) grid * nw;
    const long long ppb = (tasks + warps - 1) / warps * nw * 128;
    const long long top = by == BY_POSITION ?
        max (255, max (width, height) - 1) : 255;
    km->grid[by][walk] = grid;
    km->wide[by][walk] = ppb * top >= (1ll << 32);
  }
  /* the count from bit 64 - bits (n) where the sums below fit */
  for (int sp = 0; sp < 2; sp++) {
    const unsigned long long n = (unsigned long long) width * height;
    const unsigned long long top = sp ? max (255, max (width, height) - 1) :
        255;
    int nb = 0;
    while (nb < 64 && (n >> nb))
      nb++;
    const int shift = 64 - nb;
    km->pshift[sp] = shift < 64 && (double) n * top < ldexp (1.0, shift) ?
        shift : 0;
  }
  err = cip_malloc ((void **) &km->st, sizeof (State), "cudakmeans state");
  if (err == cudaSuccess)
    err = cudaMemset (km->st, 0, sizeof (State));
  if (err == cudaSuccess)
    err = cip_malloc ((void **) &km->boxes, (size_t) task_count (width,
            height, WALK_TILED, true) * sizeof (uint4), "cudakmeans boxes");
  if (err != cudaSuccess) {
    cip_free (km->boxes);
    cip_free (km->st);
    delete km;
    return err;
  }
  *out = km;
  return cudaSuccess;
}

extern "C" void
cip_kmeans_destroy (CipKmeans * km)
{
  if (!km)
    return;
  cip_free (km->boxes);
  cip_free (km->st);
  delete km;
}

extern "C" cudaError_t
cip_kmeans (CipKmeans * km, const CipKmeansFormat * fmt,
    const CipKmeansPlanes * src, const CipKmeansPlanes * dst,
    const CipKmeansParams * params, CipKmeansResult * result,
    cudaStream_t stream)
{
  Args a;
  void *args[] = { &a };
  const bool spatial = params->spatial_weight > 0.0f;
  const int by = kernel_by (params, (long long) km->width * km->height);
  const bool yuv = fmt->layout != CIP_KMEANS_PACKED;
  int walk = yuv ? WALK_YUV : WALK_PACKED;

  if (params->k < 2 || params->k > MAXK || params->max_iterations < 0 ||
      params->attempts < 0 || params->attempts > CIP_KMEANS_MAX_ATTEMPTS ||
      (!yuv && fmt->bpp != 3 && fmt->bpp != 4) ||
      (yuv && fmt->layout != CIP_KMEANS_I420 &&
          fmt->layout != CIP_KMEANS_NV12))
    return cudaErrorInvalidValue;
  memset (&a, 0, sizeof (a));
  a.yuv = yuv;
  a.src = (const uint8_t *) src->data[0];
  a.dst = (uint8_t *) dst->data[0];
  a.src_pitch = src->pitch[0];
  a.dst_pitch = dst->pitch[0];
  if (yuv) {
    const bool nv12 = fmt->layout == CIP_KMEANS_NV12;
    a.m = fmt->yuv;
    a.cstep = nv12 ? 2 : 1;
    a.su = (const uint8_t *) src->data[1];
    a.sv = nv12 ? a.su + 1 : (const uint8_t *) src->data[2];
    a.src_cpitch = src->pitch[1];
    if (params->output == 0) {
      a.du = (uint8_t *) dst->data[1];
      a.dv = nv12 ? a.du + 1 : (uint8_t *) dst->data[2];
      a.dst_cpitch = dst->pitch[1];
    }
  } else {
    a.bpp = fmt->bpp;
    a.ro = fmt->r_off;
    a.go = fmt->g_off;
    a.bo = fmt->b_off;
    /* 4-byte pixels in 16-byte aligned rows: read 4 at a time */
    if (a.bpp == 4 && ((uintptr_t) a.src | (unsigned) a.src_pitch) % 16 == 0)
      walk = WALK_VEC4;
    const unsigned align = params->output == 0 ? 16 : 4;
    a.dvec = ((uintptr_t) a.dst | (unsigned) a.dst_pitch) % align == 0;
  }
  a.w = km->width;
  a.h = km->height;
  const bool fresh = params->reinit || !km->have_centres;
  /* from fresh centres the scores' 4-byte walk in tiles (TILE_ROWS), up
   * to the 32 centres prune_centres weighs (past them tiles gain nothing:
   * k=64 0.4 % slower) */
  const int rows_walk = walk;
  if (walk == WALK_VEC4 && fresh && by >= BY_SCORE && params->k <= 32)
    walk = WALK_TILED;
  /* lane_put's selectors: the pixel as read (WALK_VEC4) or as
   * for_assigned_pixels packs it (r, g, b in bytes 0, 1, 2) */
  {
    const bool as_read = walk == WALK_VEC4 || walk == WALK_TILED;
    a.sel_rg = (unsigned) ((as_read ? fmt->r_off : 0) | 0x4040 |
        (as_read ? fmt->g_off : 1) << 8);
    a.sel_b1 = (unsigned) ((as_read ? fmt->b_off : 2) | 0x5450);
  }
  a.wide = km->wide[by][walk];
  a.pshift = kernels[by].polls &&
      params->k * (spatial ? 5 : 3) <= POLL_WORDS ? km->pshift[spatial] : 0;
  a.sx = (float) ((double) params->spatial_weight * 255.0 /
      (double) max (km->width - 1, 1));
  a.sy = (float) ((double) params->spatial_weight * 255.0 /
      (double) max (km->height - 1, 1));
  a.p = *params;
  a.st = km->st;
  a.boxes = km->boxes;
  a.res = result;
  a.phase = PHASE_FRAME;
  a.measure = result != NULL;
  /* the first centres, then the frame */
  auto run = [&]() {
    if (a.init_here && !kernels[by].init_inside) {
      if (spatial)
        init_kernel < true ><<<1, INIT_THREADS, 0, stream >>> (a);
      else
        init_kernel < false ><<<1, INIT_THREADS, 0, stream >>> (a);
      const cudaError_t e = cudaGetLastError ();
      if (e != cudaSuccess)
        return e;
    }
    return cudaLaunchCooperativeKernel (kernels[by].fn[walk],
        dim3 (km->grid[by][walk]), dim3 (kernels[by].threads), args,
        kernels[by].smem, stream);
  };
  cudaError_t err = cudaSuccess;

  a.init_here = fresh;
  if (!fresh || params->attempts <= 1) {
    err = run ();
    if (err == cudaSuccess && fresh)
      km->have_centres = 1;
    return err;
  }
  /* Attempts one after another on the stream, each from its own seed; the
   * best one's centres stay on the device, and its output is written from
   * them (the nearest-centre pass it ended with). */
  a.phase = PHASE_ATTEMPT;
  a.measure = 1;
  for (int i = 0; i < params->attempts && err == cudaSuccess; i++) {
    a.attempt = i;
    a.p.seed = CIP_KMEANS_ATTEMPT_SEED (params->seed, i);
    err = run ();
  }
  if (err == cudaSuccess)
    km->have_centres = 1;
  a.phase = PHASE_BEST;
  a.p.max_iterations = 0;
  a.init_here = 0;
  walk = rows_walk;             /* one pass: no boxes worth making */
  a.wide = km->wide[by][walk];
  return err != cudaSuccess ? err : run ();
}
