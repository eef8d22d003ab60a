/* cudaimgproc: Otsu threshold kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "otsu.h"
#include "cip_block.cuh"
#include "cip_histogram.cuh"
#include "cip_pointwise.cuh"

#include <cfloat>

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
  __syncthreads ();
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
  __syncthreads ();

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

/* Step 1 above; returns -1 when it cannot certify OpenCV's choice. */
__device__ int
otsu_certified (const uint32_t h, uint64_t N)
{
  __shared__ unsigned long long s_pre_s, s_S;
  __shared__ int s_k0;
  const int i = threadIdx.x;
  if (N >= (1ull << 39))        /* n1 << 23 below would overflow */
    return -1;
  const unsigned long long n1 =
      cip::block_inclusive_scan<256, unsigned long long> (h);
  const unsigned long long s1 =
      cip::block_inclusive_scan<256, unsigned long long> (
      (unsigned long long) i * h);
  if (i == 255)
    s_S = s1;
  if (i == 0)
    s_k0 = 256;
  __syncthreads ();
  const unsigned long long S = s_S, n2 = N - n1;

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
  if (__syncthreads_or (unsure))
    return -1;
  const int k0 = s_k0;
  if (k0 == 256)
    return 0;                   /* no candidate at all: OpenCV gives 0 */
  if (i == k0)
    s_pre_s = s1 - (unsigned long long) i * h;
  __syncthreads ();

  double sigma = -1.0, err = 0.0;
  if (!skip) {
    /* mu1 without the skipped prefix's sum, as OpenCV's recurrence has it */
    const unsigned long long s1p = s1 - s_pre_s;
    const double q1 = (double) n1 / (double) N, q2 = (double) n2 / (double) N;
    const double mu1 = (double) s1p / (double) n1;
    const double mu2 = (double) (S - s1p) / (double) n2;
    const double d = fabs (mu1 - mu2);
    sigma = q1 * q2 * d * d;
    /* OpenCV's rounded sigma vs this: q1, q2 and the running sums are off
     * by relative 3e-13 at most; mu2 = (mu - q1 mu1) / q2 by 3e-10 / q2
     * absolute; sigma by 2e-13 / q2 + 2 * 3e-10 / (q2 d) relative.  Ten
     * times that, to be safe. */
    const double rel = 10.0 * (2e-13 / q2 + 6.6e-10 / (q2 * d));
    err = (d > 0 && rel < 0.01) ? sigma * rel : INFINITY;
  }
  double best_sigma = sigma;
  int best = i;
  cip::block_argmax<256> (best_sigma, best);
  if (best_sigma <= 0.0)
    return -1;
  __shared__ double s_err_best;
  if (i == best)
    s_err_best = err;
  __syncthreads ();
  const double lo = best_sigma - s_err_best;
  const double hi = (i == best || skip) ? -INFINITY : sigma + err;
  const double hi_max = cip::block_max<256> (hi);
  return (lo > 0.0 && hi_max < lo) ? best : -1;
}

/* The threshold of the complete histogram @hist, by 256 threads: writes
 * @res and zeroes @hist for the next frame. */
__device__ void
otsu_threshold_body (uint32_t * __restrict__ hist, uint64_t total,
    const CipOtsuParams & p, CipOtsuResult * __restrict__ res, float *ema)
{
  const int i = threadIdx.x;
  /* written by other blocks' atomics: read from L2, not L1 */
  const uint32_t h = __ldcg (&hist[i]);
  res->hist[i] = h;
  hist[i] = 0;                  /* ready for the next frame */

  int otsu = p.fixed_threshold, exact = 0;
  if (!p.fixed) {
    otsu = p.exact_only ? -1 : otsu_certified (h, total);
    if (otsu < 0) {
      otsu = otsu_exact (h, total);
      exact = 1;
    }
  }

  if (i == 0) {
    int t = otsu;
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
}

__global__ void
__launch_bounds__ (256)
otsu_threshold_kernel (uint32_t * __restrict__ hist, uint64_t total,
    CipOtsuParams p, CipOtsuResult * __restrict__ res, float *ema)
{
  otsu_threshold_body (hist, total, p, res, ema);
}

/* Runs in the histogram kernel's last block. */
struct ThresholdEpilogue
{
  uint64_t total;
  CipOtsuParams p;
  CipOtsuResult *res;
  float *ema;

  __device__ void operator() (uint32_t * hist) const
  {
    otsu_threshold_body (hist, total, p, res, ema);
  }
};

struct Binarize
{
  const uint32_t *threshold;
  uint32_t on, off;

  __device__ void operator() (const uint8_t (&in)[32], uint8_t (&out)[32]) const
  {
    const uint32_t t = *threshold;      /* written by this stream's last kernel */
#pragma unroll
    for (int k = 0; k < 32; k++)
      out[k] = in[k] > t ? on : off;
  }
};

}  /* namespace */

extern "C" cudaError_t
cip_otsu_histogram (const void *src, int pitch, int width, int height,
    uint32_t * hist, unsigned *done, cudaStream_t stream)
{
  return cip::launch_histogram (src, pitch, width, height, hist, done,
      cip::NoEpilogue (), stream);
}

extern "C" cudaError_t
cip_otsu_choose (const void *src, int pitch, int width, int height,
    uint32_t * hist, unsigned *done, const CipOtsuParams * params,
    CipOtsuResult * res, float *ema, cudaStream_t stream)
{
  ThresholdEpilogue e = { (uint64_t) width * height, *params, res, ema };
  return cip::launch_histogram (src, pitch, width, height, hist, done, e,
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
  Binarize f = { threshold, invert ? 0u : 255u, invert ? 255u : 0u };
  return cip::launch_map<1, 1, 32> (src, src_pitch, dst, dst_pitch, width,
      height, f, stream);
}
