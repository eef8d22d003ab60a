/* cudaimgproc: Otsu threshold kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "otsu.h"
#include "cip_block.cuh"
#include "cip_histogram.cuh"
#include "cip_pointwise.cuh"

#include <cfloat>

static_assert (CIP_OTSU_HIST_WORDS == cip::HIST_COPIES * 256 &&
    CIP_OTSU_STATE_WORDS == CIP_OTSU_HIST_WORDS + cip::HIST_SYNC_WORDS,
    "otsu.h's state layout is the histogram kernel's");

namespace {

/* OpenCV's getThreshVal_Otsu_8u runs one recurrence over the 256 bins in
 * double precision and keeps the first maximum of the between-class
 * variance.  Where candidates are near-equal (a gap of empty bins gives
 * exactly equal variances, told apart only by rounding) its choice depends
 * on every rounding of that recurrence.  So:
 *
 * 1. In parallel, from exact integer prefix sums, each candidate's variance
 *    as OpenCV's recurrence would compute it without rounding (including its
 *    quirks: bins are skipped while q1 or q2 < FLT_EPSILON, and the mean of
 *    the skipped prefix is dropped from mu1), with a bound on how far
 *    OpenCV's rounded value can be from it.  If the best candidate beats
 *    every other by more than both bounds, and no skip decision is within
 *    rounding of FLT_EPSILON, OpenCV picks it too: done, in about a
 *    microsecond.
 * 2. Otherwise, the same operations as OpenCV in the same order: the
 *    recurrence in one thread, each operation rounded on its own (the _rn
 *    intrinsics forbid FMA contraction), then each candidate's variance and
 *    the first maximum in parallel.  Exact, and slow (about 18 us on an
 *    H200): it runs on frames with ties, like binary or synthetic ones.
 */
__device__ int
otsu_exact (const uint32_t h, uint64_t total)
{
  __shared__ double s_p[256], s_q1[256], s_mu1[256];
  __shared__ double s_mu;
  const int i = threadIdx.x;
  const double scale = __drcp_rn ((double) total);     /* 1. / total */

  s_p[i] = __dmul_rn ((double) h, scale);
  /* mu = sum (i * h[i]) * scale: the sum is an integer below 2^53, exact
   * in any order, as OpenCV's sequential double sum is. */
  const unsigned long long sum =
      cip::block_inclusive_scan<256, unsigned long long> (
      (unsigned long long) i * h);
  if (i == 255)
    s_mu = __dmul_rn ((double) sum, scale);
  cip::block_barrier<256> ();
  if (i == 0) {
    const double eps = (double) FLT_EPSILON, one_eps = 1.0 - eps;
    double mu1 = 0, q1 = 0;
    for (int k = 0; k < 256; k++) {
      const double pk = s_p[k];
      mu1 = __dmul_rn (mu1, q1);
      q1 = __dadd_rn (q1, pk);
      const double q2 = __dadd_rn (1.0, -q1);
      const bool skip = fmin (q1, q2) < eps || fmax (q1, q2) > one_eps;
      if (!skip)
        mu1 = __ddiv_rn (__dadd_rn (mu1, __dmul_rn ((double) k, pk)), q1);
      s_q1[k] = skip ? -1.0 : q1;     /* -1: not a candidate */
      s_mu1[k] = mu1;
    }
  }
  cip::block_barrier<256> ();

  double sigma = -1.0;
  const double q1 = s_q1[i];
  if (q1 >= 0) {
    const double mu1 = s_mu1[i];
    const double q2 = __dadd_rn (1.0, -q1);
    const double mu2 = __ddiv_rn (__dadd_rn (s_mu, -__dmul_rn (q1, mu1)), q2);
    const double d = __dadd_rn (mu1, -mu2);
    sigma = __dmul_rn (__dmul_rn (__dmul_rn (q1, q2), d), d);
  }
  int best = i;
  cip::block_argmax<256> (sigma, best);
  /* OpenCV keeps 0 unless some sigma > 0 */
  return sigma > 0.0 ? best : 0;
}

/* For the certificate, merged across the block as integers (merging
 * doubles with their bins took 0.6 us of the 1.7 at 4K): the best
 * candidate's key, and the two largest keys of sigma + err.
 *
 * A non-negative double's bits order as it does, so a key is its bits with
 * the bin in the low 8: for the best, sigma rounded down there and 255 -
 * bin (the lowest bin wins among equal keys); for sigma + err, rounded up
 * there and the bin, so that the key read as a double bounds it from
 * above.  The best by key may differ from the best by sigma only when the
 * two are within 2^-44 of each other; then the best's sigma + err, above
 * the other's sigma - err (the bounds exceed 1e-12), fails the
 * certificate, which is safe.  0: no candidate. */
struct Keys
{
  unsigned long long best, top1, top2;

  /* the warp's keys, merged, in every lane: maxima by reduction
   * instructions, two a key (five steps of three 64-bit shuffles took
   * 0.2 us at 4K); the second largest once the largest is known (keys
   * are unique but 0) */
  __device__ __forceinline__ void warp_merge ()
  {
    const unsigned long long b = cip::warp_max (best),
        t1 = cip::warp_max (top1);
    top2 = cip::warp_max (top1 == t1 ? top2 : top1);
    best = b;
    top1 = t1;
  }
};

/* a key's double: its bits without the bin */
__device__ __forceinline__ double
key_value (unsigned long long k)
{
  return __longlong_as_double ((long long) (k & ~0xffull));
}

/* Step 1 above; returns -1 when it cannot certify OpenCV's choice.  It
 * runs in one block while every other block of the frame's launch waits
 * for it, so it is written for latency: three barriers. */
__device__ int
otsu_certified (const uint32_t h, uint64_t N)
{
  __shared__ unsigned long long s_excl[256];    /* sum of k h[k], k < i */
  __shared__ int s_k0;
  __shared__ double s_sigma[256], s_err[256];
  __shared__ Keys s_warp[8];
  const int i = threadIdx.x;
  if (N >= (1ull << 39))        /* n1 << 23 below would overflow */
    return -1;
  if (i == 0)
    s_k0 = 256;
  unsigned long long n1 = h, s1 = (unsigned long long) i * h, S;
  cip::block_inclusive_scan2<256> (n1, s1, S);  /* barrier 1 */
  const unsigned long long n2 = N - n1;
  s_excl[i] = s1 - (unsigned long long) i * h;

  /* OpenCV skips a bin when q1 or q2 < FLT_EPSILON = 2^-23 (or > 1 - that,
   * the same thing).  q1 carries a relative error below 1e-13 and q2 an
   * absolute one below that: a decision is uncertain only within
   * N * 2^-21 of the boundary, far wider than those errors. */
  const unsigned long long band = (N >> 21) + 1;
  const long long a = (long long) (n1 << 23) - (long long) N;
  const long long b = (long long) (n2 << 23) - (long long) N;
  const bool skip = a < 0 || b < 0;
  const bool unsure = (unsigned long long) llabs (a) <= band ||
      (unsigned long long) llabs (b) <= band;
  if (!skip)
    atomicMin (&s_k0, i);
  if (cip::block_barrier_or<256> (unsure))     /* barrier 2 */
    return -1;
  const int k0 = s_k0;
  if (k0 == 256)
    return 0;                   /* no candidate at all: OpenCV gives 0 */

  double sigma = -1.0, err = 0.0;
  Keys c = { 0, 0, 0 };
  if (!skip) {
    /* mu1 without the skipped prefix's sum, as OpenCV's recurrence has it:
     * sigma = q1 q2 (mu1 - mu2)^2 with q = n / N, mu1 = s1p / n1 and mu2 =
     * s2 / n2, that is D^2 / (N^2 n1 n2) with the integer D = s1p n2 -
     * s2 n1 (below 2^86): exact in 128 bits, then a few roundings (relative
     * 1e-15) and one division, where OpenCV's own error is 1e-13 or more. */
    const unsigned long long s1p = s1 - s_excl[k0], s2 = S - s1p;
    const unsigned long long plo = s1p * n2, qlo = s2 * n1;
    const unsigned long long phi = __umul64hi (s1p, n2),
        qhi = __umul64hi (s2, n1);
    const bool neg = phi < qhi || (phi == qhi && plo < qlo);
    const unsigned long long dlo = neg ? qlo - plo : plo - qlo;
    const unsigned long long dhi = neg ? qhi - phi - (qlo < plo) :
        phi - qhi - (plo < qlo);
    const double D = fma ((double) dhi, 18446744073709551616.0, (double) dlo);
    const double dn1 = (double) n1, dn2 = (double) n2, dN = (double) N;
    const double n12 = dn1 * dn2;
    sigma = (D * D) / (dN * dN * n12);
    /* OpenCV's rounded sigma vs the exact one: q1, q2 and the running sums
     * are off by relative 3e-13 at most; mu2 = (mu - q1 mu1) / q2 by
     * 3e-10 / q2 absolute; sigma by 2e-13 / q2 + 2 * 3e-10 / (q2 d)
     * relative, with d = |mu1 - mu2| = D / (n1 n2) and 1 / q2 = N / n2.
     * Ten times that, to be safe. */
    const double rel = 10.0 * dN * (2e-13 * D + 6.6e-10 * n12) / (dn2 * D);
    err = (D > 0 && rel < 0.01) ? sigma * rel : INFINITY;
    const unsigned long long sb = __double_as_longlong (sigma),
        ub = __double_as_longlong (sigma + err);
    c.best = (sb & ~0xffull) | (255 - i);
    /* an infinite bound becomes a NaN, above every other key */
    c.top1 = ((ub + 0xff) & ~0xffull) | i;
  }
  s_sigma[i] = sigma;
  s_err[i] = err;
  c.warp_merge ();
  if ((i & 31) == 0)
    s_warp[i >> 5] = c;
  cip::block_barrier<256> ();  /* barrier 3 */
  /* the 8 warps' results, merged in every warp */
  if ((i & 31) < 8)
    c = s_warp[i & 31];
  else
    c = Keys { 0, 0, 0 };
  c.warp_merge ();
  const int best = 255 - (int) (c.best & 0xff);
  const double sb = s_sigma[best];
  if (!c.best || sb <= 0.0)
    return -1;
  /* at least the largest sigma + err of the candidates but the best */
  const double others = (int) (c.top1 & 0xff) != best ? key_value (c.top1) :
      key_value (c.top2);
  const double lo = sb - s_err[best];
  return (lo > 0.0 && others < lo) ? best : -1;
}

/* The threshold of a histogram, by the block's first 256 threads, thread i
 * holding bin i's count @h (block_barrier: a larger block's other threads
 * are not in it): writes @res; returns the threshold in thread 0. */
__device__ uint32_t
otsu_threshold_body (uint32_t h, uint64_t total, const CipOtsuParams & p,
    CipOtsuResult * __restrict__ res, float *ema)
{
  const int i = threadIdx.x;
  res->hist[i] = h;

  int otsu = p.fixed_threshold, exact = 0;
  if (!p.fixed) {
    otsu = p.exact_only ? -1 : otsu_certified (h, total);
    if (otsu < 0) {
      otsu = otsu_exact (h, total);
      exact = 1;
    }
  }

  int t = otsu;
  if (i == 0) {
    if (p.smoothing > 0.0f && !p.fixed) {
      float e = *ema;
      e = (p.reset || e < 0.0f) ? (float) otsu :
          __fadd_rn (__fmul_rn (p.smoothing, e),
          __fmul_rn (__fadd_rn (1.0f, -p.smoothing), (float) otsu));
      *ema = e;
      t = __float2int_rn (e);
    }
    t = min (255, max (0, t + p.offset));
    res->threshold = (uint32_t) t;
    res->otsu = (uint32_t) otsu;
    res->exact_path = (uint32_t) exact;
  }
  return (uint32_t) t;
}

__global__ void
__launch_bounds__ (256)
otsu_threshold_kernel (uint32_t * __restrict__ hist, uint64_t total,
    CipOtsuParams p, CipOtsuResult * __restrict__ res, float *ema)
{
  const uint32_t h = hist[threadIdx.x];
  hist[threadIdx.x] = 0;        /* ready for the next frame */
  otsu_threshold_body (h, total, p, res, ema);
}

/* Runs in the first 256 threads of the histogram kernel's last block. */
struct ThresholdEpilogue
{
  uint64_t total;
  CipOtsuParams p;
  CipOtsuResult *res;
  float *ema;

  __device__ uint32_t operator() (uint32_t * hist) const
  {
    return otsu_threshold_body (cip::hist_take (hist, threadIdx.x), total, p,
        res, ema);
  }
};

/* 0xff in each byte of @a above the threshold t, 0 elsewhere; @nt4 is
 * (255 - t) in every byte.  a > t exactly when a + (255 - t) carries out
 * of its byte: the carry is the majority of the two top bits and the carry
 * into them, from a sum of the low 7 bits that cannot cross bytes.  About
 * 2 instructions a pixel instead of 4 for a compare and select each;
 * checked against a > t for every a and t by the binarize tests. */
__device__ __forceinline__ uint32_t
above4 (uint32_t a, uint32_t nt4)
{
  const uint32_t low = (a & 0x7f7f7f7fu) + (nt4 & 0x7f7f7f7fu);
  const uint32_t c = ((a & nt4) | ((a | nt4) & low)) & 0x80808080u;
  return c | (c - (c >> 7));
}

/* What binarizing needs once the threshold is known. */
struct BinarizeState
{
  uint32_t nt4, flip;           /* 255 - t in each byte; 0xff.. to invert */
  uint32_t t;
};

__device__ __forceinline__ BinarizeState
binarize_state (uint32_t t, bool invert)
{
  BinarizeState b;
  b.t = t;
  b.nt4 = (255u - t) * 0x01010101u;
  b.flip = invert ? 0xffffffffu : 0u;
  return b;
}

/* 16 pixels binarized */
__device__ __forceinline__ uint4
binarize16 (const BinarizeState & b, const uint4 & in)
{
  return make_uint4 (above4 (in.x, b.nt4) ^ b.flip, above4 (in.y,
          b.nt4) ^ b.flip, above4 (in.z, b.nt4) ^ b.flip, above4 (in.w,
          b.nt4) ^ b.flip);
}

/* where piece @h of @k goes in @dst (pitch @dst_pitch) */
__device__ __forceinline__ uint8_t *
piece_out (const cip::Piece & k, int h, uint8_t * dst, int dst_pitch)
{
  return dst + (size_t) k.y * dst_pitch + k.x + h * 512;
}

/* Piece @h of @k to the same place in @dst (pitch @dst_pitch), given its
 * pixels @in where VEC and whole. */
template <bool VEC>
__device__ __forceinline__ void
binarize_piece (const BinarizeState & b, const cip::Piece & k, int h,
    const uint4 & in, uint8_t * dst, int dst_pitch)
{
  uint8_t *out = piece_out (k, h, dst, dst_pitch);
  if (k.whole<VEC> (h)) {
    *reinterpret_cast<uint4 *>(out) = binarize16 (b, in);
  } else {
    const uint8_t *q = k.p + h * 512;
    for (int i = 0; i < k.n (h); i++)
      out[i] = (uint8_t) ((__ldg (q + i) > b.t ? 0xff : 0) ^ b.flip);
  }
}

/* The second pass of the one-launch frame: each block binarizes the
 * pixels it counted, most of them still in registers, with the threshold
 * the epilogue handed over. */
struct BinarizePass
{
  static constexpr bool PASS = true, SPECULATE = true;
  uint8_t *dst;
  int dst_pitch;
  bool invert;

  __device__ BinarizeState begin (uint32_t t) const
  {
    return binarize_state (t, invert);
  }
  __device__ bool same (const BinarizeState & a, const BinarizeState & b)
      const
  {
    return a.t == b.t;          /* invert is the launch's */
  }
  template <bool VEC>
  __device__ void piece (const BinarizeState & b, const cip::Piece & k,
      int h, const uint4 & in) const
  {
    binarize_piece<VEC> (b, k, h, in, dst, dst_pitch);
  }
  /* a whole piece written with @guess: again where @real differs */
  template <bool VEC>
  __device__ void redo (const BinarizeState & guess,
      const BinarizeState & real, const cip::Piece & k, int h,
      const uint4 & in) const
  {
    const uint4 r = binarize16 (real, in);
    const uint32_t w[4] = { in.x, in.y, in.z, in.w }, o[4] = { r.x, r.y,
      r.z, r.w };
    uint32_t d = 0;             /* against the guess's output, word by word */
#pragma unroll
    for (int i = 0; i < 4; i++)
      d |= o[i] ^ above4 (w[i], guess.nt4) ^ guess.flip;
    if (d)
      *reinterpret_cast<uint4 *>(piece_out (k, h, dst, dst_pitch)) = r;
  }
};

/* The separate binarize kernel (fixed mode, and where the one-launch frame
 * cannot run): the histogram's pieces, a warp a group. */
template <bool VEC>
__global__ void
__launch_bounds__ (256)
binarize_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    const uint32_t * threshold, bool invert)
{
  const int groups = (width + cip::HIST_GROUP - 1) / cip::HIST_GROUP;
  /* below HIST_MAX_GROUPS: cip_otsu_binarize checks */
  const int g = (int) (((long long) blockIdx.x * blockDim.x +
          threadIdx.x) / 32);
  if (g >= groups * height)
    return;
  const cip::Piece k (src, src_pitch, width, groups, g);
  uint4 v[2];
  k.load<VEC> (v);              /* before the threshold: all in flight */
  /* @threshold comes from an earlier kernel: read-only here, cached */
  const BinarizeState b = binarize_state (__ldg (threshold), invert);
#pragma unroll
  for (int h = 0; h < 2; h++)
    binarize_piece<VEC> (b, k, h, v[h], dst, dst_pitch);
}

}  /* namespace */

extern "C" cudaError_t
cip_otsu_histogram (const void *src, int pitch, int width, int height,
    uint32_t * hist, unsigned *sync, cudaStream_t stream)
{
  return cip::launch_histogram (src, pitch, width, height, hist, sync,
      cip::NoEpilogue (), stream);
}

extern "C" cudaError_t
cip_otsu_choose (const void *src, int pitch, int width, int height,
    uint32_t * hist, unsigned *sync, const CipOtsuParams * params,
    CipOtsuResult * res, float *ema, cudaStream_t stream)
{
  ThresholdEpilogue e = { (uint64_t) width * height, *params, res, ema };
  return cip::launch_histogram (src, pitch, width, height, hist, sync, e,
      stream);
}

extern "C" cudaError_t
cip_otsu_threshold (uint32_t * hist, uint64_t total,
    const CipOtsuParams * params, CipOtsuResult * res, float *ema,
    cudaStream_t stream)
{
  if (!total)
    return cudaErrorInvalidValue;
  (void) cudaGetLastError ();
  otsu_threshold_kernel<<<1, 256, 0, stream>>> (hist, total, *params, res,
      ema);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cip_otsu_binarize (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, const uint32_t * threshold, int invert,
    cudaStream_t stream)
{
  if (!cip::histogram_size_ok (width, height))
    return cudaErrorInvalidValue;
  const long long groups = (long long) ((width + cip::HIST_GROUP - 1) /
      cip::HIST_GROUP) * height;
  const unsigned grid = (unsigned) ((groups + 7) / 8);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  uint8_t *d = static_cast<uint8_t *>(dst);
  (void) cudaGetLastError ();
  if (cip::is_aligned (src, src_pitch, 16) &&
      cip::is_aligned (dst, dst_pitch, 16))
    binarize_kernel<true><<<grid, 256, 0, stream>>> (s, src_pitch, d,
        dst_pitch, width, height, threshold, invert != 0);
  else
    binarize_kernel<false><<<grid, 256, 0, stream>>> (s, src_pitch, d,
        dst_pitch, width, height, threshold, invert != 0);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cip_otsu_frame (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, uint32_t * hist, unsigned *sync,
    const CipOtsuParams * params, int invert, CipOtsuResult * res,
    float *ema, cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaErrorInvalidValue;
  ThresholdEpilogue e = { (uint64_t) width * height, *params, res, ema };
  BinarizePass b = { static_cast<uint8_t *>(dst), dst_pitch, invert != 0 };
  cudaError_t err = cip::launch_histogram_pass (src, src_pitch, width,
      height, hist, sync, e, b, cip::is_aligned (dst, dst_pitch, 16),
      stream);
  if (err != cudaErrorNotSupported &&
      err != cudaErrorCooperativeLaunchTooLarge)
    return err;
  /* no cooperative launch on this device, or none of this size (the
   * driver may hold fewer blocks than occupancy said): two launches */
  (void) cudaGetLastError ();
  err = cip_otsu_choose (src, src_pitch, width, height, hist, sync, params,
      res, ema, stream);
  if (err == cudaSuccess)
    err = cip_otsu_binarize (src, src_pitch, dst, dst_pitch, width, height,
        &res->threshold, invert, stream);
  return err;
}
