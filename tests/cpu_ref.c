/* cudaimgproc: plain CPU references.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written from the definitions in docs/, one pixel at a time, with no
 * attempt at speed: these are what the GPU output is compared to.
 */
#include "cpu_ref.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static uint8_t
scale_luma (int y, int scale_q16)
{
  int v = (y * scale_q16 + (1 << 15)) >> 16;
  return (uint8_t) (v > 255 ? 255 : v);
}

void
ref_gray_packed (const uint8_t * src, int src_stride, int bpp, int r_off,
    int g_off, int b_off, uint8_t * dst, int dst_stride, int width,
    int height, int cr, int cg, int cb, int scale_q16)
{
  for (int y = 0; y < height; y++) {
    for (int x = 0; x < width; x++) {
      const uint8_t *p = src + (long) y * src_stride + (long) x * bpp;
      int l = (p[r_off] * cr + p[g_off] * cg + p[b_off] * cb + (1 << 14)) >> 15;
      dst[(long) y * dst_stride + x] = scale_luma (l, scale_q16);
    }
  }
}

void
ref_gray_luma (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int width, int height, int scale_q16)
{
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      dst[(long) y * dst_stride + x] =
          scale_luma (src[(long) y * src_stride + x], scale_q16);
}

/* OpenCV 4.x imgproc/src/thresh.cpp, getThreshVal_Otsu, transcribed.  Built
 * with -ffp-contract=off: every operation rounds on its own, as on x86-64
 * without FMA, which is how OpenCV's baseline code is compiled. */
int
ref_otsu_threshold (const uint32_t hist[256], uint64_t total)
{
  double mu = 0, scale = 1. / (double) total;
  double mu1 = 0, q1 = 0, max_sigma = 0, max_val = 0;
  int i;

  for (i = 0; i < 256; i++)
    mu += i * (double) hist[i];
  mu *= scale;

  for (i = 0; i < 256; i++) {
    double p_i, q2, mu2, sigma;

    p_i = hist[i] * scale;
    mu1 *= q1;
    q1 += p_i;
    q2 = 1. - q1;

    if ((q1 < q2 ? q1 : q2) < FLT_EPSILON || (q1 > q2 ? q1 : q2) > 1. - FLT_EPSILON)
      continue;

    mu1 = (mu1 + i * p_i) / q1;
    mu2 = (mu - q1 * mu1) / q2;
    sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
    if (sigma > max_sigma) {
      max_sigma = sigma;
      max_val = i;
    }
  }
  return (int) max_val;
}

void
ref_histogram (const uint8_t * src, int stride, int width, int height,
    uint32_t hist[256])
{
  for (int i = 0; i < 256; i++)
    hist[i] = 0;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      hist[src[(long) y * stride + x]]++;
}

void
ref_binarize (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int width, int height, int t, int invert)
{
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++) {
      int on = src[(long) y * src_stride + x] > t;
      dst[(long) y * dst_stride + x] = (on ^ (invert != 0)) ? 255 : 0;
    }
}

int
ref_otsu_final (int otsu, int offset, double smoothing, float *ema)
{
  int t = otsu;

  if (smoothing > 0) {
    float s = (float) smoothing;
    *ema = *ema < 0 ? (float) otsu : s * *ema + (1.0f - s) * (float) otsu;
    t = (int) lrintf (*ema);
  }
  t += offset;
  return t < 0 ? 0 : t > 255 ? 255 : t;
}

/* OpenCV's cv::borderInterpolate, for the two borders cudasobel offers. */
int
ref_border (int p, int len, int border)
{
  if ((unsigned) p < (unsigned) len)
    return p;
  if (border == 0)
    return p < 0 ? 0 : len - 1;
  if (len == 1)
    return 0;
  do {
    if (p < 0)
      p = -p;
    else
      p = len - 1 - (p - len) - 1;
  } while ((unsigned) p >= (unsigned) len);
  return p;
}

/* cv::getDerivKernels (1, 0, ksize, normalize = false) */
static const int sobel_deriv[3][7] = {
  {-1, 0, 1}, {-1, -2, 0, 2, 1}, {-1, -4, -5, 0, 5, 4, 1}
};
static const int sobel_smooth[3][7] = {
  {1, 2, 1}, {1, 4, 6, 4, 1}, {1, 6, 15, 20, 15, 6, 1}
};

void
ref_sobel_grad (const uint8_t * src, int stride, int width, int height,
    int ksize, int border, int32_t * gx, int32_t * gy)
{
  const int r = ksize / 2, k = (ksize - 3) / 2;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++) {
      int sx = 0, sy = 0;
      for (int i = 0; i < ksize; i++) {
        int yy = ref_border (y + i - r, height, border);
        for (int j = 0; j < ksize; j++) {
          int xx = ref_border (x + j - r, width, border);
          int v = src[(long) yy * stride + xx];
          sx += sobel_smooth[k][i] * sobel_deriv[k][j] * v;
          sy += sobel_deriv[k][i] * sobel_smooth[k][j] * v;
        }
      }
      gx[(long) y * width + x] = sx;
      gy[(long) y * width + x] = sy;
    }
}

uint8_t
ref_sobel_value (int32_t gx, int32_t gy, int l1, float scale, int threshold)
{
  float m;
  long v;

  if (l1)
    m = (float) (labs (gx) + labs (gy));
  else
    m = sqrtf ((float) gx * (float) gx + (float) gy * (float) gy);
  v = lrintf (m * scale);
  v = v < 0 ? 0 : v > 255 ? 255 : v;
  if (threshold > 0)
    return v > threshold ? 255 : 0;
  return (uint8_t) v;
}

void
ref_sobel (const uint8_t * src, int stride, int width, int height, int ksize,
    int border, int l1, float scale, int threshold, uint8_t * dst,
    int dst_stride)
{
  int32_t *gx = malloc (sizeof (int32_t) * width * height);
  int32_t *gy = malloc (sizeof (int32_t) * width * height);

  ref_sobel_grad (src, stride, width, height, ksize, border, gx, gy);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      dst[(long) y * dst_stride + x] = ref_sobel_value (gx[(long) y * width +
              x], gy[(long) y * width + x], l1, scale, threshold);
  free (gx);
  free (gy);
}
