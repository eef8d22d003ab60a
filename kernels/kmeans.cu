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
#include <cooperative_groups.h>

#include "cip_block.cuh"
#include "cip_alloc.h"
#include "cip_cooperative.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int MAXK = CIP_KMEANS_MAX_K;
constexpr int NSUB = 64;        /* k-means++ subsample: up to 64 x 64 */
constexpr int PER_THREAD = NSUB * NSUB / THREADS;
constexpr unsigned FULL = 0xffffffffu;

struct State
{
  float centres[MAXK][5];
  unsigned long long sums[3][MAXK][5];  /* r, g, b, x, count by step % 3 */
  unsigned long long ysum[3][MAXK];
  unsigned long long far[3];    /* farthest pixel: distance bits, ~index */
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
};

struct Px
{
  float f[5];
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

template <bool SPATIAL, int YUV = -1>
__device__ __forceinline__ Px
features (const Args & a, int x, int y)
{
  int r, g, b;
  Px p;
  load_rgb < YUV > (a, x, y, r, g, b);
  p.f[0] = (float) r;
  p.f[1] = (float) g;
  p.f[2] = (float) b;
  p.f[3] = SPATIAL ? __fmul_rn ((float) x, a.sx) : 0.0f;
  p.f[4] = SPATIAL ? __fmul_rn ((float) y, a.sy) : 0.0f;
  return p;
}

template <bool SPATIAL>
__device__ __forceinline__ float
dist (const Px & p, const float *c)
{
  float d = 0.0f;
#pragma unroll
  for (int i = 0; i < (SPATIAL ? 5 : 3); i++) {
    const float t = __fsub_rn (p.f[i], c[i]);
    d = __fadd_rn (d, __fmul_rn (t, t));
  }
  return d;
}

/* Nearest centre, the lowest index on ties. */
template <bool SPATIAL>
__device__ __forceinline__ int
nearest (const Px & p, const float (*c)[5], int k, float &bd)
{
  int best = 0;
  bd = dist < SPATIAL > (p, c[0]);
  for (int j = 1; j < k; j++) {
    const float d = dist < SPATIAL > (p, c[j]);
    if (d < bd) {
      bd = d;
      best = j;
    }
  }
  return best;
}

__device__ __forceinline__ unsigned
warp_sum (unsigned v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync (FULL, v);
#else
#pragma unroll
  for (int o = 16; o; o >>= 1)
    v += __shfl_xor_sync (FULL, v, o);
  return v;
#endif
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

/* Sample i of the subsample grid, as ref_kmeans places it. */
__device__ __forceinline__ void
sample_xy (const Args & a, int i, int nx, int ny, int &x, int &y)
{
  x = (int) (((long long) (2 * (i % nx) + 1) * a.w) / (2 * nx));
  y = (int) (((long long) (2 * (i / nx) + 1) * a.h) / (2 * ny));
}

template <bool SPATIAL>
__device__ void
init_centres (const Args & a, float (*c)[5])
{
  __shared__ uint32_t s_rng;
  __shared__ int s_pick;
  __shared__ unsigned long long s_total, s_r;
  __shared__ int s_rgb[3];
  const int tid = threadIdx.x, k = a.p.k;
  const int nx = min (a.w, NSUB), ny = min (a.h, NSUB), n = nx * ny;
  int pick;

  if (a.p.init == 1) {
    /* uniform: evenly spaced samples */
    if (tid < k) {
      int x, y;
      sample_xy (a, (int) ((long long) tid * n / k), nx, ny, x, y);
      const Px p = features < SPATIAL > (a, x, y);
      for (int i = 0; i < 5; i++)
        c[tid][i] = p.f[i];
    }
    __syncthreads ();
    return;
  }

  /* k-means++ on colour, integer squared distances: thread t owns samples
   * t * PER_THREAD ... in index order, so prefix sums run in index order */
  int rgb[PER_THREAD][3];
  uint32_t d2[PER_THREAD];
  const int i0 = tid * PER_THREAD;
  for (int m = 0; m < PER_THREAD; m++) {
    int x, y;
    d2[m] = 0;
    rgb[m][0] = rgb[m][1] = rgb[m][2] = 0;
    if (i0 + m < n) {
      sample_xy (a, i0 + m, nx, ny, x, y);
      load_rgb < -1 > (a, x, y, rgb[m][0], rgb[m][1], rgb[m][2]);
    }
  }
  if (tid == 0) {
    s_rng = a.p.seed * 2654435761u + 1u;
    if (!s_rng)
      s_rng = 1;
    s_pick = (int) (xorshift (s_rng) % (uint32_t) n);
  }
  __syncthreads ();
  pick = s_pick;
  for (int j = 0; j < k; j++) {
    /* centre j is sample pick */
    if (tid == 0) {
      int x, y;
      sample_xy (a, pick, nx, ny, x, y);
      const Px p = features < SPATIAL > (a, x, y);
      for (int i = 0; i < 5; i++)
        c[j][i] = p.f[i];
      s_rgb[0] = (int) p.f[0];
      s_rgb[1] = (int) p.f[1];
      s_rgb[2] = (int) p.f[2];
    }
    __syncthreads ();
    if (j == k - 1)
      break;
    unsigned long long local = 0;
    for (int m = 0; m < PER_THREAD; m++) {
      if (i0 + m >= n)
        continue;
      const int dr = rgb[m][0] - s_rgb[0], dg = rgb[m][1] - s_rgb[1];
      const int db = rgb[m][2] - s_rgb[2];
      const uint32_t d = (uint32_t) (dr * dr + dg * dg + db * db);
      d2[m] = j == 0 ? d : min (d2[m], d);
      local += d2[m];
    }
    const unsigned long long incl = cip::block_inclusive_scan < THREADS,
        unsigned long long >(local);
    if (tid == THREADS - 1)
      s_total = incl;
    __syncthreads ();
    if (tid == 0) {
      if (s_total == 0) {
        s_pick = (int) (xorshift (s_rng) % (uint32_t) n);
        s_r = ~0ull;
      } else {
        const uint32_t hi = xorshift (s_rng), lo = xorshift (s_rng);
        s_r = (((unsigned long long) hi << 32) | lo) % s_total;
      }
    }
    __syncthreads ();
    if (s_r != ~0ull && s_r >= incl - local && s_r < incl) {
      unsigned long long acc = incl - local;
      for (int m = 0; m < PER_THREAD; m++) {
        acc += d2[m];
        if (acc > s_r) {
          s_pick = i0 + m;
          break;
        }
      }
    }
    __syncthreads ();
    pick = s_pick;
    __syncthreads ();
  }
}

/* ---- the kernel -------------------------------------------------------- */

struct Shared
{
  float c[MAXK][5];
  float nc[MAXK][5];
  float moved[MAXK];
  unsigned long long cnt[MAXK];
  unsigned long long fk;
  unsigned long long acc[MAXK][5];
  unsigned long long yacc[MAXK];
  unsigned long long far;
  unsigned long long inertia;
  int yuv[MAXK][3];             /* 4:2:0 colour output: centres' Y, U, V */
  int stop;
  int better;
};

/* Walks the frame 4 pixels a lane and calls @fn (x[4], y[4], valid[4],
 * features[4], label[4], distance[4]) on every lane after assigning each
 * pixel its nearest centre of @c; invalid pixels have label 0.  Packed
 * frames go in runs of 128 pixels of a row, a warp a run (lane + 32 i:
 * coalesced, four independent loads in flight per thread); 4:2:0 frames a
 * 2x2 block a lane, so one lane sees every pixel of a chroma sample. */
constexpr int PX = 4;

template <bool SPATIAL, bool YUV, class F>
__device__ __forceinline__ void
for_assigned_pixels (const Args & a, const float (*c)[5], F fn)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int cols = YUV ? (a.w + 1) / 2 : a.w, rows = YUV ? (a.h + 1) / 2 : a.h;
  const int tpr = (cols + 32 * (YUV ? 1 : PX) - 1) / (32 * (YUV ? 1 : PX));
  const int ntask = tpr * rows;
  for (int t = blockIdx.x * WARPS + warp; t < ntask;
      t += gridDim.x * WARPS) {
    const int r = t / tpr, c0 = (t - r * tpr) * 32 * (YUV ? 1 : PX) + lane;
    int x[PX], y[PX], label[PX];
    bool v[PX];
    Px p[PX];
    float bd[PX];
#pragma unroll
    for (int i = 0; i < PX; i++) {
      x[i] = YUV ? 2 * c0 + (i & 1) : c0 + 32 * i;
      y[i] = YUV ? 2 * r + (i >> 1) : r;
      v[i] = x[i] < a.w && y[i] < a.h;
      if (v[i])
        p[i] = features < SPATIAL, YUV > (a, x[i], y[i]);
    }
#pragma unroll
    for (int i = 0; i < PX; i++) {
      label[i] = 0;
      bd[i] = 0.0f;
      if (v[i])
        label[i] = nearest < SPATIAL > (p[i], c, a.p.k, bd[i]);
    }
    fn (x, y, v, p, label, bd);
  }
}

/* Adds each lane's pixel to its label's block sums, one shared atomic a
 * distinct label of the warp.  Integer sums: order does not matter. */
template <bool SPATIAL, bool COUNT_ONLY>
__device__ __forceinline__ void
warp_accumulate (Shared & s, bool valid, int label, int x, int y,
    const Px & p)
{
  const int lane = threadIdx.x & 31;
  unsigned pending = __ballot_sync (FULL, valid);
  while (pending) {
    const int leader = __ffs (pending) - 1;
    const int lab = __shfl_sync (FULL, label, leader);
    const bool mine = valid && label == lab;
    const unsigned grp = __ballot_sync (FULL, mine);
    const unsigned cnt = __popc (grp);
    if (!COUNT_ONLY) {
      const unsigned r = warp_sum (mine ? (unsigned) p.f[0] : 0u);
      const unsigned g = warp_sum (mine ? (unsigned) p.f[1] : 0u);
      const unsigned b = warp_sum (mine ? (unsigned) p.f[2] : 0u);
      const unsigned xs = SPATIAL ? warp_sum (mine ? (unsigned) x : 0u) : 0u;
      if (lane == leader) {
        atomicAdd (&s.acc[lab][0], (unsigned long long) r);
        atomicAdd (&s.acc[lab][1], (unsigned long long) g);
        atomicAdd (&s.acc[lab][2], (unsigned long long) b);
        if (SPATIAL) {
          atomicAdd (&s.acc[lab][3], (unsigned long long) xs);
          atomicAdd (&s.yacc[lab], (unsigned long long) y * cnt);
        }
      }
    }
    if (lane == leader)
      atomicAdd (&s.acc[lab][4], (unsigned long long) cnt);
    pending &= ~grp;
  }
}

/* One block: the first centres (its registers would otherwise cost the
 * main kernel occupancy). */
template <bool SPATIAL>
__global__ void __launch_bounds__ (THREADS)
init_kernel (Args a)
{
  __shared__ float c[MAXK][5];
  init_centres < SPATIAL > (a, c);
  for (int i = threadIdx.x; i < a.p.k * 5; i += THREADS)
    a.st->centres[i / 5][i % 5] = c[i / 5][i % 5];
}

template <bool SPATIAL, bool YUV>
__global__ void __launch_bounds__ (THREADS, 4)
kmeans_kernel (Args a)
{
  __shared__ Shared s;
  cg::grid_group grid = cg::this_grid ();
  State *st = a.st;
  const int tid = threadIdx.x, k = a.p.k;

  if (blockIdx.x == 0) {
    for (int i = tid; i < 2 * MAXK * 5; i += THREADS)
      (&st->sums[0][0][0])[i] = 0;
    for (int i = tid; i < 2 * MAXK; i += THREADS)
      (&st->ysum[0][0])[i] = 0;
    if (tid < 2)
      st->far[tid] = 0;
    for (int i = tid; i < MAXK; i += THREADS)
      st->counts[i] = 0;
    if (tid == 0) {
      st->inertia = 0;
      if (a.phase == PHASE_ATTEMPT && a.attempt == 0)
        st->best = ~0ull;
    }
  }
  grid.sync ();
  for (int i = tid; i < k * 5; i += THREADS)
    s.c[i / 5][i % 5] = __ldcg (a.phase == PHASE_BEST ?
        &st->best_centres[i / 5][i % 5] : &st->centres[i / 5][i % 5]);
  __syncthreads ();              /* with no iterations, the output reads s.c */

  int it = 0;
  while (it < a.p.max_iterations) {
    const int b = it % 3;
    for (int i = tid; i < MAXK * 5; i += THREADS)
      (&s.acc[0][0])[i] = 0;
    if (tid < MAXK)
      s.yacc[tid] = 0;
    if (tid == 0)
      s.far = 0;
    __syncthreads ();

    unsigned long long far = 0;
    for_assigned_pixels < SPATIAL, YUV > (a, s.c,[&](const int *x,
            const int *y, const bool *v, const Px * p, const int *label,
            const float *bd) {
#pragma unroll
          for (int i = 0; i < PX; i++)
            if (v[i])
              far = max (far, ((unsigned long long) __float_as_uint (bd[i])
                      << 32) | (0xffffffffu - (unsigned) (y[i] * a.w + x[i])));
#pragma unroll
          for (int i = 0; i < PX; i++)
            warp_accumulate < SPATIAL, false > (s, v[i], label[i], x[i], y[i],
                p[i]);
        });
    atomicMax (&s.far, far);
    __syncthreads ();
    for (int i = tid; i < k * 5; i += THREADS) {
      const unsigned long long v = (&s.acc[0][0])[i];
      if (v)
        atomicAdd (&st->sums[b][0][0] + i, v);
    }
    if (SPATIAL && tid < k && s.yacc[tid])
      atomicAdd (&st->ysum[b][tid], s.yacc[tid]);
    if (tid == 0)
      atomicMax (&st->far[b], s.far);
    if (blockIdx.x == 0) {
      /* next step's sums; their last readers passed the barrier before */
      const int nb = (it + 1) % 3;
      for (int i = tid; i < MAXK * 5; i += THREADS)
        (&st->sums[nb][0][0])[i] = 0;
      if (tid < MAXK)
        st->ysum[nb][tid] = 0;
      if (tid == 0)
        st->far[nb] = 0;
    }
    grid.sync ();

    /* new centres: every block computes the same ones */
    if (tid == THREADS - 1)
      s.fk = __ldcg (&st->far[b]);
    if (tid < k) {
      const unsigned long long n = __ldcg (&st->sums[b][tid][4]);
      s.cnt[tid] = n;
      for (int i = 0; i < 5; i++)
        s.nc[tid][i] = s.c[tid][i];
      if (n) {
        const double dn = (double) n;
        for (int i = 0; i < 3; i++)
          s.nc[tid][i] = (float) ((double) __ldcg (&st->sums[b][tid][i]) /
              dn);
        if (SPATIAL) {
          s.nc[tid][3] = (float) ((double) __ldcg (&st->sums[b][tid][3]) *
              (double) a.sx / dn);
          s.nc[tid][4] = (float) ((double) __ldcg (&st->ysum[b][tid]) *
              (double) a.sy / dn);
        }
      }
    }
    __syncthreads ();
    if (tid == 0) {
      /* the first empty cluster moves to the farthest pixel */
      const unsigned long long fk = s.fk;
      int reseeded = 0;
      for (int j = 0; j < k; j++)
        if (!s.cnt[j]) {
          if ((fk >> 32) != 0) {
            const unsigned idx = 0xffffffffu - (unsigned) (fk & 0xffffffffu);
            const Px p = features < SPATIAL > (a, idx % a.w, idx / a.w);
            for (int i = 0; i < 5; i++)
              s.nc[j][i] = p.f[i];
            reseeded = 1;
          }
          break;
        }
      s.stop = !reseeded;
    }
    __syncthreads ();
    if (tid < k) {
      float m = 0.0f;
      for (int i = 0; i < (SPATIAL ? 5 : 3); i++) {
        const float t = __fsub_rn (s.nc[tid][i], s.c[tid][i]);
        m = __fadd_rn (m, __fmul_rn (t, t));
      }
      s.moved[tid] = m;
    }
    __syncthreads ();
    if (tid == 0) {
      const float eps2 = __fmul_rn (a.p.epsilon, a.p.epsilon);
      for (int j = 0; j < k; j++)
        if (s.moved[j] > eps2)
          s.stop = 0;
    }
    for (int i = tid; i < k * 5; i += THREADS)
      s.c[i / 5][i % 5] = s.nc[i / 5][i % 5];
    __syncthreads ();
    it++;
    if (s.stop)
      break;
  }

  /* output: nearest final centre */
  if (tid < MAXK)
    s.acc[tid][4] = 0;
  if (tid == 0)
    s.inertia = 0;
  if (YUV && tid < k)
    cip_rgb_to_yuv (&a.m, __float2int_rn (s.c[tid][0]),
        __float2int_rn (s.c[tid][1]), __float2int_rn (s.c[tid][2]),
        &s.yuv[tid][0], &s.yuv[tid][1], &s.yuv[tid][2]);
  __syncthreads ();
  unsigned long long inertia = 0;
  for_assigned_pixels < SPATIAL, YUV > (a, s.c,[&](const int *x, const int *y,
          const bool *v, const Px * p, const int *label, const float *bd) {
        if (a.measure) {
#pragma unroll
          for (int i = 0; i < PX; i++)
            if (v[i])
              inertia += __float2ull_rn (__fmul_rn (bd[i],
                      CIP_KMEANS_INERTIA_SCALE));
        }
        if (a.phase == PHASE_ATTEMPT) {
          /* measured only */
        } else if (a.p.output == 0 && YUV) {
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
#pragma unroll
        for (int i = 0; i < PX; i++)
          warp_accumulate < SPATIAL, true > (s, v[i], label[i], x[i], y[i],
              p[i]);
      });
  if (inertia)
    atomicAdd (&s.inertia, inertia);
  __syncthreads ();
  if (tid < k && s.acc[tid][4])
    atomicAdd (&st->counts[tid], (unsigned) s.acc[tid][4]);
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
      for (int i = tid; i < k * 5; i += THREADS)
        st->best_centres[i / 5][i % 5] = s.c[i / 5][i % 5];
  } else if (blockIdx.x == 0) {
    for (int i = tid; i < k * 5; i += THREADS)
      st->centres[i / 5][i % 5] = s.c[i / 5][i % 5];
    if (a.res) {
      for (int i = tid; i < k * 5; i += THREADS)
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
}

/* the kernel for each (spatial, yuv) */
const void *const kernels[2][2] = {
  {(const void *) kmeans_kernel < false, false >,
      (const void *) kmeans_kernel < false, true >},
  {(const void *) kmeans_kernel < true, false >,
      (const void *) kmeans_kernel < true, true >},
};

}                               /* namespace */

struct _CipKmeans
{
  int width, height, grid[2][2];
  int have_centres;             /* a frame has run: warm start possible */
  State *st;
};

extern "C" cudaError_t
cip_kmeans_create (CipKmeans ** out, int width, int height)
{
  int cap[2][2];
  cudaError_t err;

  *out = NULL;
  if (width < 1 || height < 1)
    return cudaErrorInvalidValue;
  for (int i = 0; i < 4; i++)
    if ((err = cip::cooperative_capacity (kernels[i / 2][i % 2], THREADS,
                &cap[i / 2][i % 2])) != cudaSuccess)
      return err;

  CipKmeans *km = new (std::nothrow) CipKmeans ();
  if (!km)
    return cudaErrorMemoryAllocation;
  km->width = width;
  km->height = height;
  /* enough warps for the pixels, at most what is resident at once */
  const long long tasks = (long long) ((width + 31) / 32) * height;
  const int want = (int) min ((tasks + WARPS * 4 - 1) / (WARPS * 4),
      (long long) 1 << 20);
  for (int i = 0; i < 4; i++)
    km->grid[i / 2][i % 2] = max (1, min (want, cap[i / 2][i % 2]));
  err = cip_malloc ((void **) &km->st, sizeof (State), "cudakmeans state");
  if (err == cudaSuccess)
    err = cudaMemset (km->st, 0, sizeof (State));
  if (err != cudaSuccess) {
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
  const bool yuv = fmt->layout != CIP_KMEANS_PACKED;

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
  }
  a.w = km->width;
  a.h = km->height;
  a.sx = (float) ((double) params->spatial_weight * 255.0 /
      (double) max (km->width - 1, 1));
  a.sy = (float) ((double) params->spatial_weight * 255.0 /
      (double) max (km->height - 1, 1));
  a.p = *params;
  a.st = km->st;
  a.res = result;
  a.phase = PHASE_FRAME;
  a.measure = result != NULL;
  const bool fresh = params->reinit || !km->have_centres;
  auto init = [&]() {
    if (spatial)
      init_kernel < true ><<<1, THREADS, 0, stream >>> (a);
    else
      init_kernel < false ><<<1, THREADS, 0, stream >>> (a);
    km->have_centres = 1;
    return cudaGetLastError ();
  };
  auto run = [&]() {
    return cudaLaunchCooperativeKernel (kernels[spatial][yuv],
        dim3 (km->grid[spatial][yuv]), dim3 (THREADS), args, 0, stream);
  };
  cudaError_t err = cudaSuccess;

  if (!fresh || params->attempts <= 1) {
    if (fresh)
      err = init ();
    return err != cudaSuccess ? err : run ();
  }
  /* Attempts one after another on the stream, each from its own seed; the
   * best one's centres stay on the device, and its output is written from
   * them (the nearest-centre pass it ended with). */
  a.phase = PHASE_ATTEMPT;
  a.measure = 1;
  for (int i = 0; i < params->attempts && err == cudaSuccess; i++) {
    a.attempt = i;
    a.p.seed = CIP_KMEANS_ATTEMPT_SEED (params->seed, i);
    err = init ();
    if (err == cudaSuccess)
      err = run ();
  }
  a.phase = PHASE_BEST;
  a.p.max_iterations = 0;
  return err != cudaSuccess ? err : run ();
}
