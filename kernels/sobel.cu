/* cudaimgproc: Sobel gradient magnitude kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The general kernel (every ksize, border, norm and scale): a block owns a
 * 128 x 8 PY output tile, 32 x 8 threads, each thread 4 columns by PY rows.
 * The tile and its halo sit in shared memory; a thread slides down its 4
 * columns, each input row's horizontal smoothing and derivative going into
 * a ring of K rows in registers, and each output row taken from the ring
 * as soon as its K rows are in.  Every value up to the gradients is an
 * integer below 2^24 (7x7: at most 326400), so single precision holds it
 * exactly in any order: the sums are FMAs at the full rate, across a row
 * as [1 2 1] applied K/2 times (smooth3), down the columns on symmetric
 * pairs (taps).  The magnitude is single precision, each operation
 * rounded on its own like the CPU reference; at scale 1.0, the exact fast
 * root of magnitude_unit.
 *
 * 3x3 and 5x5 at scale 1.0 (the default scale) with 8-byte aligned rows
 * have kernels of their own, below: registers only, no shared memory.
 */
#include "sobel.h"
#include "cip_pointwise.cuh"
#include "cip_stencil.cuh"
#include "cip_strip.cuh"

#include <cuda_fp16.h>

namespace {

constexpr int TW = 128, PX = 4;

/* cv::getDerivKernels (1, 0, K, normalize = false): derivative and
 * smoothing taps, as compile-time constants. */
template <int K>
__device__ __forceinline__ constexpr int
deriv (int j)
{
  return K == 3 ? (j - 1) :
      K == 5 ? (j == 0 ? -1 : j == 1 ? -2 : j == 2 ? 0 : j == 3 ? 2 : 1) :
      (j == 0 ? -1 : j == 1 ? -4 : j == 2 ? -5 : j == 3 ? 0 : j == 4 ? 5 :
      j == 5 ? 4 : 1);
}

template <int K>
__device__ __forceinline__ constexpr int
smooth (int j)
{
  return K == 3 ? (j == 1 ? 2 : 1) :
      K == 5 ? (j == 2 ? 6 : (j == 1 || j == 3) ? 4 : 1) :
      (j == 3 ? 20 : (j == 2 || j == 4) ? 15 : (j == 1 || j == 5) ? 6 : 1);
}

/* The K taps applied to a[0 .. K - 1]: smoothing (symmetric) and
 * derivative (antisymmetric), a tap and its mirror on one sum or
 * difference.  Exact for integers below 2^24. */
template <int K>
__device__ __forceinline__ void
taps (const float (&a)[K], float &s, float &d)
{
  constexpr int R = K / 2;
  s = smooth<K> (R) * a[R];
  d = 0.0f;
#pragma unroll
  for (int j = 0; j < R; j++) {
    s = fmaf ((float) smooth<K> (j), a[K - 1 - j] + a[j], s);
    d = fmaf ((float) deriv<K> (K - 1 - j), a[K - 1 - j] - a[j], d);
  }
}

/* [1 2 1] over @in: OpenCV's smoothing taps of size K are it applied
 * K / 2 times, and its derivative taps [-1 0 1] after K / 2 - 1 of them
 * (binomial), so a row's passes share their first sums */
template <int N>
__device__ __forceinline__ void
smooth3 (const float (&in)[N], float (&out)[N - 2])
{
#pragma unroll
  for (int j = 0; j < N - 2; j++)
    out[j] = fmaf (2.0f, in[j + 1], in[j] + in[j + 2]);
}

/* byte @k of @w as a float, exactly: 2^23 + byte by its bits, minus 2^23
 * (two full-rate instructions instead of a quarter-rate conversion) */
__device__ __forceinline__ float
byte_float (uint32_t w, int k)
{
  return __int_as_float (__byte_perm (w, 0x4b000000u, 0x7440 + k)) -
      8388608.0f;
}

__device__ __forceinline__ uint8_t
apply_threshold (int v, const CipSobelParams & p)
{
  if (p.threshold > 0)
    return v > p.threshold ? 255 : 0;
  return (uint8_t) v;
}

/* round (sqrt (S)) for 0 <= S <= 65281, without int/float conversions or
 * an IEEE square root (they issue at a quarter of the ALU rate and bounded
 * the kernel): S's float by the exponent trick, the approximate root
 * (relative error below 2^-22, so below 6.1e-5 at 255.5), rounded by the
 * 1.5 * 2^23 trick.  Exact: sqrt (S) is never within 4.9e-4 of n + 1/2
 * (4S is never an odd square), far more than the approximation's error;
 * cip_sobel_self_check () proves it on the device for every S. */
__device__ __forceinline__ float
round_sqrt_bits (float S)
{
  float r;
  asm ("sqrt.approx.ftz.f32 %0, %1;" : "=f" (r) : "f" (S));
  return r + 12582912.0f;       /* the rounded root in the low bits */
}

/* round (sqrt (S)), held to 255, in the low byte of the result's bits:
 * from 255^2 on the result is 255.  @S: an exact integer, at least 0 */
__device__ __forceinline__ float
saturated_root_bits (float S)
{
  return round_sqrt_bits (fminf (S, 65025.0f));
}

__device__ __forceinline__ int
round_sqrt (int S)
{
  const float f = __int_as_float (0x4b000000 | S) - 8388608.0f;
  return __float_as_int (round_sqrt_bits (f)) & 0x3fffff;
}

/* scale 1.0: the same values as magnitude () below, the byte in the low 8
 * bits.  L1: |gx| + |gy|, an integer.  L2: round (sqrt (S)) of S = gx^2 +
 * gy^2, where each of |gx| and |gy| is first held to 256 (the output
 * saturates either way), so S is an exact integer for every ksize.  No
 * ties: rounding the correctly rounded sqrtf, as the reference does, gives
 * the same n. */
template <bool L1>
__device__ __forceinline__ uint32_t
magnitude_unit (float gx, float gy, const CipSobelParams & p)
{
  uint32_t v;
  if (L1) {
    v = __float_as_uint (fminf (fabsf (gx) + fabsf (gy), 255.0f) +
        12582912.0f);
  } else {
    const float ax = fminf (fabsf (gx), 256.0f);
    const float ay = fminf (fabsf (gy), 256.0f);
    v = __float_as_uint (saturated_root_bits (ax * ax + ay * ay));
  }
  if (p.threshold > 0)
    return apply_threshold ((int) (v & 0xff), p);
  return v;
}

/* @gx, @gy: integers, exact */
__device__ __forceinline__ uint8_t
magnitude (float gx, float gy, const CipSobelParams & p)
{
  float m;
  if (p.l1)
    m = fabsf (gx) + fabsf (gy);
  else
    m = __fsqrt_rn (__fadd_rn (__fmul_rn (gx, gx), __fmul_rn (gy, gy)));
  int v = __float2int_rn (__fmul_rn (m, p.scale));
  v = min (255, max (0, v));
  return apply_threshold (v, p);
}

/* 5 blocks an SM where 48 registers hold it without spilling (5x5 at
 * scale 1: at 56 registers, 4 blocks left the schedulers short of warps,
 * 50 % occupancy by ncu), else 3 (80 registers).  Turing's SMs hold 1024
 * threads, 4 such blocks: asked for 5, ptxas drops the bound, warning. */
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr int SOBEL_BLOCKS_48 = 4;
#else
constexpr int SOBEL_BLOCKS_48 = 5;
#endif
template <int K, int PY, bool UNIT, bool L1>
__global__ void
__launch_bounds__ (256, K == 7 || !UNIT ? 3 : SOBEL_BLOCKS_48)
sobel_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    CipSobelParams p, bool aligned_src, bool aligned_dst)
{
  constexpr int R = K / 2, TH = 8 * PY;
  __shared__ cip::Tile<TW, TH, R> tile;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;

  tile.load (src, src_pitch, width, height, x0, y0, p.border, aligned_src);
  __syncthreads ();

  const int cx = threadIdx.x * PX;      /* tile-local first column */
  const int cy = threadIdx.y * PY;      /* tile-local first row */
  /* the horizontal passes of the last K input rows, a ring; unrolled, so
   * no copies */
  float hs[K][PX], hd[K][PX];
#pragma unroll
  for (int r = 0; r < PY + 2 * R; r++) {
    /* columns cx - R .. cx + 3 + R: bytes 4 - R .. of three words */
    const uint32_t w[3] = { tile.word (cy + r, cx), tile.word (cy + r,
          cx + 4), tile.word (cy + r, cx + 8) };
    float v[PX + 2 * R];
#pragma unroll
    for (int j = 0; j < PX + 2 * R; j++)
      v[j] = byte_float (w[(4 - R + j) / 4], (4 - R + j) % 4);
    float t[PX + 2];            /* v smoothed R - 1 times */
    if constexpr (R == 1) {
#pragma unroll
      for (int j = 0; j < PX + 2; j++)
        t[j] = v[j];
    } else if constexpr (R == 2) {
      smooth3 (v, t);
    } else {
      float t1[PX + 4];
      smooth3 (v, t1);
      smooth3 (t1, t);
    }
#pragma unroll
    for (int c = 0; c < PX; c++) {
      hs[r % K][c] = fmaf (2.0f, t[c + 1], t[c] + t[c + 2]);
      hd[r % K][c] = t[c + 2] - t[c];
    }
    if (r < 2 * R)
      continue;
    /* output row o: input rows o .. o + 2R, all in the ring */
    const int o = r - 2 * R;
    const int y = y0 + cy + o;
    uint32_t out[PX];           /* each a byte, in its low 8 bits */
#pragma unroll
    for (int c = 0; c < PX; c++) {
      float cs[K], cd[K], gx, gy, unused;
#pragma unroll
      for (int i = 0; i < K; i++) {
        cs[i] = hs[(o + i) % K][c];
        cd[i] = hd[(o + i) % K][c];
      }
      taps<K> (cd, gx, unused);
      taps<K> (cs, unused, gy);
      out[c] = UNIT ? magnitude_unit<L1> (gx, gy, p) : magnitude (gx, gy, p);
    }
    if (y >= height)
      continue;
    const int x = x0 + cx;
    uint8_t *d = dst + (size_t) y * dst_pitch + x;
    if (aligned_dst && x + PX <= width) {
      *reinterpret_cast<uint32_t *>(d) = __byte_perm (__byte_perm (out[0],
              out[1], 0x0040), __byte_perm (out[2], out[3], 0x0040),
          0x5410);
    } else {
#pragma unroll
      for (int c = 0; c < PX; c++)
        if (x + c < width)
          d[c] = (uint8_t) out[c];
    }
  }
}

/* ---- 3x3 at scale 1.0: registers only -------------------------------- */

/* A thread: 8 columns of a strip of ROWS rows, sliding down it with
 * three input rows in registers, two columns a register as half2 (every
 * value up to the gradients is an integer of at most 1020 in magnitude,
 * exact in half precision whatever the order: two columns an instruction),
 * then the magnitude in single precision.  It loads its two edge columns
 * too.  No shared memory, no shuffles and no barrier: against the tiled
 * kernel above, about a third of the instructions a pixel (21 against 60
 * by ncu at 4K, single precision against the tiled kernel's integers of
 * the time).
 * A block: 32 x 4 threads, 256 columns by 4 strips. */
constexpr int S3_COLS = cip::STRIP_COLS, S3_AHEAD = 4, S3_PAIRS = S3_COLS / 2 + 1;

/* bytes @sel (the low nibbles of 0x4q4p: bytes p and q of @w) as the
 * halves 1024 + byte, exactly, then minus 1024 */
__device__ __forceinline__ __half2
bytes_half2 (uint32_t w, uint32_t sel)
{
  const uint32_t u = __byte_perm (w, 0x64646464u, sel);
  return __hsub2 (*reinterpret_cast<const __half2 *>(&u),
      __float2half2_rn (1024.0f));
}

/* One input row as loaded: this thread's 8 columns x .. x + 7 (two words)
 * and the R columns each side of them (R = 1 or 2, the stencil's radius),
 * each column outside the frame replaced by its border image.  Every lane
 * loads its own edge columns: against taking them from the neighbouring
 * lanes' words by shuffles (with lanes 0 and 31 loading theirs), two
 * instructions a row instead of about ten (ncu, H200, 3x3 at 4K in 4-row
 * strips: 21 instructions a pixel -> 19). */
struct S3Raw
{
  uint32_t w0, w1;
  uint32_t hl, hr;              /* columns x - R .. x - 1, x + 8 .. x + 7 + R */
};

/* INTERIOR: the warp's rows and columns, edges included, are all inside
 * the frame (most warps): no border images, no bounds. */
template <int R, bool INTERIOR>
__device__ __forceinline__ S3Raw
s3_fetch (const uint8_t * __restrict__ src, int pitch, int width,
    int height, int border, int x, int yy)
{
  S3Raw w = { 0, 0, 0, 0 };
  if (INTERIOR) {
    const uint8_t *r = src + (size_t) yy * pitch + x;
    const uint2 v = __ldg (reinterpret_cast<const uint2 *>(r));
    w.w0 = v.x;
    w.w1 = v.y;
    if (R == 1) {
      w.hl = __ldg (r - 1);
      w.hr = __ldg (r + S3_COLS);
    } else {                    /* x is even: aligned */
      w.hl = __ldg (reinterpret_cast<const uint16_t *>(r - 2));
      w.hr = __ldg (reinterpret_cast<const uint16_t *>(r + S3_COLS));
    }
    return w;
  }
  if (x >= width)               /* no output: nothing to load */
    return w;
  const uint8_t *r = src + (size_t) cip::border_index (yy, height, border) *
      pitch;
  if (x + S3_COLS <= width) {
    const uint2 v = __ldg (reinterpret_cast<const uint2 *>(r + x));
    w.w0 = v.x;
    w.w1 = v.y;
    if (R == 2) {
      /* 5x5, the body in the frame: as in the interior, but a side beyond
       * the frame's edge (x is 0, or the body ends the frame) is left to
       * s3_edges (), and bytes one at a time only where the right side
       * lies partly in the frame (H100: 1080p 5.8 -> 5.4 us, 640x480
       * 3.2 -> 3.1, 4K and 8K within noise; for 3x3 the same was slower
       * below 8K, 1080p 3.5 -> 4.0, for reasons not known: it keeps its
       * two bytes through border_index ()) */
      if (x >= R)
        w.hl = __ldg (reinterpret_cast<const uint16_t *>(r + x - 2));
      if (x + S3_COLS + R <= width)
        w.hr = __ldg (reinterpret_cast<const uint16_t *>(r + x + S3_COLS));
      else if (x + S3_COLS != width)
#pragma unroll
        for (int k = 0; k < R; k++)
          w.hr |= (uint32_t) __ldg (r + cip::border_index (x + S3_COLS + k,
                  width, border)) << (8 * k);
      return w;
    }
  } else {                      /* the frame's right edge */
#pragma unroll
    for (int k = 0; k < 4; k++) {
      w.w0 |= (uint32_t) __ldg (r + cip::border_index (x + k, width,
              border)) << (8 * k);
      w.w1 |= (uint32_t) __ldg (r + cip::border_index (x + 4 + k, width,
              border)) << (8 * k);
    }
  }
#pragma unroll
  for (int k = 0; k < R; k++) {
    w.hl |= (uint32_t) __ldg (r + cip::border_index (x - R + k, width,
            border)) << (8 * k);
    w.hr |= (uint32_t) __ldg (r + cip::border_index (x + S3_COLS + k, width,
            border)) << (8 * k);
  }
  return w;
}

/* s3_fetch ()'s 5x5 sides beyond the frame's edge next to a body in it
 * (cip::edge_sides ()) */
template <bool INTERIOR>
__device__ __forceinline__ void
s3_edges (int width, int border, int x, S3Raw & w)
{
  if (!INTERIOR)
    cip::edge_sides<2> (width, x, border, w.w0, w.w1, w.hl, w.hr);
}

/* The row's columns x - 1 .. x + 8 as five pairs (x - 1, x), (x + 1,
 * x + 2) ... (x + 7, x + 8). */
__device__ __forceinline__ void
s3_columns (const S3Raw & w, __half2 (&c)[S3_PAIRS])
{
  c[0] = bytes_half2 (__byte_perm (w.hl, w.w0, 0x0040), 0x4140);
  c[1] = bytes_half2 (w.w0, 0x4241);
  c[2] = bytes_half2 (__byte_perm (w.w0, w.w1, 0x0043), 0x4140);
  c[3] = bytes_half2 (w.w1, 0x4241);
  c[4] = bytes_half2 (__byte_perm (w.w1, w.hr, 0x0043), 0x4140);
}

/* The strip of rows y0 .. y0 + ROWS - 1 (fewer at the frame's foot). */
template <int ROWS, bool L1, bool THRESH, bool INTERIOR>
__device__ __forceinline__ void
s3_strip (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    int border, float threshold, int x, int y0)
{
  /* the rows the strip needs, S3_AHEAD in flight at once: one memory
   * latency for the strip rather than one a row, in 64 registers */
  constexpr int AHEAD = S3_AHEAD < ROWS + 2 ? S3_AHEAD : ROWS + 2;
  S3Raw raw[ROWS + 2];
#pragma unroll
  for (int i = 0; i < AHEAD; i++)
    raw[i] = s3_fetch<1, INTERIOR> (src, src_pitch, width, height, border,
        x, y0 - 1 + i);
  /* rows y - 1, y, y + 1 in a ring; unrolled, so no copies */
  __half2 row[3][S3_PAIRS];
  s3_columns (raw[0], row[0]);
  s3_columns (raw[1], row[1]);
#pragma unroll
  for (int i = 0; i < ROWS; i++) {
    const int y = y0 + i;
    if (!INTERIOR && y >= height)
      break;
    const __half2 (&a)[S3_PAIRS] = row[i % 3], (&b)[S3_PAIRS] =
        row[(i + 1) % 3];
    __half2 (&c)[S3_PAIRS] = row[(i + 2) % 3];
    if (i + AHEAD < ROWS + 2)
      raw[i + AHEAD] = s3_fetch<1, INTERIOR> (src, src_pitch, width,
          height, border, x, y0 - 1 + i + AHEAD);
    s3_columns (raw[i + 2], c);
    const __half2 two = __float2half2_rn (2.0f);
    __half2 vs[S3_PAIRS], vd[S3_PAIRS];
#pragma unroll
    for (int k = 0; k < S3_PAIRS; k++) {
      vs[k] = __hfma2 (two, b[k], __hadd2 (a[k], c[k]));  /* smoothing down */
      vd[k] = __hsub2 (c[k], a[k]);     /* derivative down */
    }
    uint32_t o[S3_COLS];        /* each column's byte, the low one */
#pragma unroll
    for (int k = 0; k < S3_COLS / 2; k++) {
      /* columns x + 2k, x + 2k + 1: pairs k and k + 1 hold columns
       * x + 2k - 1 .. x + 2k + 2 */
      const __half2 mid = __halves2half2 (__high2half (vd[k]),
          __low2half (vd[k + 1]));
      const __half2 gx = __hsub2 (vs[k + 1], vs[k]);
      const __half2 gy = __hfma2 (two, mid, __hadd2 (vd[k], vd[k + 1]));
      if (L1) {
        /* at most 2040: exact in halves too; the half 1024 + m (m below
         * 1024) is 0x6400 + m, m its low byte */
        const __half2 max = __float2half2_rn (255.0f);
        __half2 m = __hmin2 (__hadd2 (__habs2 (gx), __habs2 (gy)), max);
        if (THRESH)
          m = __hmul2 (__hgt2 (m, __float2half2_rn (threshold)), max);
        m = __hadd2 (m, __float2half2_rn (1024.0f));
        const uint32_t u = *reinterpret_cast<const uint32_t *>(&m);
        o[2 * k] = u;
        o[2 * k + 1] = u >> 16;
      } else {
#pragma unroll
        for (int h = 0; h < 2; h++) {
          const float fx = h ? __high2float (gx) : __low2float (gx),
              fy = h ? __high2float (gy) : __low2float (gy);
          float v = saturated_root_bits (fmaf (fx, fx, fy * fy));
          if (THRESH)           /* the rounded magnitude against it */
            v = v - 12582912.0f > threshold ? 12582912.0f + 255.0f :
                12582912.0f;
          o[2 * k + h] = __float_as_uint (v);
        }
      }
    }
    cip::strip_store<INTERIOR> (dst, dst_pitch, width, x, y,
        cip::strip_pack (o));
  }
}

/* 8 blocks of 32 x 4 an SM (at most 64 registers).  BORDER a template
 * argument: known at compile time, replicate's border images fold into
 * clamps where they were branches in the edge warps (prototype on an
 * H200, 640x480, where two thirds of the warps touch an edge: 2.4 -> 1.8
 * us; reflect-101 keeps the loop of border_index () and gains less). */
template <int ROWS, bool L1, bool THRESH, int BORDER>
__global__ void
__launch_bounds__ (128, 8)
sobel3_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    float threshold)
{
  int x, y0;
  bool interior;
  if (!cip::strip_at<ROWS, 1> (width, height, x, y0, interior))
    return;
  if (interior)
    s3_strip<ROWS, L1, THRESH, true> (src, src_pitch, dst, dst_pitch, width,
        height, BORDER, threshold, x, y0);
  else
    s3_strip<ROWS, L1, THRESH, false> (src, src_pitch, dst, dst_pitch, width,
        height, BORDER, threshold, x, y0);
}

/* ---- 5x5 at scale 1.0: registers only, 16-bit lanes ----------------- */

/* As the 3x3 kernel, with five input rows in a ring and the sums in two
 * 16-bit lanes of a word (integers, two columns an instruction: half
 * precision is exact only to 2048 and 5x5 gradients reach 12240).  Every
 * lane stays within 0 .. 65535 at every step, so no carry crosses into
 * the other lane: the derivatives carry a bias (765 down, 12240 across)
 * and subtract only what is smaller.  Then, per column, the gradients as
 * floats by their bits and magnitude_unit () as the tiled kernel does. */
constexpr int S5_PAIRS = S3_COLS / 2 + 2;       /* columns x - 2 .. x + 9 */
constexpr uint32_t S5_BIAS_DOWN = 765u * 0x10001u;
constexpr uint32_t S5_BIAS_ACROSS = 12240u * 0x10001u;

/* columns x - 2 .. x + 9 as six pairs (x - 2, x - 1), (x, x + 1) ...
 * (x + 8, x + 9), one column a 16-bit lane */
__device__ __forceinline__ void
s5_columns (const S3Raw & w, uint32_t (&c)[S5_PAIRS])
{
  c[0] = __byte_perm (w.hl, 0, 0x4140);
  c[1] = __byte_perm (w.w0, 0, 0x4140);
  c[2] = __byte_perm (w.w0, 0, 0x4342);
  c[3] = __byte_perm (w.w1, 0, 0x4140);
  c[4] = __byte_perm (w.w1, 0, 0x4342);
  c[5] = __byte_perm (w.hr, 0, 0x4140);
}

/* lane @h of @v (a gradient plus 12240) as the exact float gradient */
__device__ __forceinline__ float
s5_lane_float (uint32_t v, int h)
{
  return __int_as_float (__byte_perm (v, 0x4b000000u, h ? 0x7432 : 0x7410))
      - (8388608.0f + 12240.0f);
}

template <int ROWS, bool L1, bool INTERIOR>
__device__ __forceinline__ void
s5_strip (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    const CipSobelParams & p, int x, int y0)
{
  constexpr int N = ROWS + 4, AHEAD = N < 6 ? N : 6;
  S3Raw raw[N];
#pragma unroll
  for (int i = 0; i < AHEAD; i++)
    raw[i] = s3_fetch<2, INTERIOR> (src, src_pitch, width, height,
        p.border, x, y0 - 2 + i);
  /* rows y - 2 .. y + 2 in a ring; unrolled, so no copies */
  uint32_t row[5][S5_PAIRS];
#pragma unroll
  for (int i = 0; i < 4; i++) {
    s3_edges<INTERIOR> (width, p.border, x, raw[i]);
    s5_columns (raw[i], row[i]);
  }
#pragma unroll
  for (int i = 0; i < ROWS; i++) {
    const int y = y0 + i;
    if (!INTERIOR && y >= height)
      break;
    if (i + AHEAD < N)
      raw[i + AHEAD] = s3_fetch<2, INTERIOR> (src, src_pitch, width,
          height, p.border, x, y0 - 2 + i + AHEAD);
    s3_edges<INTERIOR> (width, p.border, x, raw[i + 4]);
    s5_columns (raw[i + 4], row[(i + 4) % 5]);
    const uint32_t (&r0)[S5_PAIRS] = row[i % 5], (&r1)[S5_PAIRS] =
        row[(i + 1) % 5], (&r2)[S5_PAIRS] = row[(i + 2) % 5],
        (&r3)[S5_PAIRS] = row[(i + 3) % 5], (&r4)[S5_PAIRS] =
        row[(i + 4) % 5];
    /* down: smoothing [1 4 6 4 1] (at most 4080), derivative [-1 -2 0 2 1]
     * plus 765 (0 .. 1530) */
    uint32_t vs[S5_PAIRS], vd[S5_PAIRS];
#pragma unroll
    for (int k = 0; k < S5_PAIRS; k++) {
      vs[k] = (r0[k] + r4[k]) + 4 * (r1[k] + r3[k]) + 6 * r2[k];
      vd[k] = (r4[k] + 2 * r3[k] + S5_BIAS_DOWN) - (r0[k] + 2 * r1[k]);
    }
    /* across: the pairs shifted by one column, (x - 1 + 2k, x + 2k) */
    uint32_t ss[S5_PAIRS - 1], sd[S5_PAIRS - 1];
#pragma unroll
    for (int k = 0; k < S5_PAIRS - 1; k++) {
      ss[k] = __byte_perm (vs[k], vs[k + 1], 0x5432);
      sd[k] = __byte_perm (vd[k], vd[k + 1], 0x5432);
    }
    uint32_t o[S3_COLS];
#pragma unroll
    for (int j = 0; j < S3_COLS / 2; j++) {
      /* columns c = x + 2j, c + 1: pairs j, j + 2 hold c - 2 and c + 2,
       * shifted pairs j, j + 1 hold c - 1 and c + 1; both results plus
       * 12240 (0 .. 24480) */
      const uint32_t gx = (vs[j + 2] + 2 * ss[j + 1] + S5_BIAS_ACROSS) -
          (vs[j] + 2 * ss[j]);
      const uint32_t gy = (vd[j] + vd[j + 2]) + 4 * (sd[j] + sd[j + 1]) +
          6 * vd[j + 1];
#pragma unroll
      for (int h = 0; h < 2; h++)
        o[2 * j + h] = magnitude_unit<L1> (s5_lane_float (gx, h),
            s5_lane_float (gy, h), p);
    }
    cip::strip_store<INTERIOR> (dst, dst_pitch, width, x, y,
        cip::strip_pack (o));
  }
}

/* 3 blocks of 32 x 8 an SM: the ring of five rows takes more than 64
 * registers (blocks of 32 x 4 gained nothing here: 4K 15.4 us either
 * way).  BORDER as in sobel3_kernel. */
template <int ROWS, bool L1, int BORDER>
__global__ void
__launch_bounds__ (256, 3)
sobel5_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    CipSobelParams p)
{
  int x, y0;
  bool interior;
  if (!cip::strip_at<ROWS, 2> (width, height, x, y0, interior))
    return;
  p.border = BORDER;
  if (interior)
    s5_strip<ROWS, L1, true> (src, src_pitch, dst, dst_pitch, width, height,
        p, x, y0);
  else
    s5_strip<ROWS, L1, false> (src, src_pitch, dst, dst_pitch, width,
        height, p, x, y0);
}

}  /* namespace */

extern "C" cudaError_t
cip_sobel (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, const CipSobelParams * params, cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaErrorInvalidValue;
  const uint8_t *s = static_cast<const uint8_t *>(src);
  uint8_t *d = static_cast<uint8_t *>(dst);
  const bool as = cip::is_aligned (src, src_pitch, 4);
  const bool ad = cip::is_aligned (dst, dst_pitch, 4);
  (void) cudaGetLastError ();
  /* the integer magnitude, at scale 1.0 */
  const bool unit = params->scale == 1.0f;
  if (unit && (params->ksize == 3 || params->ksize == 5) &&
      cip::is_aligned (src, src_pitch, 8) &&
      cip::is_aligned (dst, dst_pitch, 8)) {
    /* The register kernels.  Strips as tall as still make enough blocks
     * (3x3: 3 blocks of 32 x 4 an SM's worth; 5x5: about five waves of 3
     * blocks of 32 x 8 an SM): a taller strip costs fewer halo rows, a
     * shorter one spreads a small frame over more SMs (on an H200, 3x3:
     * 4 rows from 1080p up, 2 below; 5x5: 4 rows at 8K, 2 at 4K and
     * below).  At most 4: 8 rows of the unrolled bodies overflow the
     * instruction cache (ncu, 3x3 at 4K: 3.3 stall cycles an issued
     * instruction on instruction fetch at 8 rows, 0.8 at 4).  3x3 blocks
     * of 32 x 4, with the same warps an SM as 4 of 32 x 8, retire and are
     * replaced at a finer grain; with the border a template argument, on
     * an H200, 3x3 l2 replicate: 4K 9.68 -> 8.95 us, 8K 26.70 -> 25.88,
     * 1080p 4.37 -> 3.47, 640x480 2.58 -> 2.06; 5x5 (the border alone):
     * 4K 15.38 -> 13.87. */
    const bool k3 = params->ksize == 3;
    const dim3 block (32, k3 ? 4 : 8);
    const int cols = (width + 32 * S3_COLS - 1) / (32 * S3_COLS);
    const int rows = cip::rows_for (cols, height, block.y,
        (k3 ? 3LL : 16LL) * cip::sm_count (), 4);
    const dim3 grid (cols, (height + block.y * rows - 1) / (block.y * rows));
    const bool reflect = params->border == cip::BORDER_REFLECT_101;
    if (k3) {
      const float thr = (float) params->threshold;
#define CIP_SOBEL3(R, L, T, B) \
      sobel3_kernel<R, L, T, B><<<grid, block, 0, stream>>> (s, src_pitch, \
          d, dst_pitch, width, height, thr)
#define CIP_SOBEL3_B(R, L, T) \
      (reflect ? CIP_SOBEL3 (R, L, T, cip::BORDER_REFLECT_101) : \
          CIP_SOBEL3 (R, L, T, cip::BORDER_REPLICATE))
#define CIP_SOBEL3_R(L, T) \
      (rows == 4 ? CIP_SOBEL3_B (4, L, T) : CIP_SOBEL3_B (2, L, T))
      if (params->l1)
        params->threshold > 0 ? CIP_SOBEL3_R (true, true) :
            CIP_SOBEL3_R (true, false);
      else
        params->threshold > 0 ? CIP_SOBEL3_R (false, true) :
            CIP_SOBEL3_R (false, false);
#undef CIP_SOBEL3_R
#undef CIP_SOBEL3_B
#undef CIP_SOBEL3
    } else {
#define CIP_SOBEL5(R, L, B) \
      sobel5_kernel<R, L, B><<<grid, block, 0, stream>>> (s, src_pitch, d, \
          dst_pitch, width, height, *params)
#define CIP_SOBEL5_B(R, L) \
      (reflect ? CIP_SOBEL5 (R, L, cip::BORDER_REFLECT_101) : \
          CIP_SOBEL5 (R, L, cip::BORDER_REPLICATE))
      if (params->l1)
        rows == 4 ? CIP_SOBEL5_B (4, true) : CIP_SOBEL5_B (2, true);
      else
        rows == 4 ? CIP_SOBEL5_B (4, false) : CIP_SOBEL5_B (2, false);
#undef CIP_SOBEL5_B
#undef CIP_SOBEL5
    }
    return cudaGetLastError ();
  }
  /* Tiles as tall as still give two blocks an SM. */
  const int cols = (width + TW - 1) / TW;
  const int py = cip::rows_for (cols, height, 8, 2LL * cip::sm_count (), 8);
  const dim3 block (TW / PX, 8);
  const dim3 grid (cols, (height + 8 * py - 1) / (8 * py));
#define CIP_SOBEL_LAUNCH(K, PY, U, L) \
    sobel_kernel<K, PY, U, L><<<grid, block, 0, stream>>> (s, src_pitch, d, \
        dst_pitch, width, height, *params, as, ad)
#define CIP_SOBEL_PY(K, U, L) \
    (py == 8 ? CIP_SOBEL_LAUNCH (K, 8, U, L) : py == 4 ? \
        CIP_SOBEL_LAUNCH (K, 4, U, L) : CIP_SOBEL_LAUNCH (K, 2, U, L))
#define CIP_SOBEL_K(K) \
    if (!unit) CIP_SOBEL_PY (K, false, false); \
    else if (params->l1) CIP_SOBEL_PY (K, true, true); \
    else CIP_SOBEL_PY (K, true, false)
  switch (params->ksize) {
    case 3:
      CIP_SOBEL_K (3);
      break;
    case 5:
      CIP_SOBEL_K (5);
      break;
    case 7:
      CIP_SOBEL_K (7);
      break;
    default:
      return cudaErrorInvalidValue;
  }
#undef CIP_SOBEL_K
#undef CIP_SOBEL_PY
#undef CIP_SOBEL_LAUNCH
  return cudaGetLastError ();
}

/* For the tests: round_sqrt () against exact integer rounding, for every S
 * it is used on; *mismatches gets the count (0 expected). */
__global__ void
sqrt_check_kernel (unsigned *mismatches)
{
  const int S = blockIdx.x * blockDim.x + threadIdx.x;
  if (S > 65281)
    return;
  int n = 0;
  while ((2 * n + 1) * (2 * n + 1) <= 4 * S)   /* (n + 1/2)^2 <= S */
    n++;
  if (round_sqrt (S) != n)
    atomicAdd (mismatches, 1u);
}

extern "C" cudaError_t
cip_sobel_self_check (unsigned *d_mismatches, cudaStream_t stream)
{
  (void) cudaGetLastError ();
  sqrt_check_kernel<<<(65282 + 255) / 256, 256, 0, stream>>> (d_mismatches);
  return cudaGetLastError ();
}
