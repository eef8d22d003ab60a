/* cudaimgproc: Sobel gradient magnitude kernels.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One block: a 128 x 32 output tile, 32 x 8 threads, each thread 4 x 4
 * output pixels.  The tile and its halo sit in shared memory; each thread
 * runs the separable passes in registers: for each of its 4 + 2R input rows
 * the horizontal smoothing and derivative of its 4 columns, then the
 * vertical combinations.  Integer arithmetic throughout, so the gradients
 * are exact; the magnitude is single precision, each operation rounded on
 * its own (no FMA contraction) like the CPU reference.
 */
#include "sobel.h"
#include "cip_pointwise.cuh"
#include "cip_stencil.cuh"

namespace {

constexpr int TW = 128, TH = 32, PX = 4, PY = 4;

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
__device__ __forceinline__ int
round_sqrt (int S)
{
  const float f = __int_as_float (0x4b000000 | S) - 8388608.0f;
  float r;
  asm ("sqrt.approx.f32 %0, %1;" : "=f" (r) : "f" (f));
  return __float_as_int (r + 12582912.0f) & 0x3fffff;
}

/* scale 1.0: the same values as magnitude () below.  L1 is integer
 * already; L2 (3x3, so gx^2 + gy^2 < 2^24): round (sqrt (S)), and S from
 * 255.5^2 on saturates.  No ties: rounding the correctly rounded sqrtf, as
 * the reference does, gives the same n. */
template <bool L1>
__device__ __forceinline__ uint8_t
magnitude_unit (int gx, int gy, const CipSobelParams & p)
{
  int v;
  if (L1)
    v = min (255, abs (gx) + abs (gy));
  else
    v = min (255, round_sqrt (min (gx * gx + gy * gy, 65281)));
  return apply_threshold (v, p);
}

__device__ __forceinline__ uint8_t
magnitude (int gx, int gy, const CipSobelParams & p)
{
  float m;
  if (p.l1) {
    m = (float) (abs (gx) + abs (gy));
  } else {
    const float fx = (float) gx, fy = (float) gy;
    m = __fsqrt_rn (__fadd_rn (__fmul_rn (fx, fx), __fmul_rn (fy, fy)));
  }
  int v = __float2int_rn (__fmul_rn (m, p.scale));
  v = min (255, max (0, v));
  return apply_threshold (v, p);
}

template <int K, bool UNIT, bool L1>
__global__ void
__launch_bounds__ (256)
sobel_kernel (const uint8_t * __restrict__ src, int src_pitch,
    uint8_t * __restrict__ dst, int dst_pitch, int width, int height,
    CipSobelParams p, bool aligned_src, bool aligned_dst)
{
  constexpr int R = K / 2;
  __shared__ cip::Tile<TW, TH, R> tile;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;

  tile.load (src, src_pitch, width, height, x0, y0, p.border, aligned_src);
  __syncthreads ();

  const int cx = threadIdx.x * PX;      /* tile-local first column */
  const int cy = threadIdx.y * PY;      /* tile-local first row */
  int hs[PY + 2 * R][PX], hd[PY + 2 * R][PX];
#pragma unroll
  for (int r = 0; r < PY + 2 * R; r++) {
    uint8_t v[PX + 2 * R];
#pragma unroll
    for (int j = 0; j < PX + 2 * R; j++)
      v[j] = tile.at (cy + r, cx + 4 - R + j);
#pragma unroll
    for (int c = 0; c < PX; c++) {
      int s = 0, d = 0;
#pragma unroll
      for (int j = 0; j < K; j++) {
        s += smooth<K> (j) * v[c + j];
        d += deriv<K> (j) * v[c + j];
      }
      hs[r][c] = s;
      hd[r][c] = d;
    }
  }

#pragma unroll
  for (int o = 0; o < PY; o++) {
    const int y = y0 + cy + o;
    uint8_t out[PX];
#pragma unroll
    for (int c = 0; c < PX; c++) {
      int gx = 0, gy = 0;
#pragma unroll
      for (int i = 0; i < K; i++) {
        gx += smooth<K> (i) * hd[o + i][c];
        gy += deriv<K> (i) * hs[o + i][c];
      }
      out[c] = UNIT ? magnitude_unit<L1> (gx, gy, p) : magnitude (gx, gy, p);
    }
    if (y >= height)
      continue;
    const int x = x0 + cx;
    uint8_t *d = dst + (size_t) y * dst_pitch + x;
    if (aligned_dst && x + PX <= width) {
      *reinterpret_cast<uint32_t *>(d) = out[0] | (out[1] << 8) |
          (out[2] << 16) | ((uint32_t) out[3] << 24);
    } else {
#pragma unroll
      for (int c = 0; c < PX; c++)
        if (x + c < width)
          d[c] = out[c];
    }
  }
}

}  /* namespace */

extern "C" cudaError_t
cip_sobel (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, const CipSobelParams * params, cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaErrorInvalidValue;
  const dim3 block (TW / PX, TH / PY);
  const dim3 grid ((width + TW - 1) / TW, (height + TH - 1) / TH);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  uint8_t *d = static_cast<uint8_t *>(dst);
  const bool as = cip::is_aligned (src, src_pitch, 4);
  const bool ad = cip::is_aligned (dst, dst_pitch, 4);
  (void) cudaGetLastError ();
  /* the integer magnitude: scale 1.0, and for L2 a 3x3 kernel (larger
   * ones overflow 2^24) */
  const bool unit = params->scale == 1.0f &&
      (params->l1 || params->ksize == 3);
#define CIP_SOBEL_LAUNCH(K, U, L) \
    sobel_kernel<K, U, L><<<grid, block, 0, stream>>> (s, src_pitch, d, \
        dst_pitch, width, height, *params, as, ad)
#define CIP_SOBEL_K(K) \
    if (!unit) CIP_SOBEL_LAUNCH (K, false, false); \
    else if (params->l1) CIP_SOBEL_LAUNCH (K, true, true); \
    else CIP_SOBEL_LAUNCH (K, true, false)
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
