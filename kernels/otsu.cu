/* cudaimgproc: Otsu threshold kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "otsu.h"
#include "cip_histogram.cuh"
#include "cip_pointwise.cuh"

#include <cfloat>

namespace {

/* OpenCV's getThreshVal_Otsu_8u runs one recurrence over the 256 bins in
 * double precision, and its choice among near-equal candidates (a gap of
 * empty bins gives exactly equal variances, told apart only by rounding)
 * depends on every rounding of that recurrence.  To pick the same threshold
 * on every frame we run the same operations in the same order: the
 * recurrence in one thread, every operation rounded on its own (the _rn
 * intrinsics forbid FMA contraction), then each candidate's variance and the
 * first maximum in parallel. */
__global__ void
__launch_bounds__ (256)
otsu_threshold_kernel (uint32_t * __restrict__ hist, uint64_t total,
    CipOtsuParams p, CipOtsuResult * __restrict__ res, float *ema)
{
  __shared__ double s_p[256], s_q1[256], s_mu1[256];
  __shared__ unsigned long long s_sum[8];
  __shared__ double s_best[8];
  __shared__ int s_best_i[8];
  __shared__ double s_mu;
  const int i = threadIdx.x, lane = i & 31, warp = i >> 5;

  const uint32_t h = hist[i];
  res->hist[i] = h;
  hist[i] = 0;                  /* ready for the next frame */

  int otsu = p.fixed_threshold;
  if (!p.fixed) {
    const double scale = __drcp_rn ((double) total);   /* 1. / total */
    s_p[i] = __dmul_rn ((double) h, scale);

    /* mu = sum (i * h[i]) * scale: the sum is an integer below 2^53, exact
     * in any order, as OpenCV's sequential double sum is. */
    unsigned long long ih = (unsigned long long) i * h;
    for (int o = 16; o; o >>= 1)
      ih += __shfl_down_sync (0xffffffffu, ih, o);
    if (!lane)
      s_sum[warp] = ih;
    __syncthreads ();
    if (i == 0) {
      unsigned long long s = 0;
      for (int w = 0; w < 8; w++)
        s += s_sum[w];
      s_mu = __dmul_rn ((double) s, scale);

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
        s_q1[k] = skip ? -1.0 : q1;   /* -1: not a candidate */
        s_mu1[k] = mu1;
      }
    }
    __syncthreads ();

    double sigma = -1.0;
    const double q1 = s_q1[i];
    if (q1 >= 0) {
      const double mu1 = s_mu1[i];
      const double q2 = __dadd_rn (1.0, -q1);
      const double mu2 = __ddiv_rn (__dadd_rn (s_mu, -__dmul_rn (q1, mu1)),
          q2);
      const double d = __dadd_rn (mu1, -mu2);
      sigma = __dmul_rn (__dmul_rn (__dmul_rn (q1, q2), d), d);
    }
    /* First maximum: larger sigma wins, equal sigma goes to the lower bin */
    int bi = i;
    for (int o = 16; o; o >>= 1) {
      const double os = __shfl_down_sync (0xffffffffu, sigma, o);
      const int oi = __shfl_down_sync (0xffffffffu, bi, o);
      if (os > sigma || (os == sigma && oi < bi)) {
        sigma = os;
        bi = oi;
      }
    }
    if (!lane) {
      s_best[warp] = sigma;
      s_best_i[warp] = bi;
    }
    __syncthreads ();
    if (i == 0) {
      double best = s_best[0];
      int best_i = s_best_i[0];
      for (int w = 1; w < 8; w++)
        if (s_best[w] > best) {
          best = s_best[w];
          best_i = s_best_i[w];
        }
      /* OpenCV keeps 0 unless some sigma > 0 */
      otsu = best > 0.0 ? best_i : 0;
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
  }
}

struct Binarize
{
  const uint32_t *threshold;
  uint32_t on, off;

  __device__ void operator() (const uint8_t (&in)[16], uint8_t (&out)[16]) const
  {
    const uint32_t t = __ldg (threshold);
#pragma unroll
    for (int k = 0; k < 16; k++)
      out[k] = in[k] > t ? on : off;
  }
};

}  /* namespace */

extern "C" cudaError_t
cip_otsu_histogram (const void *src, int pitch, int width, int height,
    uint32_t * hist, cudaStream_t stream)
{
  return cip::launch_histogram (src, pitch, width, height, hist, stream);
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
  return cip::launch_map<1, 1, 16> (src, src_pitch, dst, dst_pitch, width,
      height, f, stream);
}
