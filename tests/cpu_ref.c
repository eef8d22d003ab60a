/* cudaimgproc: plain CPU references.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written from the definitions in docs/, one pixel at a time, with no
 * attempt at speed: these are what the GPU output is compared to.
 */
#include "cpu_ref.h"
#include "histogram.h"
#include "thin3d_templates.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

    if ((q1 < q2 ? q1 : q2) < FLT_EPSILON
        || (q1 > q2 ? q1 : q2) > 1. - FLT_EPSILON)
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

/* ---- cudathin ----------------------------------------------------------- */

static int
thin_px (const uint8_t * im, int w, int h, int y, int x)
{
  return x >= 0 && x < w && y >= 0 && y < h && im[(size_t) y * w + x];
}

/* Hilditch's labels: P2..P9 = N, NW, W, SW, S, SE, E, NE */
static const int hil_dy[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
static const int hil_dx[8] = { 0, -1, -1, -1, 0, 1, 1, 1 };

/* OpenCV's: p2..p9 = N, NE, E, SE, S, SW, W, NW */
static const int cv_dy[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
static const int cv_dx[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

/* TR: 0 -> 1 transitions in P2, P3, ..., P9, P2 around (y, x) */
static int
hil_tr (const uint8_t * im, int w, int h, int y, int x)
{
  int v[8], i, t = 0;

  for (i = 0; i < 8; i++)
    v[i] = thin_px (im, w, h, y + hil_dy[i], x + hil_dx[i]);
  for (i = 0; i < 8; i++)
    t += !v[i] && v[(i + 1) % 8];
  return t;
}

static int
hil_delete (const uint8_t * im, int w, int h, int y, int x)
{
  int v[8], i, nz = 0;

  for (i = 0; i < 8; i++)
    nz += v[i] = thin_px (im, w, h, y + hil_dy[i], x + hil_dx[i]);
  /* v[0] = P2, v[2] = P4, v[4] = P6, v[6] = P8 */
  return nz >= 2 && nz <= 6 && hil_tr (im, w, h, y, x) == 1 &&
      (!(v[0] && v[2] && v[6]) || hil_tr (im, w, h, y - 1, x) != 1) &&
      (!(v[0] && v[2] && v[4]) || hil_tr (im, w, h, y, x - 1) != 1);
}

/* thinningIteration of OpenCV's ximgproc/src/thinning.cpp, per pixel */
static int
cv_delete (const uint8_t * im, int w, int h, int y, int x, int guo_hall,
    int iter)
{
  int p[10], i;

  for (i = 0; i < 8; i++)
    p[i + 2] = thin_px (im, w, h, y + cv_dy[i], x + cv_dx[i]);
  {
    const int p2 = p[2], p3 = p[3], p4 = p[4], p5 = p[5], p6 = p[6];
    const int p7 = p[7], p8 = p[8], p9 = p[9];

    if (!guo_hall) {
      int A = (p2 == 0 && p3 == 1) + (p3 == 0 && p4 == 1) +
          (p4 == 0 && p5 == 1) + (p5 == 0 && p6 == 1) +
          (p6 == 0 && p7 == 1) + (p7 == 0 && p8 == 1) +
          (p8 == 0 && p9 == 1) + (p9 == 0 && p2 == 1);
      int B = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9;
      int m1 = iter == 0 ? (p2 * p4 * p6) : (p2 * p4 * p8);
      int m2 = iter == 0 ? (p4 * p6 * p8) : (p2 * p6 * p8);
      return A == 1 && (B >= 2 && B <= 6) && m1 == 0 && m2 == 0;
    } else {
      int C = ((!p2) & (p3 | p4)) + ((!p4) & (p5 | p6)) +
          ((!p6) & (p7 | p8)) + ((!p8) & (p9 | p2));
      int N1 = (p9 | p2) + (p3 | p4) + (p5 | p6) + (p7 | p8);
      int N2 = (p2 | p3) + (p4 | p5) + (p6 | p7) + (p8 | p9);
      int N = N1 < N2 ? N1 : N2;
      int m = iter == 0 ? ((p6 | p7 | (!p9)) & p8) : ((p2 | p3 | (!p5)) & p4);
      return C == 1 && N >= 2 && N <= 3 && m == 0;
    }
  }
}

/* One sub-iteration: every decision on the image as it was before it.
 * @keep_border: the outermost rows and columns are never removed. */
static int
thin_sub (uint8_t * im, uint8_t * mark, int w, int h, int method, int iter,
    int keep_border)
{
  int x, y, removed = 0;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      mark[(size_t) y * w + x] = im[(size_t) y * w + x] &&
          !(keep_border && (x == 0 || y == 0 || x == w - 1 || y == h - 1)) &&
          (method == 0 ? hil_delete (im, w, h, y, x) :
          cv_delete (im, w, h, y, x, method == 2, iter));
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (mark[(size_t) y * w + x]) {
        im[(size_t) y * w + x] = 0;
        removed = 1;
      }
  return removed;
}

unsigned
ref_thin (uint8_t * img, int width, int height, int method,
    unsigned max_passes, int *converged, int keep_border)
{
  const size_t n = (size_t) width * height;
  uint8_t *mark = malloc (n);
  unsigned passes = 0, done = 0;
  int conv = 0;
  size_t i;

  for (i = 0; i < n; i++)
    img[i] = img[i] != 0;
  while (!max_passes || done < max_passes) {
    int removed = thin_sub (img, mark, width, height, method, 0,
        keep_border);
    if (method != 0)
      removed |= thin_sub (img, mark, width, height, method, 1, keep_border);
    done++;
    if (!removed) {
      conv = 1;
      break;
    }
    passes++;
  }
  free (mark);
  if (converged)
    *converged = conv;
  return passes;
}

static uint32_t
frame_rand (uint32_t * s)
{
  *s = *s * 1103515245u + 12345u;
  return *s >> 16;
}

/* Densities of the noise kinds 20 .. 30, per cent */
static const int noise_density[] = { 5, 10, 20, 30, 40, 50, 60, 70, 80, 90,
  95
};

/* the ring a pixel is on: its distance to the nearest border */
static int
ring_of (int x, int y, int w, int h)
{
  int d = x < y ? x : y;

  if (w - 1 - x < d)
    d = w - 1 - x;
  if (h - 1 - y < d)
    d = h - 1 - y;
  return d;
}

void
ref_thin_frame (uint8_t * img, int w, int h, int kind, uint32_t seed,
    int margin)
{
  uint32_t s = seed;
  int x, y, i, n;

  memset (img, 0, (size_t) w * h);
  if (kind >= 20 && kind <= 30) {
    for (i = 0; i < w * h; i++)
      img[i] = frame_rand (&s) % 100 < (uint32_t) noise_density[kind - 20] ?
          255 : 0;
  } else if (kind == 4 || kind == 5) {
    /* 5: concentric square rings a pixel apart; 4: the same joined into
     * one spiral (a bridge across each gap, the outer ring cut beside it) */
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        img[(size_t) y * w + x] = ring_of (x, y, w, h) % 2 == 0 ? 255 : 0;
    if (kind == 4)
      for (i = 1; i < w && i < h; i += 2) {
        if (i + 1 < h && ring_of (i, i + 1, w, h) == i)
          img[(size_t) (i + 1) * w + i] = 255;
        if (i + 2 < h && ring_of (i - 1, i + 2, w, h) == i - 1)
          img[(size_t) (i + 2) * w + i - 1] = 0;
      }
  } else if (kind == 6) {
    memset (img, 255, (size_t) w * h);
  } else if (kind == 7) {
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        img[(size_t) y * w + x] = (x + y) % 2 ? 0 : 255;
  } else if (kind == 8) {
    /* foreground on every border, 30 % noise inside */
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        img[(size_t) y * w + x] = x == 0 || y == 0 || x == w - 1 ||
            y == h - 1 || frame_rand (&s) % 100 < 30 ? 255 : 0;
  } else if (kind == 1 || kind == 3) {
    /* 3: sparse noise, many small components (cudablobs' numbering) */
    for (i = 0; i < w * h; i++)
      img[i] = frame_rand (&s) % 100 < (kind == 1 ? 55 : 20) ? 255 : 0;
  } else if (kind == 0) {
    n = 3 + frame_rand (&s) % 6;
    for (i = 0; i < n; i++) {
      int cx = frame_rand (&s) % w, cy = frame_rand (&s) % h;
      int lim = (w < h ? w : h) / 3, r = 1 + frame_rand (&s) % (lim > 2 ?
          lim : 2);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
            img[(size_t) y * w + x] = 255;
    }
  } else {
    n = 2 + frame_rand (&s) % 5;
    for (i = 0; i < n; i++) {
      int x0 = frame_rand (&s) % w, y0 = frame_rand (&s) % h;
      int rw = 1 + frame_rand (&s) % w, rh = 1 + frame_rand (&s) % h;
      if (i & 1)
        rh = 1 + frame_rand (&s) % 3;   /* a line */
      for (y = y0; y < y0 + rh && y < h; y++)
        for (x = x0; x < x0 + rw && x < w; x++)
          img[(size_t) y * w + x] = 255;
    }
  }
  if (margin)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
          img[(size_t) y * w + x] = 0;
}

uint32_t
ref_fnv1a (const uint8_t * p, size_t n)
{
  uint32_t hsh = 2166136261u;
  size_t i;

  for (i = 0; i < n; i++)
    hsh = (hsh ^ p[i]) * 16777619u;
  return hsh;
}

/* ---- cudakmeans --------------------------------------------------------- */

typedef struct
{
  const uint8_t *src;
  int stride, bpp, ro, go, bo, w, h, spatial;
  float sx, sy;
} KmFrame;

static void
km_features (const KmFrame * f, int x, int y, float p[5])
{
  const uint8_t *px = f->src + (size_t) y * f->stride + (size_t) x * f->bpp;
  p[0] = (float) px[f->ro];
  p[1] = (float) px[f->go];
  p[2] = (float) px[f->bo];
  p[3] = f->spatial ? (float) x *f->sx : 0.0f;
  p[4] = f->spatial ? (float) y *f->sy : 0.0f;
}

static float
km_dist (const KmFrame * f, const float p[5], const float c[5])
{
  float d = 0.0f;
  int i;
  for (i = 0; i < (f->spatial ? 5 : 3); i++) {
    float t = p[i] - c[i];
    d = d + t * t;
  }
  return d;
}

static int
km_nearest (const KmFrame * f, const float p[5], float (*c)[5], int k,
    float *bd)
{
  int j, best = 0;
  *bd = km_dist (f, p, c[0]);
  for (j = 1; j < k; j++) {
    float d = km_dist (f, p, c[j]);
    if (d < *bd) {
      *bd = d;
      best = j;
    }
  }
  return best;
}

static uint32_t
km_xorshift (uint32_t * s)
{
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static void
km_sample_xy (const KmFrame * f, int i, int nx, int ny, int *x, int *y)
{
  *x = (int) (((long long) (2 * (i % nx) + 1) * f->w) / (2 * nx));
  *y = (int) (((long long) (2 * (i / nx) + 1) * f->h) / (2 * ny));
}

static void
km_init (const KmFrame * f, int k, int init, uint32_t seed, float (*c)[5])
{
  int nx = f->w < 64 ? f->w : 64, ny = f->h < 64 ? f->h : 64, n = nx * ny;
  int i, j, x, y, pick;
  uint32_t *d2, s;
  float (*sp)[5];

  if (init == 1) {
    for (j = 0; j < k; j++) {
      km_sample_xy (f, (int) ((long long) j * n / k), nx, ny, &x, &y);
      km_features (f, x, y, c[j]);
    }
    return;
  }
  /* k-means++ on colour with integer squared distances */
  d2 = malloc (sizeof (uint32_t) * n);
  sp = malloc (sizeof (float) * 5 * n);
  for (i = 0; i < n; i++) {
    km_sample_xy (f, i, nx, ny, &x, &y);
    km_features (f, x, y, sp[i]);
  }
  s = seed * 2654435761u + 1u;
  if (!s)
    s = 1;
  pick = (int) (km_xorshift (&s) % (uint32_t) n);
  for (j = 0; j < k; j++) {
    uint64_t total = 0, r, acc = 0;
    memcpy (c[j], sp[pick], sizeof (float) * 5);
    if (j == k - 1)
      break;
    for (i = 0; i < n; i++) {
      int dr = (int) sp[i][0] - (int) c[j][0];
      int dg = (int) sp[i][1] - (int) c[j][1];
      int db = (int) sp[i][2] - (int) c[j][2];
      uint32_t d = (uint32_t) (dr * dr + dg * dg + db * db);
      d2[i] = (j == 0 || d < d2[i]) ? d : d2[i];
      total += d2[i];
    }
    if (total == 0) {
      pick = (int) (km_xorshift (&s) % (uint32_t) n);
      continue;
    }
    {
      uint32_t hi = km_xorshift (&s), lo = km_xorshift (&s);
      r = (((uint64_t) hi << 32) | lo) % total;
    }
    for (i = 0; i < n; i++) {
      acc += d2[i];
      if (acc > r) {
        pick = i;
        break;
      }
    }
  }
  free (d2);
  free (sp);
}

/* Runs @fn on each of @n items of @size bytes, at most @at_once at a time
 * on threads of their own, and waits for all; an item whose thread cannot
 * start runs on the calling thread, as does a single one */
static void
run_side_by_side (void *(*fn) (void *), void *items, size_t size, int n,
    long at_once)
{
  pthread_t *th = calloc ((size_t) n, sizeof (pthread_t));
  int *ok = calloc ((size_t) n, sizeof (int));
  int i;

  if (at_once < 1)
    at_once = 1;
  for (i = 0; i < n; i++) {
    void *item = (char *) items + (size_t) i * size;
    if (i >= at_once && ok[i - at_once])
      pthread_join (th[i - at_once], NULL);
    ok[i] = n > 1 && pthread_create (&th[i], NULL, fn, item) == 0;
    if (!ok[i])
      fn (item);
  }
  for (i = n > at_once ? n - at_once : 0; i < n; i++)
    if (ok[i])
      pthread_join (th[i], NULL);
  free (th);
  free (ok);
}

/* A band of rows of one pass: each pixel's nearest centre, the integer sums
 * of each label and the farthest pixel (distance bits, then the lowest
 * index), or (@labels) the labels and counts.  Every result is an integer
 * sum or a maximum, so bands computed apart and then added give the same
 * bits as one walk of the frame. */
typedef struct
{
  const KmFrame *f;
  float (*c)[5];
  int k, y0, y1;
    uint64_t (*sums)[6];
  uint64_t far;
  uint8_t *labels;
  uint32_t *counts;
} KmBand;

static void *
km_band (void *data)
{
  /* locals, not b's fields: a store to the sums or labels could alias
   * them, and the loop would reload every one (twice as slow) */
  KmBand *b = data;
  const KmFrame f = *b->f;
  float (*const c)[5] = b->c;
  const int k = b->k, y1 = b->y1;
  uint64_t (*const sums)[6] = b->sums, far = b->far;
  uint8_t *const labels = b->labels;
  uint32_t *const counts = b->counts;
  int x, y, j;

  for (y = b->y0; y < y1; y++)
    for (x = 0; x < f.w; x++) {
      float p[5], bd;
      uint32_t bits;
      uint64_t key;
      km_features (&f, x, y, p);
      j = km_nearest (&f, p, c, k, &bd);
      if (labels) {
        labels[(size_t) y * f.w + x] = (uint8_t) j;
        counts[j]++;
        continue;
      }
      sums[j][0] += (uint64_t) p[0];
      sums[j][1] += (uint64_t) p[1];
      sums[j][2] += (uint64_t) p[2];
      sums[j][3] += (uint64_t) x;
      sums[j][4] += (uint64_t) y;
      sums[j][5]++;
      memcpy (&bits, &bd, 4);
      key = ((uint64_t) bits << 32) | (0xffffffffu - (uint32_t) (y * f.w + x));
      if (key > far)
        far = key;
    }
  b->far = far;
  return NULL;
}

/* Bands a pass of ref_kmeans runs on: 0 (the default) as many as there
 * are cores for frames of 2^14 pixels or more, one inside an attempt of
 * ref_kmeans_attempts (those run side by side already) */
static int km_threads;
static __thread int km_in_attempt;

void
ref_kmeans_set_threads (int n)
{
  km_threads = n;
}

/* One pass over the frame in bands, on threads; their sums and farthest
 * pixels (or counts) into @sums and @far (or @counts) */
static void
km_pass (const KmFrame * f, float (*c)[5], int k, uint64_t (*sums)[6],
    uint64_t * far, uint8_t * labels, uint32_t * counts)
{
  long n = km_threads;
  int i, j, e;

  if (n <= 0)
    n = (long) f->w * f->h >= (1 << 14) ? sysconf (_SC_NPROCESSORS_ONLN) : 1;
  if (km_in_attempt || n < 1)
    n = 1;
  if (n > f->h)
    n = f->h;
  if (n > 64)
    n = 64;
  {
    KmBand b[n];

    for (i = 0; i < n; i++)
      b[i] = (KmBand) {
      f, c, k, (int) ((long long) f->h * i / n),
          (int) ((long long) f->h * (i + 1) / n),
          labels ? NULL : calloc ((size_t) k, sizeof (uint64_t) * 6), 0,
          labels, labels ? calloc ((size_t) k, sizeof (uint32_t)) : NULL};
    run_side_by_side (km_band, b, sizeof (KmBand), (int) n, n);
    for (i = 0; i < n; i++) {
      for (j = 0; j < k; j++) {
        if (labels)
          counts[j] += b[i].counts[j];
        else
          for (e = 0; e < 6; e++)
            sums[j][e] += b[i].sums[j][e];
      }
      if (far && b[i].far > *far)
        *far = b[i].far;
      free (b[i].sums);
      free (b[i].counts);
    }
  }
}

int
ref_kmeans (const uint8_t * src, int stride, int bpp, int r_off, int g_off,
    int b_off, int width, int height, int k, int max_iterations,
    float epsilon, float spatial_weight, int init, uint32_t seed, int warm,
    float (*centres)[5], uint8_t * labels, uint32_t * counts)
{
  KmFrame f = { src, stride, bpp, r_off, g_off, b_off, width, height,
    spatial_weight > 0.0f, 0.0f, 0.0f
  };
  uint64_t (*sums)[6] = malloc (sizeof (uint64_t) * 6 * k);
  float (*nc)[5] = malloc (sizeof (float) * 5 * k);
  int it = 0, j, i;

  f.sx = (float) ((double) spatial_weight * 255.0 /
      (double) (width - 1 > 1 ? width - 1 : 1));
  f.sy = (float) ((double) spatial_weight * 255.0 /
      (double) (height - 1 > 1 ? height - 1 : 1));
  if (!warm)
    km_init (&f, k, init, seed, centres);

  while (it < max_iterations) {
    uint64_t far = 0;
    int stop = 1;
    float eps2 = epsilon * epsilon;

    memset (sums, 0, sizeof (uint64_t) * 6 * k);
    km_pass (&f, centres, k, sums, &far, NULL, NULL);
    for (j = 0; j < k; j++) {
      memcpy (nc[j], centres[j], sizeof (float) * 5);
      if (sums[j][5]) {
        double dn = (double) sums[j][5];
        for (i = 0; i < 3; i++)
          nc[j][i] = (float) ((double) sums[j][i] / dn);
        if (f.spatial) {
          nc[j][3] = (float) ((double) sums[j][3] * (double) f.sx / dn);
          nc[j][4] = (float) ((double) sums[j][4] * (double) f.sy / dn);
        }
      }
    }
    for (j = 0; j < k; j++)
      if (!sums[j][5]) {
        if ((far >> 32) != 0) {
          uint32_t idx = 0xffffffffu - (uint32_t) (far & 0xffffffffu);
          km_features (&f, (int) (idx % width), (int) (idx / width), nc[j]);
          stop = 0;
        }
        break;
      }
    for (j = 0; j < k; j++) {
      float m = 0.0f;
      for (i = 0; i < (f.spatial ? 5 : 3); i++) {
        float t = nc[j][i] - centres[j][i];
        m = m + t * t;
      }
      if (m > eps2)
        stop = 0;
    }
    memcpy (centres, nc, sizeof (float) * 5 * k);
    it++;
    if (stop)
      break;
  }

  memset (counts, 0, sizeof (uint32_t) * k);
  km_pass (&f, centres, k, NULL, NULL, labels, counts);
  free (sums);
  free (nc);
  return it;
}

uint64_t
ref_kmeans_inertia (const uint8_t * src, int stride, int bpp, int r_off,
    int g_off, int b_off, int width, int height, float spatial_weight,
    float (*centres)[5], int k)
{
  KmFrame f = { src, stride, bpp, r_off, g_off, b_off, width, height,
    spatial_weight > 0.0f, 0.0f, 0.0f
  };
  uint64_t sum = 0;
  int x, y;

  f.sx = (float) ((double) spatial_weight * 255.0 /
      (double) (width - 1 > 1 ? width - 1 : 1));
  f.sy = (float) ((double) spatial_weight * 255.0 /
      (double) (height - 1 > 1 ? height - 1 : 1));
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      float p[5], bd;
      km_features (&f, x, y, p);
      km_nearest (&f, p, centres, k, &bd);
      sum += (uint64_t) llrintf (bd * 64.0f);
    }
  return sum;
}

/* One attempt of ref_kmeans_attempts, on a thread of its own */
typedef struct
{
  const uint8_t *src;
  int stride, bpp, r_off, g_off, b_off, width, height, k, max_iterations;
  float epsilon, spatial_weight;
  int init;
  uint32_t seed;
  int it;
  float (*c)[5];
  uint8_t *l;
  uint32_t *n;
  uint64_t q;
  int nested;                   /* beside other attempts: one thread */
} KmeansAttempt;

static void *
kmeans_attempt (void *data)
{
  KmeansAttempt *t = data;
  const int was = km_in_attempt;

  km_in_attempt = was || t->nested;
  t->it = ref_kmeans (t->src, t->stride, t->bpp, t->r_off, t->g_off,
      t->b_off, t->width, t->height, t->k, t->max_iterations, t->epsilon,
      t->spatial_weight, t->init, t->seed, 0, t->c, t->l, t->n);
  t->q = ref_kmeans_inertia (t->src, t->stride, t->bpp, t->r_off, t->g_off,
      t->b_off, t->width, t->height, t->spatial_weight, t->c, t->k);
  km_in_attempt = was;
  return NULL;
}

int
ref_kmeans_attempts (const uint8_t * src, int stride, int bpp, int r_off,
    int g_off, int b_off, int width, int height, int k, int max_iterations,
    float epsilon, float spatial_weight, int init, uint32_t seed,
    int attempts, float (*centres)[5], uint8_t * labels, uint32_t * counts,
    uint64_t * inertia, uint64_t * each)
{
  const int na = attempts > 1 ? attempts : 1;
  KmeansAttempt *t = calloc (na, sizeof (KmeansAttempt));
  int a, best = 0, it;

  /* the attempts are independent: side by side, as many at once as there
   * are cores (the GPU tests' references were most of their time); the
   * best is then chosen in attempt order, as one after another would */
  for (a = 0; a < na; a++) {
    t[a] = (KmeansAttempt) {
    src, stride, bpp, r_off, g_off, b_off, width, height, k,
          max_iterations, epsilon, spatial_weight, init,
          seed + (uint32_t) a *0x9e3779b9u, 0,
          malloc (sizeof (float) * 5 * k), malloc ((size_t) width * height),
          malloc (sizeof (uint32_t) * k), 0, na > 1};
  }
  run_side_by_side (kmeans_attempt, t, sizeof (KmeansAttempt), na,
      sysconf (_SC_NPROCESSORS_ONLN));
  for (a = 0; a < na; a++) {
    if (each)
      each[a] = t[a].q;
    if (t[a].q < t[best].q)
      best = a;
  }
  *inertia = t[best].q;
  memcpy (centres, t[best].c, sizeof (float) * 5 * k);
  memcpy (labels, t[best].l, (size_t) width * height);
  memcpy (counts, t[best].n, sizeof (uint32_t) * k);
  it = t[best].it;
  for (a = 0; a < na; a++) {
    free (t[a].c);
    free (t[a].l);
    free (t[a].n);
  }
  free (t);
  return it;
}

void
ref_yuv420_to_rgb (const uint8_t * y, int y_stride, const uint8_t * u,
    const uint8_t * v, int c_stride, int cstep, int width, int height,
    const CipYuvMatrix * m, uint8_t * rgb)
{
  int i, j;

  for (j = 0; j < height; j++)
    for (i = 0; i < width; i++) {
      const size_t c = (size_t) (j / 2) * c_stride + (size_t) (i / 2) * cstep;
      int r, g, b;
      cip_yuv_to_rgb (m, y[(size_t) j * y_stride + i], u[c], v[c], &r, &g, &b);
      rgb[((size_t) j * width + i) * 3] = (uint8_t) r;
      rgb[((size_t) j * width + i) * 3 + 1] = (uint8_t) g;
      rgb[((size_t) j * width + i) * 3 + 2] = (uint8_t) b;
    }
}

void
ref_kmeans_paint_yuv420 (const uint8_t * labels, int width, int height,
    float (*centres)[5], int k, const CipYuvMatrix * m, uint8_t * y,
    int y_stride, uint8_t * u, uint8_t * v, int c_stride, int cstep)
{
  int (*yuv)[3] = malloc (sizeof (int) * 3 * k);
  int i, j, dx, dy;

  for (j = 0; j < k; j++)
    cip_rgb_to_yuv (m, (int) rintf (centres[j][0]), (int) rintf (centres[j][1]),
        (int) rintf (centres[j][2]), &yuv[j][0], &yuv[j][1], &yuv[j][2]);
  for (j = 0; j < height; j++)
    for (i = 0; i < width; i++)
      y[(size_t) j * y_stride + i] = (uint8_t) yuv[labels[(size_t) j * width +
              i]][0];
  for (j = 0; j < height; j += 2)
    for (i = 0; i < width; i += 2) {
      const size_t c = (size_t) (j / 2) * c_stride + (size_t) (i / 2) * cstep;
      int su = 0, sv = 0, n = 0;
      for (dy = 0; dy < 2 && j + dy < height; dy++)
        for (dx = 0; dx < 2 && i + dx < width; dx++) {
          const int l = labels[(size_t) (j + dy) * width + i + dx];
          su += yuv[l][1];
          sv += yuv[l][2];
          n++;
        }
      u[c] = (uint8_t) ((su + n / 2) / n);
      v[c] = (uint8_t) ((sv + n / 2) / n);
    }
  free (yuv);
}

/* ---- cudasmooth ------------------------------------------------------- */

void
ref_gaussian_taps_q8 (int ksize, double sigma, int *taps)
{
  /* getGaussianKernelBitExact's tables for sigma <= 0 */
  static const int binomial[3][7] = {
    {64, 128, 64}, {16, 64, 96, 64, 16}, {8, 28, 56, 72, 56, 28, 8}
  };
  const int r = ksize / 2;
  double v[8], sum = 0.0, mul, err = 0.0;
  int i, total = 0;

  if (sigma <= 0.0 && ksize >= 3 && ksize <= 7) {
    memcpy (taps, binomial[r - 1], sizeof (int) * ksize);
    return;
  }
  if (sigma <= 0.0)
    sigma = ((ksize - 1) * 0.5 - 1) * 0.3 + 0.8;
  /* The same operations in the same order as getGaussianKernelBitExact
   * (whose exp is softfloat's; libm's agrees to the last bit or so, far
   * from mattering once rounded to 1/256), then getGaussianKernelFixedPoint_ED:
   * each tap rounded half to even with the error carried to the next. */
  for (i = 0; i < r; i++) {
    double x = (double) (2 * i + 1 - ksize);    /* twice the offset */
    v[i] = exp ((x * x) * (-0.125 / (sigma * sigma)));
    sum += v[i];
  }
  sum = sum * 2.0 + 1.0;
  mul = 1.0 / sum;
  for (i = 0; i < r; i++) {
    double adj = (v[i] * mul) * 256.0 + err;
    double q = nearbyint (adj); /* half to even, the default mode */
    err = adj - q;
    taps[i] = taps[ksize - 1 - i] = (int) q;
    total += 2 * (int) q;
  }
  taps[r] = 256 - total;
}

/* The division each linear method ends with, rounded to nearest: never a
 * tie (odd divisors), or half up for the Gaussian's 2^16 as OpenCV's
 * fixed point rounds. */
static uint8_t
smooth_round (int64_t s, int64_t d)
{
  int64_t v = (s + d / 2) / d;
  return (uint8_t) (v > 255 ? 255 : v);
}

/* insertion sort: at most 25 values, and qsort's calls made the 8K
 * median reference slow */
static void
sort_u8 (uint8_t * v, int n)
{
  for (int i = 1; i < n; i++) {
    uint8_t t = v[i];
    int j = i;
    for (; j > 0 && v[j - 1] > t; j--)
      v[j] = v[j - 1];
    v[j] = t;
  }
}

void
ref_smooth (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int width, int height, int bpp, int keep_off,
    int method, int ksize, double sigma, int border)
{
  static const int tri[5] = { 1, 2, 3, 2, 1 };
  int w[15], r, x, y, c, i, j;
  int64_t div = 1;

  if (method == REF_SMOOTH_TRIANGULAR)
    ksize = 5;
  r = ksize / 2;
  for (i = 0; i < ksize; i++)
    w[i] = 1;
  if (method == REF_SMOOTH_TRIANGULAR) {
    memcpy (w, tri, sizeof (tri));
    div = 81;
  } else if (method == REF_SMOOTH_BOX) {
    div = (int64_t) ksize *ksize;
  } else if (method == REF_SMOOTH_GAUSSIAN) {
    ref_gaussian_taps_q8 (ksize, sigma, w);
    div = 65536;
  }
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      for (c = 0; c < bpp; c++) {
        uint8_t *d = dst + (size_t) y * dst_stride + (size_t) x * bpp + c;
        if (c == keep_off) {
          *d = src[(size_t) y * src_stride + (size_t) x * bpp + c];
          continue;
        }
        if (method == REF_SMOOTH_MEDIAN) {
          uint8_t v[25];
          int n = 0;
          for (j = -r; j <= r; j++)
            for (i = -r; i <= r; i++)
              v[n++] = src[(size_t) ref_border (y + j, height, border) *
                  src_stride + (size_t) ref_border (x + i, width, border) *
                  bpp + c];
          sort_u8 (v, n);
          *d = v[n / 2];
        } else {
          /* rows first, as OpenCV's separable filters: exact integers */
          int64_t s = 0;
          for (j = -r; j <= r; j++) {
            const uint8_t *row = src + (size_t) ref_border (y + j, height,
                border) * src_stride;
            int64_t h = 0;
            for (i = -r; i <= r; i++)
              h += (int64_t) w[i + r] * row[(size_t) ref_border (x + i,
                      width, border) * bpp + c];
            s += w[j + r] * h;
          }
          *d = smooth_round (s, div);
        }
      }
}

void
ref_smooth_frame (uint8_t * img, int stride, int width, int height, int bpp,
    int kind, uint32_t seed)
{
  uint32_t s = seed;
  int x, y, c;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      for (c = 0; c < bpp; c++) {
        uint32_t n = frame_rand (&s);
        int v;
        if (kind == 0) {
          v = n & 255;
        } else {
          /* a gradient with noise and 5 % salt and pepper */
          v = (x * 255 / (width > 1 ? width - 1 : 1) + y * 3 + c * 40) % 256;
          v += (int) (n % 21) - 10;
          if (n % 100 < 5)
            v = n % 200 < 5 ? 0 : 255;
          v = v < 0 ? 0 : v > 255 ? 255 : v;
        }
        img[(size_t) y * stride + (size_t) x * bpp + c] = (uint8_t) v;
      }
}

/* ---- 3D thinning: Lee, Kashyap & Chu 1994 (scikit-image's skeletonize) */

/* the 3x3x3 neighbourhood of (x, y, z), index (dz + 1) * 9 + (dy + 1) * 3
 * + dx + 1, outside the volume background */
static void
lee_neighbourhood (const uint8_t * v, int w, int h, int d, int x, int y,
    int z, uint8_t n[27])
{
  int dx, dy, dz;

  for (dz = -1; dz <= 1; dz++)
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        const int xx = x + dx, yy = y + dy, zz = z + dz;
        n[(dz + 1) * 9 + (dy + 1) * 3 + dx + 1] = xx >= 0 && xx < w &&
            yy >= 0 && yy < h && zz >= 0 && zz < d &&
            v[((size_t) zz * h + yy) * w + xx];
      }
}

static int
lee_at (const uint8_t n[27], int i, int j, int k)
{
  return i >= 0 && i < 3 && j >= 0 && j < 3 && k >= 0 && k < 3 &&
      n[k * 9 + j * 3 + i];
}

/* The Euler characteristic of the union of the closed unit cubes of the
 * object voxels of @n: vertices - edges + faces - cubes, each cell counted
 * where any voxel whose cube holds it is object.  Lee's condition 1 (the
 * table of Euler changes a deletion makes, summed over the 8 octants) is
 * this characteristic unchanged by the deletion. */
static int
lee_euler (const uint8_t n[27])
{
  int a, b, c, i, j, k, vtx = 0, edg = 0, fac = 0, cub = 0;

  for (a = 0; a < 4; a++)
    for (b = 0; b < 4; b++)
      for (c = 0; c < 4; c++) {
        int any = 0;
        for (i = a - 1; i <= a; i++)
          for (j = b - 1; j <= b; j++)
            for (k = c - 1; k <= c; k++)
              any |= lee_at (n, i, j, k);
        vtx += any;
        /* edges from (a, b, c) along x, y and z; faces at (a, b, c)
         * normal to x, y and z */
        if (a < 3) {
          any = 0;
          for (j = b - 1; j <= b; j++)
            for (k = c - 1; k <= c; k++)
              any |= lee_at (n, a, j, k);
          edg += any;
        }
        if (b < 3) {
          any = 0;
          for (i = a - 1; i <= a; i++)
            for (k = c - 1; k <= c; k++)
              any |= lee_at (n, i, b, k);
          edg += any;
        }
        if (c < 3) {
          any = 0;
          for (i = a - 1; i <= a; i++)
            for (j = b - 1; j <= b; j++)
              any |= lee_at (n, i, j, c);
          edg += any;
        }
        if (b < 3 && c < 3)
          fac += lee_at (n, a - 1, b, c) | lee_at (n, a, b, c);
        if (a < 3 && c < 3)
          fac += lee_at (n, a, b - 1, c) | lee_at (n, a, b, c);
        if (a < 3 && b < 3)
          fac += lee_at (n, a, b, c - 1) | lee_at (n, a, b, c);
        if (a < 3 && b < 3 && c < 3)
          cub += lee_at (n, a, b, c);
      }
  return vtx - edg + fac - cub;
}

static int
lee_euler_invariant (const uint8_t n[27])
{
  uint8_t m[27];

  memcpy (m, n, 27);
  m[13] = 0;
  return lee_euler (n) == lee_euler (m);
}

/* Lee's conditions 2 and 3: the object voxels of the 26 neighbours (the
 * centre left out) form at most one 26-connected component */
static int
lee_simple (const uint8_t n[27])
{
  int seen[27] = { 0 }, stack[27], top = 0, comps = 0, s, i;

  for (s = 0; s < 27; s++) {
    if (s == 13 || !n[s] || seen[s])
      continue;
    if (++comps > 1)
      return 0;
    seen[s] = 1;
    stack[top++] = s;
    while (top) {
      const int p = stack[--top];
      for (i = 0; i < 27; i++)
        if (i != 13 && n[i] && !seen[i] && abs (i % 3 - p % 3) <= 1 &&
            abs (i / 3 % 3 - p / 3 % 3) <= 1 && abs (i / 9 - p / 9) <= 1) {
          seen[i] = 1;
          stack[top++] = i;
        }
    }
  }
  return 1;
}

static int
lee_deletable (const uint8_t n[27])
{
  int i, count = 0;

  for (i = 0; i < 27; i++)
    count += i != 13 && n[i];
  return count != 1 && lee_simple (n) && lee_euler_invariant (n);
}

int
ref_thin3d_lee (uint8_t * v, int w, int h, int d, int max_rounds)
{
  /* the six border directions in scikit-image's order: y - 1, y + 1,
   * x + 1, x - 1, z + 1, z - 1; a single slice only the first four */
  static const int dirs[6][3] = {
    {0, -1, 0}, {0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}
  };
  const int ndirs = d == 1 ? 4 : 6;
  const size_t total = (size_t) w * h * d;
  size_t i, ncand, *cand = malloc (sizeof (size_t) * (total ? total : 1));
  int unchanged = 0, rounds = 0, k, x, y, z;
  uint8_t n[27];

  for (i = 0; i < total; i++)
    v[i] = v[i] != 0;
  for (;;) {
    unchanged = 0;
    for (k = 0; k < ndirs; k++) {
      int changed = 0;
      /* candidates: border voxels for this direction that are deletable
       * now, in raster order; then each deleted if it is still simple on
       * the volume as the earlier deletions left it (simple only, as
       * scikit-image up to 0.26 rechecks: its main branch has since added
       * the other two conditions and another order of directions) */
      ncand = 0;
      for (z = 0; z < d; z++)
        for (y = 0; y < h; y++)
          for (x = 0; x < w; x++) {
            const int xx = x + dirs[k][0], yy = y + dirs[k][1],
                zz = z + dirs[k][2];
            if (!v[((size_t) z * h + y) * w + x])
              continue;
            if (xx >= 0 && xx < w && yy >= 0 && yy < h && zz >= 0 && zz < d
                && v[((size_t) zz * h + yy) * w + xx])
              continue;
            lee_neighbourhood (v, w, h, d, x, y, z, n);
            if (lee_deletable (n))
              cand[ncand++] = ((size_t) z * h + y) * w + x;
          }
      for (i = 0; i < ncand; i++) {
        const size_t p = cand[i];
        x = (int) (p % w);
        y = (int) (p / w % h);
        z = (int) (p / w / h);
        lee_neighbourhood (v, w, h, d, x, y, z, n);
        if (lee_simple (n)) {
          v[p] = 0;
          changed = 1;
        }
      }
      if (!changed)
        unchanged++;
    }
    if (unchanged == ndirs || (++rounds >= max_rounds && max_rounds > 0))
      break;
  }
  free (cand);
  return rounds;
}

int
ref_thin3d_lee_euler_invariant (const uint8_t n[27])
{
  return lee_euler_invariant (n);
}

/* ---- 3D thinning: Palágyi & Kuba 1999, 12 sub-iterations ------------ */

static const char *const pk_templates[CIP_PK12_N_TEMPLATES] = {
  CIP_PK12_TEMPLATES
};

static const int pk_dirs[CIP_PK12_N_DIRECTIONS][2][3] = {
  CIP_PK12_DIRECTIONS
};

static int
pk_template_match (const char *tpl, const uint8_t t[27])
{
  int any = 0, has_any = 0, n = 0, m = 0, o = 0, has_o = 0, i;

  for (i = 0; i < 27; i++) {
    switch (tpl[i]) {
      case '1':
        if (!t[i])
          return 0;
        break;
      case '0':
        if (t[i])
          return 0;
        break;
      case 'a':
        has_any = 1;
        any |= t[i];
        break;
      case 'n':
        n += t[i];
        break;
      case 'm':
        m += t[i];
        break;
      case 'o':
        has_o = 1;
        o += t[i];
        break;
      default:
        break;
    }
  }
  return (!has_any || any) && n < 2 && m < 2 && (!has_o || o == 1);
}

int
ref_thin3d_pk_match (const uint8_t t[27])
{
  int i;

  for (i = 0; i < CIP_PK12_N_TEMPLATES; i++)
    if (pk_template_match (pk_templates[i], t))
      return 1;
  return 0;
}

int
ref_thin3d_pk_deletable (const uint8_t * v, int w, int h, int d, int x,
    int y, int z, int k)
{
  /* direction PQ: the template frame's (a, b, c) is the volume offset
   * (a - 1)(P x Q) - (b - 1) Q + (c - 1) P */
  const int *p = pk_dirs[k][0], *q = pk_dirs[k][1];
  const int e[3] = { p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2],
    p[0] * q[1] - p[1] * q[0]
  };
  uint8_t t[27];
  int a, b, c;

  if (!v[((size_t) z * h + y) * w + x])
    return 0;
  for (c = 0; c < 3; c++)
    for (b = 0; b < 3; b++)
      for (a = 0; a < 3; a++) {
        const int xx = x + (a - 1) * e[0] - (b - 1) * q[0] + (c - 1) * p[0];
        const int yy = y + (a - 1) * e[1] - (b - 1) * q[1] + (c - 1) * p[1];
        const int zz = z + (a - 1) * e[2] - (b - 1) * q[2] + (c - 1) * p[2];
        t[9 * c + 3 * b + a] = xx >= 0 && xx < w && yy >= 0 && yy < h &&
            zz >= 0 && zz < d && v[((size_t) zz * h + yy) * w + xx];
      }
  return ref_thin3d_pk_match (t);
}

int
ref_thin3d_pk (uint8_t * v, int w, int h, int d, int max_rounds)
{
  const size_t total = (size_t) w * h * d;
  size_t i, ndel, *del = malloc (sizeof (size_t) * (total ? total : 1));
  int rounds = 0, k, x, y, z;

  for (i = 0; i < total; i++)
    v[i] = v[i] != 0;
  while (max_rounds <= 0 || rounds < max_rounds) {
    size_t deleted = 0;
    for (k = 0; k < CIP_PK12_N_DIRECTIONS; k++) {
      /* all matches first, then the deletions: they happen together */
      ndel = 0;
      for (z = 0; z < d; z++)
        for (y = 0; y < h; y++)
          for (x = 0; x < w; x++)
            if (ref_thin3d_pk_deletable (v, w, h, d, x, y, z, k))
              del[ndel++] = ((size_t) z * h + y) * w + x;
      for (i = 0; i < ndel; i++)
        v[del[i]] = 0;
      deleted += ndel;
    }
    if (!deleted)
      break;
    rounds++;
  }
  free (del);
  return rounds;
}

/* Components of a 0/1 volume padded by one background voxel each side:
 * object (@value 1) 26-connected, background (@value 0, the padding
 * included) 6-connected. */
int
ref_volume_components (const uint8_t * v, int w, int h, int d, int value)
{
  const int W = w + 2, H = h + 2, D = d + 2;
  const size_t n = (size_t) W * H * D;
  uint8_t *seen = calloc (n, 1);
  size_t *stack = malloc (sizeof (size_t) * n), top, i;
  int comps = 0;

#define AT(x, y, z) ((x) >= 1 && (x) <= w && (y) >= 1 && (y) <= h && \
    (z) >= 1 && (z) <= d ? v[((size_t) ((z) - 1) * h + (y) - 1) * w + (x) - 1] \
    : 0)
  for (i = 0; i < n; i++) {
    const int x = (int) (i % W), y = (int) (i / W % H), z = (int) (i / W / H);
    if (seen[i] || AT (x, y, z) != value)
      continue;
    comps++;
    seen[i] = 1;
    top = 0;
    stack[top++] = i;
    while (top) {
      const size_t p = stack[--top];
      const int px = (int) (p % W), py = (int) (p / W % H),
          pz = (int) (p / W / H);
      int dx, dy, dz;
      for (dz = -1; dz <= 1; dz++)
        for (dy = -1; dy <= 1; dy++)
          for (dx = -1; dx <= 1; dx++) {
            const int qx = px + dx, qy = py + dy, qz = pz + dz;
            size_t q;
            if ((value == 0 && abs (dx) + abs (dy) + abs (dz) != 1) ||
                qx < 0 || qx >= W || qy < 0 || qy >= H || qz < 0 || qz >= D)
              continue;
            q = ((size_t) qz * H + qy) * W + qx;
            if (!seen[q] && AT (qx, qy, qz) == value) {
              seen[q] = 1;
              stack[top++] = q;
            }
          }
    }
  }
#undef AT
  free (seen);
  free (stack);
  return comps;
}

static uint32_t
vol_rand (uint32_t * s, uint32_t n)
{
  *s = *s * 1664525u + 1013904223u;
  return (*s >> 8) % n;
}

static void
vol_ball (uint8_t * v, int w, int h, int d, double cx, double cy, double cz,
    double r)
{
  int x, y, z;

  for (z = (int) floor (cz - r); z <= (int) ceil (cz + r); z++)
    for (y = (int) floor (cy - r); y <= (int) ceil (cy + r); y++)
      for (x = (int) floor (cx - r); x <= (int) ceil (cx + r); x++)
        if (x >= 0 && x < w && y >= 0 && y < h && z >= 0 && z < d &&
            (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz)
            <= r * r)
          v[((size_t) z * h + y) * w + x] = 1;
}

/* balls of radius @r along the segment (@a .. @b), 1/4 voxel apart: a
 * capsule; radius 0 draws a one-voxel line */
static void
vol_segment (uint8_t * v, int w, int h, int d, const double a[3],
    const double b[3], double r)
{
  const double len = sqrt ((b[0] - a[0]) * (b[0] - a[0]) +
      (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
  const int steps = 1 + (int) (4 * len);
  int i;

  for (i = 0; i <= steps; i++) {
    const double t = (double) i / steps;
    const double x = a[0] + t * (b[0] - a[0]), y = a[1] + t * (b[1] - a[1]),
        z = a[2] + t * (b[2] - a[2]);
    if (r > 0)
      vol_ball (v, w, h, d, x, y, z, r);
    else
      vol_ball (v, w, h, d, floor (x + 0.5), floor (y + 0.5),
          floor (z + 0.5), 0);
  }
}

/* two random points of the volume, drawn in a fixed order (an
 * initializer list's calls are not sequenced) */
static void
vol_points (uint32_t * s, int w, int h, int d, double p0[3], double p1[3])
{
  p0[0] = vol_rand (s, w);
  p0[1] = vol_rand (s, h);
  p0[2] = vol_rand (s, d);
  p1[0] = vol_rand (s, w);
  p1[1] = vol_rand (s, h);
  p1[2] = vol_rand (s, d);
}

void
ref_thin3d_volume (uint8_t * v, int w, int h, int d, int kind, uint32_t seed)
{
  const size_t total = (size_t) w * h * d;
  const double pi = 3.14159265358979323846;
  uint32_t s = seed;
  int m = w < h ? w : h, b, nb, x, y, z;

  m = m < d ? m : d;
  memset (v, kind == 2, total);
  if (kind == 2)
    return;
  if (kind == 0 || kind == 1 || kind == 3) {
    nb = 3 + (int) vol_rand (&s, 4);
    for (b = 0; b < nb; b++) {
      const int cx = (int) vol_rand (&s, w), cy = (int) vol_rand (&s, h),
          cz = (int) vol_rand (&s, d);
      const int r = 1 + (int) vol_rand (&s, m / 3 > 1 ? m / 3 : 1);
      vol_ball (v, w, h, d, cx, cy, cz, r);
    }
  }
  if (kind == 1) {
    size_t i;
    for (i = 0; i < total; i++)
      if (vol_rand (&s, 100) < 3)
        v[i] = 1;
  } else if (kind == 3) {
    nb = 2 + (int) vol_rand (&s, 4);
    for (b = 0; b < nb; b++) {
      double p0[3], p1[3];
      vol_points (&s, w, h, d, p0, p1);
      vol_segment (v, w, h, d, p0, p1, 1 + vol_rand (&s, m / 5 > 1 ?
              m / 5 : 1));
    }
  } else if (kind == 4) {
    /* a torus about the z, y or x axis through the centre */
    const int axis = (int) vol_rand (&s, 3);
    const double R = m / 3.0, r = m / 8.0 > 1 ? m / 8.0 : 1;
    for (z = 0; z < d; z++)
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          const double p[3] = { x - (w - 1) / 2.0, y - (h - 1) / 2.0,
            z - (d - 1) / 2.0
          };
          const double u = p[(axis + 1) % 3], t = p[(axis + 2) % 3],
              ax = p[axis], q = sqrt (u * u + t * t) - R;
          if (q * q + ax * ax <= r * r)
            v[((size_t) z * h + y) * w + x] = 1;
        }
  } else if (kind == 5) {
    /* a tube around the trefoil (sin t + 2 sin 2t, cos t - 2 cos 2t,
     * -sin 3t), scaled to the volume */
    const double r = m / 12.0 > 1 ? m / 12.0 : 1;
    const double sx = ((w < h ? w : h) / 2.0 - r - 1) / 3.0;
    const double sz = d / 2.0 - r - 1 < sx ? d / 2.0 - r - 1 : sx;
    for (b = 0; b < 2000; b++) {
      const double t = 2 * pi * b / 2000;
      vol_ball (v, w, h, d, (w - 1) / 2.0 + sx * (sin (t) + 2 * sin (2 * t)),
          (h - 1) / 2.0 + sx * (cos (t) - 2 * cos (2 * t)),
          (d - 1) / 2.0 - sz * sin (3 * t), r);
    }
  } else if (kind == 6) {
    /* one-voxel lines, a plate normal to an axis and a slanted plate */
    nb = 2 + (int) vol_rand (&s, 3);
    for (b = 0; b < nb; b++) {
      double p0[3], p1[3];
      vol_points (&s, w, h, d, p0, p1);
      vol_segment (v, w, h, d, p0, p1, 0);
    }
    {
      const int pz = (int) vol_rand (&s, d), px = (int) vol_rand (&s, w);
      for (y = h / 4; y < h - h / 4; y++)
        for (x = w / 4; x < w - w / 4; x++)
          v[((size_t) pz * h + y) * w + x] = 1;
      for (z = d / 4; z < d - d / 4; z++)
        for (y = 0; y < h; y++) {
          const int xx = px + (y - h / 2) / 2;
          if (xx >= 0 && xx < w)
            v[((size_t) z * h + y) * w + xx] = 1;
        }
    }
  } else if (kind == 7) {
    /* slabs x, y and z = centre, each a quarter of the volume thick */
    const int tx = w / 4 > 1 ? w / 4 : 1, ty = h / 4 > 1 ? h / 4 : 1,
        tz = d / 4 > 1 ? d / 4 : 1;
    for (z = 0; z < d; z++)
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          if (abs (2 * x - (w - 1)) < tx || abs (2 * y - (h - 1)) < ty ||
              abs (2 * z - (d - 1)) < tz)
            v[((size_t) z * h + y) * w + x] = 1;
  } else if (kind == 8) {
    for (z = 1; z < d - 1; z++)
      for (y = 1; y < h - 1; y++)
        for (x = 1; x < w - 1; x++)
          v[((size_t) z * h + y) * w + x] = 1;
  }
}

/* ------------------------------------------------------------------------ */
/* cudaoverlay */

/* Walks the video's pixels, adding each one's blend into the plane pixel
 * that covers it, then divides: the plain form of overlay.h's definition. */
void
ref_histogram_picture (const uint32_t counts[][256], int channels,
    int log_scale, uint8_t * dst, int stride, int width, int height)
{
  int x, y, ch, b;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      const int b0 = (int) ((int64_t) x * 256 / width);
      int b1 = (int) ((int64_t) (x + 1) * 256 / width) - 1;
      uint8_t lit[3] = { 0, 0, 0 };

      if (b1 < b0)
        b1 = b0;
      for (ch = 0; ch < channels; ch++) {
        uint32_t v = 0, m = 0;
        uint64_t h = 0;

        for (b = 0; b < 256; b++)
          if (counts[ch][b] > m)
            m = counts[ch][b];
        for (b = b0; b <= b1; b++)
          if (counts[ch][b] > v)
            v = counts[ch][b];
        if (m && log_scale)
          h = (uint64_t) cip_hist_log2 (1ull + v) * height /
              cip_hist_log2 (1ull + m);
        else if (m)
          h = (uint64_t) v *height / m;
        lit[ch] = (uint64_t) (height - y) <= h ? 255 : 0;
      }
      if (channels == 1) {
        dst[(size_t) y * stride + x] = lit[0];
      } else {
        uint8_t *p = dst + (size_t) y * stride + (size_t) x * 4;
        p[0] = lit[0];
        p[1] = lit[1];
        p[2] = lit[2];
        p[3] = 255;
      }
    }
}

void
ref_overlay_boxes (uint8_t * mask, int stride, int w, int h, const int *boxes,
    int n, int line_width)
{
  int i, x, y;

  for (y = 0; y < h; y++)
    memset (mask + (size_t) y * stride, 0, w);
  for (i = 0; i < n; i++) {
    const int bx = boxes[4 * i], by = boxes[4 * i + 1];
    const int bw = boxes[4 * i + 2], bh = boxes[4 * i + 3];

    for (y = by; y < by + bh; y++)
      for (x = bx; x < bx + bw; x++)
        if (x >= 0 && y >= 0 && x < w && y < h &&
            (x < bx + line_width || x >= bx + bw - line_width ||
                y < by + line_width || y >= by + bh - line_width))
          mask[(size_t) y * stride + x] = 255;
  }
}

void
ref_overlay_plane (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int bpp, unsigned keep, int sub_x, int sub_y,
    const uint8_t * mask, int mask_stride, int mask_w, int mask_h,
    int luma_w, int luma_h, const uint8_t * alpha, const uint8_t * colour)
{
  ref_overlay_plane_at (src, src_stride, dst, dst_stride, bpp, keep, sub_x,
      sub_y, mask, mask_stride, mask_w, mask_h, luma_w, luma_h, alpha, colour,
      0, 0, 0);
}

void
ref_overlay_plane_at (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int bpp, unsigned keep, int sub_x, int sub_y,
    const uint8_t * mask, int mask_stride, int mask_w, int mask_h,
    int luma_w, int luma_h, const uint8_t * alpha, const uint8_t * colour,
    int placed, int mask_x, int mask_y)
{
  const int pw = (luma_w + (1 << sub_x) - 1) >> sub_x;
  const int ph = (luma_h + (1 << sub_y) - 1) >> sub_y;
  long *sum = calloc ((size_t) pw * ph * bpp, sizeof (long));
  int *count = calloc ((size_t) pw * ph, sizeof (int));
  int X, Y, x, y, k;

  for (Y = 0; Y < luma_h; Y++)
    for (X = 0; X < luma_w; X++) {
      const int my = placed ? Y - mask_y : (int) ((long) Y * mask_h / luma_h);
      const int mx = placed ? X - mask_x : (int) ((long) X * mask_w / luma_w);
      const int in = my >= 0 && my < mask_h && mx >= 0 && mx < mask_w;
      const int v = in ? mask[(size_t) my * mask_stride + mx] : 0;
      const int a = in ? alpha[v] : 0;
      const size_t i = (size_t) (Y >> sub_y) * pw + (X >> sub_x);
      const uint8_t *p = src + (size_t) (Y >> sub_y) * src_stride +
          (size_t) (X >> sub_x) * bpp;

      for (k = 0; k < bpp; k++)
        sum[i * bpp + k] += p[k] * (255 - a) + colour[v * 4 + k] * a;
      count[i]++;
    }
  for (y = 0; y < ph; y++)
    for (x = 0; x < pw; x++) {
      const size_t i = (size_t) y * pw + x;
      const long den = 255L * count[i];

      for (k = 0; k < bpp; k++) {
        const uint8_t p = src[(size_t) y * src_stride + (size_t) x * bpp + k];
        dst[(size_t) y * dst_stride + (size_t) x * bpp + k] = (keep >> k) & 1 ?
            p : (uint8_t) ((sum[i * bpp + k] + den / 2) / den);
      }
    }
  free (sum);
  free (count);
}

/* ---- cudablobs ---------------------------------------------------------- */

static int32_t
uf_find (int32_t * parent, int32_t i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

static void
uf_union (int32_t * parent, int32_t a, int32_t b)
{
  a = uf_find (parent, a);
  b = uf_find (parent, b);
  if (a != b)
    parent[a > b ? a : b] = a < b ? a : b;
}

/* the @k-th pixel in OpenCV's scan order (see cpu_ref.h), as an index */
static int
scan_pixel (int k, int width, int height, int blocks)
{
  int band, in_band, rows, x, y;

  if (!blocks)
    return k;
  band = k / (2 * width);
  in_band = k % (2 * width);
  y = 2 * band;
  rows = y + 1 < height ? 2 : 1;
  /* a block of 2 columns holds 2 × rows pixels; the last may be 1 wide */
  x = (in_band / (2 * rows)) * 2;
  in_band %= 2 * rows;
  if (x + 1 >= width)
    return (y + in_band) * width + x;   /* one column: top, then bottom */
  return (y + in_band / 2) * width + x + in_band % 2;
}

int
ref_label (const uint8_t * src, int stride, int width, int height,
    int connectivity, int32_t * labels, RefBlob * blobs)
{
  const int n = width * height;
  int32_t *parent = malloc (sizeof (int32_t) * (size_t) n);
  int32_t *final = malloc (sizeof (int32_t) * (size_t) n);
  int x, y, k, next = 1;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      const int i = y * width + x;
      parent[i] = i;
      final[i] = 0;
      if (!src[y * stride + x])
        continue;
      if (x > 0 && src[y * stride + x - 1])
        uf_union (parent, i, i - 1);
      if (y > 0 && src[(y - 1) * stride + x])
        uf_union (parent, i, i - width);
      if (connectivity == 8 && y > 0) {
        if (x > 0 && src[(y - 1) * stride + x - 1])
          uf_union (parent, i, i - width - 1);
        if (x + 1 < width && src[(y - 1) * stride + x + 1])
          uf_union (parent, i, i - width + 1);
      }
    }
  /* numbers in the order of OpenCV's scan */
  for (k = 0; k < n; k++) {
    const int i = scan_pixel (k, width, height, connectivity == 8);
    int32_t r;

    if (!src[(i / width) * stride + i % width])
      continue;
    r = uf_find (parent, i);
    if (!final[r])
      final[r] = next++;
  }
  for (k = 1; k < next && blobs; k++) {
    blobs[k].left = width;
    blobs[k].top = height;
    blobs[k].width = blobs[k].height = -1;      /* right, bottom for now */
    blobs[k].area = 0;
    blobs[k].cx = blobs[k].cy = 0;
  }
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      const int i = y * width + x;
      int32_t l = src[y * stride + x] ? final[uf_find (parent, i)] : 0;

      labels[i] = l;
      if (!l || !blobs)
        continue;
      if (x < blobs[l].left)
        blobs[l].left = x;
      if (y < blobs[l].top)
        blobs[l].top = y;
      if (x > blobs[l].width)
        blobs[l].width = x;
      if (y > blobs[l].height)
        blobs[l].height = y;
      blobs[l].area++;
      blobs[l].cx += x;
      blobs[l].cy += y;
    }
  for (k = 1; k < next && blobs; k++) {
    blobs[k].width -= blobs[k].left - 1;
    blobs[k].height -= blobs[k].top - 1;
    blobs[k].cx /= (double) blobs[k].area;
    blobs[k].cy /= (double) blobs[k].area;
  }
  free (parent);
  free (final);
  return next;
}

typedef struct
{
  int64_t area;
  int32_t label;
} BySize;

static int
by_size (const void *a, const void *b)
{
  const BySize *x = a, *y = b;

  if (x->area != y->area)
    return x->area > y->area ? -1 : 1;
  return (x->label > y->label) - (x->label < y->label);
}

static int
by_label (const void *a, const void *b)
{
  const int32_t x = *(const int32_t *) a, y = *(const int32_t *) b;

  return (x > y) - (x < y);
}

int
ref_blobs_select (const RefBlob * blobs, int n, int max_label,
    unsigned min_area, unsigned max_blobs, int32_t * kept)
{
  int k = 0, l;

  for (l = 1; l <= (n < max_label ? n : max_label); l++)
    if (blobs[l].area >= (int64_t) min_area)
      kept[k++] = l;
  if (max_blobs && (unsigned) k > max_blobs) {
    BySize *s = malloc ((size_t) k * sizeof (*s));

    for (l = 0; l < k; l++) {
      s[l].area = blobs[kept[l]].area;
      s[l].label = kept[l];
    }
    qsort (s, (size_t) k, sizeof (*s), by_size);
    k = (int) max_blobs;
    for (l = 0; l < k; l++)
      kept[l] = s[l].label;
    free (s);
    qsort (kept, (size_t) k, sizeof (*kept), by_label);
  }
  return k;
}
