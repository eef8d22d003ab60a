/* cudaimgproc: the CPU references against OpenCV's own results (no GPU).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The golden values were produced by OpenCV 4.6 (Debian's python3-opencv):
 * tests/crosscheck_opencv.py recomputes them, also against OpenCV 5 on the
 * GPU host.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/video/video.h>

#include "cpu_ref.h"
#include "gray.h"
#include "histogram.h"
#include "overlay.h"
#include "thin3d_lee.h"

static int failures, passes;

#define CHECK(cond, ...) do { \
    if (cond) { passes++; } else { failures++; \
      printf ("FAIL %s:%d: ", __FILE__, __LINE__); printf (__VA_ARGS__); \
      printf ("\n"); } } while (0)

/* cv2.cvtColor (img, COLOR_RGB2GRAY) of a 4x16 image, random but for the
 * first five pixels: white, black, red, green, blue. */
static const uint8_t golden_rgb[4 * 16 * 3] = {
  255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 97, 180, 60, 222,
  43, 124, 221, 89, 236, 142, 62, 218, 26, 82, 70, 254, 66, 132, 30, 135, 35,
  70, 88, 176, 81, 250, 118, 58, 137, 31, 58, 59, 30, 135, 81, 189, 203, 82,
  101, 228, 61, 155, 242, 58, 201, 134, 112, 139, 81, 220, 75, 34, 203, 188,
  229, 205, 246, 251, 14, 85, 245, 182, 141, 126, 67, 48, 223, 60, 142, 247,
  198, 229, 112, 2, 56, 53, 65, 77, 126, 32, 156, 93, 70, 168, 229, 8, 73,
  22, 221, 116, 168, 94, 165, 3, 57, 31, 221, 205, 89, 186, 132, 145, 5, 197,
  172, 173, 50, 128, 244, 119, 134, 237, 168, 112, 39, 25, 12, 212, 157, 90,
  188, 242, 169, 25, 189, 60, 98, 6, 57, 72, 104, 249, 221, 139, 135, 12, 44,
  165, 102, 233, 201, 0, 132, 211, 222, 62, 150, 155, 123, 64, 63, 101, 15,
  203, 175, 142, 41, 129, 60, 6, 175, 23, 234, 163, 10, 60, 65, 214, 171, 36,
  172, 197, 35, 166, 172, 107, 156
};

static const uint8_t golden_gray[4 * 16] = {
  255, 0, 76, 150, 29, 142, 106, 145, 104, 64, 130, 92, 93, 184, 101, 55, 109,
  120, 122, 129, 122, 162, 151, 217, 93, 196, 82, 118, 216, 41, 63, 74, 88,
  81, 150, 124, 38, 197, 150, 137, 96, 158, 182, 28, 166, 218, 125, 39, 111,
  163, 48, 190, 102, 120, 126, 80, 180, 95, 107, 167, 80, 92, 98, 132
};

/* Checksums of cv2.cvtColor (COLOR_RGB2GRAY) over all 2^24 colours laid out
 * as a 4096x4096 image, pixel i = (R, G, B) = (i >> 16, i >> 8, i) & 255:
 * sum of gray values, and sum of gray[i] * (uint32) (i * 2654435761). */
#define ALL_COLOURS_SUM 2139096404ull
#define ALL_COLOURS_WSUM 4593675103442398182ull

static void
test_golden_block (void)
{
  uint8_t out[64];

  ref_gray_packed (golden_rgb, 16 * 3, 3, 0, 1, 2, out, 16, 16, 4,
      CIP_GRAY_BT601_R, CIP_GRAY_BT601_G, CIP_GRAY_BT601_B, CIP_GRAY_SCALE_ONE);
  CHECK (memcmp (out, golden_gray, 64) == 0, "4x16 block differs from OpenCV");

  /* The same pixels read as BGR with swapped offsets give the same gray. */
  {
    uint8_t bgr[64 * 3];
    for (int i = 0; i < 64; i++) {
      bgr[i * 3] = golden_rgb[i * 3 + 2];
      bgr[i * 3 + 1] = golden_rgb[i * 3 + 1];
      bgr[i * 3 + 2] = golden_rgb[i * 3];
    }
    ref_gray_packed (bgr, 16 * 3, 3, 2, 1, 0, out, 16, 16, 4,
        CIP_GRAY_BT601_R, CIP_GRAY_BT601_G, CIP_GRAY_BT601_B,
        CIP_GRAY_SCALE_ONE);
    CHECK (memcmp (out, golden_gray, 64) == 0, "BGR offsets differ");
  }
}

static void
test_all_colours (void)
{
  const int n = 1 << 24;
  uint8_t *rgb = malloc ((size_t) n * 3), *gray = malloc (n);
  unsigned long long sum = 0, wsum = 0;

  for (int i = 0; i < n; i++) {
    rgb[i * 3] = (i >> 16) & 255;
    rgb[i * 3 + 1] = (i >> 8) & 255;
    rgb[i * 3 + 2] = i & 255;
  }
  ref_gray_packed (rgb, 4096 * 3, 3, 0, 1, 2, gray, 4096, 4096, 4096,
      CIP_GRAY_BT601_R, CIP_GRAY_BT601_G, CIP_GRAY_BT601_B, CIP_GRAY_SCALE_ONE);
  for (int i = 0; i < n; i++) {
    sum += gray[i];
    wsum += (unsigned long long) gray[i] * (uint32_t) (i * 2654435761u);
  }
  CHECK (sum == ALL_COLOURS_SUM && wsum == ALL_COLOURS_WSUM,
      "all 2^24 colours: checksums %llu %llu differ from OpenCV's", sum, wsum);
  free (rgb);
  free (gray);
}

static void
test_weights_and_scale (void)
{
  const uint8_t white[4] = { 255, 255, 255, 0 }, black[4] = { 0 };
  uint8_t o;
  const uint8_t px = 200;

  /* Both matrices keep white white and black black. */
  ref_gray_packed (white, 4, 4, 0, 1, 2, &o, 1, 1, 1, CIP_GRAY_BT709_R,
      CIP_GRAY_BT709_G, CIP_GRAY_BT709_B, CIP_GRAY_SCALE_ONE);
  CHECK (o == 255, "BT.709 white gives %d", o);
  ref_gray_packed (black, 4, 4, 0, 1, 2, &o, 1, 1, 1, CIP_GRAY_BT709_R,
      CIP_GRAY_BT709_G, CIP_GRAY_BT709_B, CIP_GRAY_SCALE_ONE);
  CHECK (o == 0, "BT.709 black gives %d", o);
  CHECK (CIP_GRAY_BT601_R + CIP_GRAY_BT601_G + CIP_GRAY_BT601_B == 32768 &&
      CIP_GRAY_BT709_R + CIP_GRAY_BT709_G + CIP_GRAY_BT709_B == 32768,
      "weights do not sum to 1.0");

  /* scale: 0.5 of 200 is 100, 2.0 saturates, 0.25 of 3 rounds 0.75 up. */
  ref_gray_luma (&px, 1, &o, 1, 1, 1, 32768);
  CHECK (o == 100, "scale 0.5 gives %d", o);
  ref_gray_luma (&px, 1, &o, 1, 1, 1, 131072);
  CHECK (o == 255, "scale 2.0 gives %d", o);
  {
    const uint8_t three = 3;
    ref_gray_luma (&three, 1, &o, 1, 1, 1, 16384);
    CHECK (o == 1, "scale 0.25 of 3 gives %d", o);
  }
}

/* cudaotsu's reference against OpenCV's thresholds (tests/data). */
static void
test_otsu_golden (const char *path)
{
  FILE *f = fopen (path, "r");
  char line[8192], name[64];
  int n = 0;

  CHECK (f != NULL, "cannot open %s", path);
  if (!f)
    return;
  while (fgets (line, sizeof (line), f)) {
    uint32_t hist[256];
    unsigned long long total, sum = 0;
    int t, off, pos, i, got;

    if (line[0] == '#')
      continue;
    if (sscanf (line, "%63s %d %llu%n", name, &t, &total, &off) != 3)
      continue;
    pos = off;
    for (i = 0; i < 256; i++) {
      if (sscanf (line + pos, "%u%n", &hist[i], &off) != 1)
        break;
      pos += off;
      sum += hist[i];
    }
    CHECK (i == 256 && sum == total, "bad golden line %s", name);
    got = ref_otsu_threshold (hist, total);
    CHECK (got == t, "otsu %s (%llu px): %d, OpenCV %d", name, total, got, t);
    n++;
  }
  fclose (f);
  CHECK (n >= 50, "only %d golden cases", n);
}

static void
test_otsu_semantics (void)
{
  uint32_t h[256] = { 0 };
  float ema = -1;
  uint8_t px[4] = { 0, 10, 11, 255 }, out[4];

  /* one value: no candidate, threshold 0 */
  h[77] = 100;
  CHECK (ref_otsu_threshold (h, 100) == 0, "uniform frame");
  /* binarize is strictly greater */
  ref_binarize (px, 4, out, 4, 4, 1, 10, 0);
  CHECK (out[0] == 0 && out[1] == 0 && out[2] == 255 && out[3] == 255,
      "binarize > t");
  ref_binarize (px, 4, out, 4, 4, 1, 10, 1);
  CHECK (out[0] == 255 && out[1] == 255 && out[2] == 0 && out[3] == 0,
      "inverted");
  /* offset clamps, smoothing starts at the first value */
  CHECK (ref_otsu_final (250, 20, 0, &ema) == 255, "clamp high");
  CHECK (ref_otsu_final (5, -20, 0, &ema) == 0, "clamp low");
  CHECK (ref_otsu_final (100, 0, 0.5, &ema) == 100 && ema == 100, "ema start");
  CHECK (ref_otsu_final (200, 0, 0.5, &ema) == 150, "ema step");
}

/* cudasobel's gradients against OpenCV's cv::Sobel (tests/data). */
static void
test_sobel_golden (const char *path)
{
  FILE *f = fopen (path, "r");
  static char line[65536];
  int n = 0;

  CHECK (f != NULL, "cannot open %s", path);
  if (!f)
    return;
  while (fgets (line, sizeof (line), f)) {
    int k, b, w, h, off, pos = 0, i, ok = 1;
    uint8_t *img;
    int32_t *gx, *gy, *ex, *ey;

    if (line[0] == '#' || sscanf (line, "%d %d %d %d%n", &k, &b, &w, &h,
            &off) != 4)
      continue;
    pos = off;
    img = malloc (w * h);
    gx = malloc (4 * w * h);
    gy = malloc (4 * w * h);
    ex = malloc (4 * w * h);
    ey = malloc (4 * w * h);
    for (i = 0; i < w * h; i++, pos += off) {
      int v;
      sscanf (line + pos, "%d%n", &v, &off);
      img[i] = v;
    }
    for (i = 0; i < w * h; i++, pos += off)
      sscanf (line + pos, "%d%n", &ex[i], &off);
    for (i = 0; i < w * h; i++, pos += off)
      sscanf (line + pos, "%d%n", &ey[i], &off);
    ref_sobel_grad (img, w, w, h, k, b, gx, gy);
    for (i = 0; i < w * h; i++)
      ok &= gx[i] == ex[i] && gy[i] == ey[i];
    CHECK (ok, "sobel %dx%d ksize %d border %d differs from OpenCV", w, h, k,
        b);
    free (img);
    free (gx);
    free (gy);
    free (ex);
    free (ey);
    n++;
  }
  fclose (f);
  CHECK (n == 54, "%d sobel golden cases", n);
}

/* Zhang-Suen and Guo-Hall against cv::ximgproc::thinning (hashes of its
 * outputs, tests/gen_thin_golden.py): on frames with a background margin
 * with either border rule, and on frames whose foreground touches the
 * border ("edge" lines) with OpenCV's rule, which there differs from
 * outside-is-background on most frames. */
static void
test_thin_golden (const char *path)
{
  FILE *f = fopen (path, "r");
  char line[256];
  int n = 0, n_edge = 0, differ = 0;

  CHECK (f != NULL, "cannot open %s", path);
  if (!f)
    return;
  while (fgets (line, sizeof line, f)) {
    int kind, w, h, method, i, edge, keep;
    unsigned seed, want;
    uint8_t *img, *copy;

    edge = strncmp (line, "edge ", 5) == 0;
    if (line[0] == '#' || sscanf (line + (edge ? 5 : 0), "%d %u %d %d %d %x",
            &kind, &seed, &w, &h, &method, &want) != 6)
      continue;
    img = malloc ((size_t) w * h);
    copy = malloc ((size_t) w * h);
    ref_thin_frame (copy, w, h, kind, seed, !edge);
    for (keep = 0; keep < 2; keep++) {
      uint32_t got;
      memcpy (img, copy, (size_t) w * h);
      ref_thin (img, w, h, method, 0, NULL, keep);
      for (i = 0; i < w * h; i++)
        img[i] *= 255;
      got = ref_fnv1a (img, (size_t) w * h);
      if (edge && !keep)
        differ += got != want;
      else
        CHECK (got == want, "thinning method %d (border %s) of %sframe kind "
            "%d seed %u %dx%d differs from OpenCV's", method, keep ?
            "opencv" : "background", edge ? "edge " : "", kind, seed, w, h);
    }
    free (img);
    free (copy);
    n += !edge;
    n_edge += edge;
  }
  fclose (f);
  CHECK (n == 84 && n_edge == 120, "%d + %d thinning golden cases", n, n_edge);
  CHECK (differ > n_edge / 2, "only %d of %d edge frames tell the border "
      "rules apart", differ, n_edge);
  printf ("thin: OpenCV's border rule on %d edge frames, %d of which thin "
      "otherwise with the outside as background\n", n_edge, differ);
}

/* cudasmooth's box, Gaussian and median against cv2.blur, GaussianBlur and
 * medianBlur (hashes of their outputs, tests/gen_smooth_golden.py), every
 * channel filtered as OpenCV does; and the Gaussian's 1/256 taps for a
 * sweep of sigmas. */
static void
test_smooth_golden (const char *path)
{
  FILE *f = fopen (path, "r");
  char line[256];
  int n = 0, nt = 0;

  CHECK (f != NULL, "cannot open %s", path);
  if (!f)
    return;
  while (fgets (line, sizeof line, f)) {
    int m, k, b, w, h, bpp, kind, off, i, taps[7], want[7], ok = 1;
    unsigned seed, hash;
    double sigma;
    uint8_t *img, *out;

    if (sscanf (line, "taps %d %lf%n", &k, &sigma, &off) == 2) {
      ref_gaussian_taps_q8 (k, sigma, taps);
      for (i = 0; i < k; i++) {
        int used;
        ok &= sscanf (line + off, "%d%n", &want[i], &used) == 1 &&
            taps[i] == want[i];
        off += used;
      }
      CHECK (ok, "Gaussian taps ksize %d sigma %g differ from OpenCV's", k,
          sigma);
      nt++;
      continue;
    }
    if (line[0] == '#' || sscanf (line, "%d %d %lf %d %d %d %d %d %u %x", &m,
            &k, &sigma, &b, &w, &h, &bpp, &kind, &seed, &hash) != 10)
      continue;
    img = malloc ((size_t) w * h * bpp);
    out = malloc ((size_t) w * h * bpp);
    ref_smooth_frame (img, w * bpp, w, h, bpp, kind, seed);
    ref_smooth (img, w * bpp, out, w * bpp, w, h, bpp, -1, m, k, sigma, b);
    CHECK (ref_fnv1a (out, (size_t) w * h * bpp) == hash,
        "smooth method %d ksize %d sigma %g border %d on %dx%d x%d (kind %d) "
        "differs from OpenCV's", m, k, sigma, b, w, h, bpp, kind);
    free (img);
    free (out);
    n++;
  }
  fclose (f);
  CHECK (n == 2880 && nt == 1200, "%d smoothing, %d taps golden cases", n, nt);
}

/* The triangular smooth by its definition, and what holds for every
 * method: a flat frame stays flat, alpha is untouched, and a 1x1 frame is
 * itself. */
static void
test_smooth_semantics (void)
{
  uint8_t img[9 * 7 * 4], out[9 * 7 * 4];
  int m, i, b;

  /* one bright pixel: the triangular weights, over 81 and rounded */
  memset (img, 0, sizeof img);
  img[3 * 9 + 4] = 255;
  ref_smooth (img, 9, out, 9, 9, 7, 1, -1, REF_SMOOTH_TRIANGULAR, 5, 0, 1);
  CHECK (out[3 * 9 + 4] == (9 * 255 + 40) / 81 &&
      out[1 * 9 + 2] == (255 + 40) / 81 && out[2 * 9 + 4] == (6 * 255 + 40) / 81
      && out[0] == 0, "triangular impulse %d %d %d", out[3 * 9 + 4],
      out[1 * 9 + 2], out[2 * 9 + 4]);
  for (m = 0; m < 4; m++)
    for (b = 0; b < 2; b++) {
      int ok = 1;
      for (i = 0; i < 9 * 7 * 4; i++)
        img[i] = (i % 4 == 3) ? (uint8_t) (i * 7) : 77;
      ref_smooth (img, 36, out, 36, 9, 7, 4, 3, m, m == 3 ? 5 : 7, 1.3, b);
      for (i = 0; i < 9 * 7 * 4; i++)
        ok &= out[i] == img[i];
      CHECK (ok, "method %d border %d: flat frame or alpha changed", m, b);
      img[0] = 200;
      ref_smooth (img, 1, out, 1, 1, 1, 1, -1, m, 5, 0, b);
      CHECK (out[0] == 200, "method %d: 1x1 frame became %d", m, out[0]);
    }
}

/* Properties every method has, and Hilditch's definition on small cases. */
static void
test_thin_semantics (void)
{
  uint8_t img[16 * 12], copy[16 * 12];
  int method, conv, i;
  unsigned p, p1, p2;

  for (method = 0; method < 3; method++) {
    /* empty, a single pixel, a one-pixel line: nothing to remove */
    memset (img, 0, sizeof img);
    p = ref_thin (img, 16, 12, method, 0, &conv, 0);
    CHECK (p == 0 && conv, "method %d: empty frame took %u passes", method, p);
    img[5 * 16 + 7] = 255;
    p = ref_thin (img, 16, 12, method, 0, &conv, 0);
    CHECK (p == 0 && conv && img[5 * 16 + 7] == 1,
        "method %d: a single pixel changed", method);
    memset (img, 0, sizeof img);
    for (i = 2; i < 14; i++)
      img[6 * 16 + i] = 1;
    memcpy (copy, img, sizeof img);
    p = ref_thin (img, 16, 12, method, 0, &conv, 0);
    CHECK (p == 0 && !memcmp (img, copy, sizeof img),
        "method %d: a one-pixel line changed", method);

    /* a full frame thins, the skeleton is a fixed point, and max_passes
     * stops exactly where asked: 1 pass then the rest = all at once */
    memset (img, 255, sizeof img);
    p = ref_thin (img, 16, 12, method, 0, &conv, 0);
    memcpy (copy, img, sizeof img);
    CHECK (p > 0 && conv, "method %d: a full frame took %u passes", method, p);
    p2 = ref_thin (img, 16, 12, method, 0, &conv, 0);
    CHECK (p2 == 0 && conv && !memcmp (img, copy, sizeof img),
        "method %d: thinning a skeleton changed it", method);
    memset (img, 255, sizeof img);
    p1 = ref_thin (img, 16, 12, method, 1, &conv, 0);
    CHECK (p1 == 1 && !conv, "method %d: max_passes 1 ran %u", method, p1);
    p2 = ref_thin (img, 16, 12, method, 0, &conv, 0);
    CHECK (p1 + p2 == p && !memcmp (img, copy, sizeof img),
        "method %d: 1 + %u passes differ from %u", method, p2, p);
  }

  /* Hilditch's definition worked by hand: in a 3x3 square every ring
   * pixel has TR = 1 and no P2.P4.P8 / P2.P4.P6 veto, so one pass leaves
   * the centre; a 2x2 square has no interior and vanishes in one pass
   * (the one-pass parallel form does not keep 2-pixel-thick parts). */
  for (i = 2; i <= 3; i++) {
    int y, x, left = 0;

    memset (img, 0, sizeof img);
    for (y = 0; y < i; y++)
      for (x = 0; x < i; x++)
        img[(4 + y) * 16 + 4 + x] = 1;
    p = ref_thin (img, 16, 12, 0, 0, &conv, 0);
    for (y = 0; y < 16 * 12; y++)
      left += img[y];
    CHECK (p == 1 && left == (i == 3) && (i == 2 || img[5 * 16 + 5]),
        "Hilditch %dx%d square: %u passes, %d pixels left", i, i, p, left);
  }
}

/* k-means: separable colours are found exactly; one colour gives one
 * cluster, the others re-seeded without NaN. */
static void
test_kmeans_semantics (void)
{
  static const uint8_t pal[3][3] = { {250, 10, 10}, {10, 250, 10},
  {10, 10, 250}
  };
  uint8_t img[40 * 30 * 3], labels[40 * 30];
  float c[64][5];
  uint32_t counts[64];
  int i, j, found, it;

  for (i = 0; i < 40 * 30; i++)
    memcpy (img + 3 * i, pal[(i % 40) / 14], 3);
  it = ref_kmeans (img, 40 * 3, 3, 0, 1, 2, 40, 30, 3, 20, 0.0f, 0.0f, 0, 1,
      0, c, labels, counts);
  for (j = 0, found = 0; j < 3; j++)
    for (i = 0; i < 3; i++)
      found += c[j][0] == pal[i][0] && c[j][1] == pal[i][1] &&
          c[j][2] == pal[i][2] && counts[j] == (i < 2 ? 14 * 30 : 12 * 30);
  CHECK (found == 3 && it <= 3, "k-means on 3 colours: %d found, %d "
      "iterations", found, it);

  memset (img, 77, sizeof img);
  it = ref_kmeans (img, 40 * 3, 3, 0, 1, 2, 40, 30, 4, 10, 1.0f, 0.0f, 0, 1,
      0, c, labels, counts);
  for (j = 0, found = 0; j < 4; j++)
    found += c[j][0] == c[j][0] && counts[j] == (j == 0 ? 1200u : 0u);
  CHECK (found == 4, "k-means on one colour");

  /* inertia: exact on separable colours (every pixel on its centre: 0);
   * attempts keep the lowest, and one attempt is ref_kmeans itself */
  for (i = 0; i < 40 * 30; i++) {
    img[3 * i] = (uint8_t) ((i * 37) % 251);
    img[3 * i + 1] = (uint8_t) ((i * 11) % 97 + (i % 40) * 3);
    img[3 * i + 2] = (uint8_t) ((i / 40) * 8);
  }
  {
    float c1[64][5];
    uint8_t l1[40 * 30];
    uint32_t n1[64];
    uint64_t best, one, q, each[8];
    int a, it1, amin;

    it = ref_kmeans_attempts (img, 40 * 3, 3, 0, 1, 2, 40, 30, 5, 30, 0.0f,
        0.0f, 0, 3, 1, c, labels, counts, &one, NULL);
    it1 = ref_kmeans (img, 40 * 3, 3, 0, 1, 2, 40, 30, 5, 30, 0.0f, 0.0f, 0,
        3, 0, c1, l1, n1);
    CHECK (it == it1 && !memcmp (c, c1, sizeof (float) * 25) &&
        !memcmp (labels, l1, sizeof l1) && one == ref_kmeans_inertia (img,
            40 * 3, 3, 0, 1, 2, 40, 30, 0.0f, c1, 5), "k-means: one attempt "
        "is ref_kmeans");
    ref_kmeans_attempts (img, 40 * 3, 3, 0, 1, 2, 40, 30, 5, 30, 0.0f, 0.0f,
        0, 3, 8, c, labels, counts, &best, each);
    for (a = 0, found = 1; a < 8; a++) {
      ref_kmeans (img, 40 * 3, 3, 0, 1, 2, 40, 30, 5, 30, 0.0f, 0.0f, 0,
          3 + (uint32_t) a * 0x9e3779b9u, 0, c1, l1, n1);
      q = ref_kmeans_inertia (img, 40 * 3, 3, 0, 1, 2, 40, 30, 0.0f, c1, 5);
      found &= best <= q && each[a] == q;
      found &= a != 0 || q == one;
    }
    CHECK (found && best <= one, "k-means: 8 attempts keep the lowest "
        "inertia (%" PRIu64 " of %" PRIu64 " for the first)", best, one);
    /* the attempts run side by side: the kept one is still the earliest
     * of the lowest, whole (k = 4 from seed 2: the eighth attempt) */
    it = ref_kmeans_attempts (img, 40 * 3, 3, 0, 1, 2, 40, 30, 4, 30, 0.0f,
        0.0f, 0, 2, 8, c, labels, counts, &best, each);
    for (a = 1, amin = 0; a < 8; a++)
      if (each[a] < each[amin])
        amin = a;
    it1 = ref_kmeans (img, 40 * 3, 3, 0, 1, 2, 40, 30, 4, 30, 0.0f, 0.0f, 0,
        2 + (uint32_t) amin * 0x9e3779b9u, 0, c1, l1, n1);
    CHECK (amin != 0 && it == it1 && best == each[amin] &&
        !memcmp (c, c1, sizeof (float) * 20) && !memcmp (labels, l1,
            sizeof l1) && !memcmp (counts, n1, sizeof (uint32_t) * 4),
        "k-means: the kept attempt (%d of 8) whole", amin);
    for (i = 0; i < 40 * 30; i++)
      memcpy (img + 3 * i, pal[(i % 40) / 14], 3);
    ref_kmeans (img, 40 * 3, 3, 0, 1, 2, 40, 30, 3, 20, 0.0f, 0.0f, 0, 1, 0,
        c1, l1, n1);
    CHECK (ref_kmeans_inertia (img, 40 * 3, 3, 0, 1, 2, 40, 30, 0.0f, c1,
            3) == 0, "k-means: inertia of an exact fit is 0");
  }
  /* a pass in bands on threads: the same bits as one walk (colour and
   * position, k = 5 and 12; then two colours and k = 4, where k-means++
   * repeats a centre, and one pixel of a third colour that no sample
   * sees, in the last band: the empty cluster moves to it) */
  {
    enum
    { W = 203, H = 151 };
    uint8_t *big = malloc (W * H * 3), *l[2];
    float cc[2][64][5];
    uint32_t n[2][64];
    int t, its[2];
    uint32_t s = 5;

    for (i = 0; i < W * H * 3; i++) {
      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      big[i] = (uint8_t) ((i / 3 % W) / 51 * 60 + (s & 3));
    }
    for (t = 0; t < 5; t++) {
      const float sw = t & 1 ? 0.5f : 0.0f;
      const int kk = t == 4 ? 4 : t & 2 ? 12 : 5;
      int r;
      if (t == 4) {
        static const uint8_t two[2][3] = { {10, 20, 30}, {200, 190, 180} };
        for (i = 0; i < W * H; i++)
          memcpy (big + 3 * i, two[i % W >= W / 2], 3);
        big[3 * (W * H - 1)] = 90;      /* (202, 150): off the grid */
        big[3 * (W * H - 1) + 1] = 250;
        big[3 * (W * H - 1) + 2] = 10;
      }
      for (r = 0; r < 2; r++) {
        l[r] = malloc (W * H);
        ref_kmeans_set_threads (r ? 4 : 1);
        its[r] = ref_kmeans (big, W * 3, 3, 0, 1, 2, W, H, kk, 15, 0.0f, sw,
            0, 9, 0, cc[r], l[r], n[r]);
      }
      ref_kmeans_set_threads (0);
      CHECK (its[0] == its[1] && !memcmp (cc[0], cc[1], sizeof (float) * 5 *
              kk) && !memcmp (n[0], n[1], sizeof (uint32_t) * kk) &&
          !memcmp (l[0], l[1], W * H), "k-means: 4 bands the same as one "
          "(k %d, spatial %g)", kk, sw);
      free (l[0]);
      free (l[1]);
    }
    free (big);
  }
}

/* Exact R'G'B' <-> Y'CbCr in double (BT.601/709 definitions), unclamped. */
static void
exact_yuv (double kr, double kb, int full, int dir, const int *in, double *o)
{
  const double kg = 1.0 - kr - kb, ys = full ? 1.0 : 219.0 / 255.0;
  const double cs = full ? 1.0 : 224.0 / 255.0, yo = full ? 0.0 : 16.0;

  if (dir) {
    const double l = kr * in[0] + kg * in[1] + kb * in[2];
    o[0] = yo + ys * l;
    o[1] = 128.0 + cs * (in[2] - l) / (2.0 * (1.0 - kb));
    o[2] = 128.0 + cs * (in[0] - l) / (2.0 * (1.0 - kr));
  } else {
    const double l = (in[0] - yo) / ys, u = (in[1] - 128) / cs;
    const double v = (in[2] - 128) / cs;
    o[0] = l + 2.0 * (1.0 - kr) * v;
    o[1] = l - 2.0 * kb * (1.0 - kb) / kg * u - 2.0 * kr * (1.0 - kr) / kg * v;
    o[2] = l + 2.0 * (1.0 - kb) * u;
  }
}

/* cip_yuv's fixed point on every 4th Y, U, V and every 4th R, G, B, BT.601
 * and BT.709, both ranges: within rounding (0.5 plus the coefficients'
 * 2^-17) of the exact conversion, clamped.  GStreamer's own converter
 * (videoconvert) is the cross-check that Kr, Kb and the range mean what
 * they mean there: on in-gamut colours it is within 6 (its 8-bit matrix
 * truncates: some colours come out up to 6 off in Debian's 1.22, where we
 * stay within rounding of the exact value), which still catches swapped
 * chroma or a wrong range (tens off). */
static void
test_yuv_conversion (void)
{
  static const struct
  {
    GstVideoColorMatrix matrix;
    GstVideoColorRange range;
    const char *name;
  } cases[] = {
    {GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_RANGE_16_235,
        "BT.601 limited"},
    {GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_16_235,
        "BT.709 limited"},
    {GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_RANGE_0_255, "BT.601 full"},
    {GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_0_255, "BT.709 full"},
  };
  const int n = 64, w = n * n, h = n;
  guint c, dir;

  gst_init (NULL, NULL);
  for (c = 0; c < G_N_ELEMENTS (cases); c++)
    for (dir = 0; dir < 2; dir++) {
      const int full = cases[c].range == GST_VIDEO_COLOR_RANGE_0_255;
      GstVideoInfo yuv, rgb, *in, *out;
      GstVideoFrame fin, fout;
      GstBuffer *bin, *bout;
      GstVideoConverter *conv;
      CipYuvMatrix m;
      gdouble kr, kb, err = 0.0;
      int worst = 0, i, j, ch;

      gst_video_info_set_format (&yuv, GST_VIDEO_FORMAT_Y444, w, h);
      yuv.colorimetry.matrix = cases[c].matrix;
      yuv.colorimetry.range = cases[c].range;
      gst_video_info_set_format (&rgb, GST_VIDEO_FORMAT_RGB, w, h);
      /* only the matrix differs: no primaries or transfer conversion */
      yuv.colorimetry.primaries = rgb.colorimetry.primaries;
      yuv.colorimetry.transfer = rgb.colorimetry.transfer;
      in = dir ? &rgb : &yuv;
      out = dir ? &yuv : &rgb;
      gst_video_color_matrix_get_Kr_Kb (cases[c].matrix, &kr, &kb);
      cip_yuv_matrix_init (&m, kr, kb, full);
      bin = gst_buffer_new_allocate (NULL, in->size, NULL);
      bout = gst_buffer_new_allocate (NULL, out->size, NULL);
      gst_video_frame_map (&fin, in, bin, GST_MAP_WRITE);
      gst_video_frame_map (&fout, out, bout, GST_MAP_WRITE);
      for (j = 0; j < h; j++)
        for (i = 0; i < w; i++)
          for (ch = 0; ch < 3; ch++) {
            const int val = ch == 0 ? j * 4 + 2 : ch == 1 ? (i / n) * 4 + 1 :
                (i % n) * 4;
            if (dir)
              ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, 0))[j *
                  GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0) + 3 * i + ch] = val;
            else
              ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, ch))[j *
                  GST_VIDEO_FRAME_PLANE_STRIDE (&fin, ch) + i] = val;
          }
      conv = gst_video_converter_new (in, out,
          gst_structure_new ("options", GST_VIDEO_CONVERTER_OPT_DITHER_METHOD,
              GST_TYPE_VIDEO_DITHER_METHOD, GST_VIDEO_DITHER_NONE, NULL));
      gst_video_converter_frame (conv, &fin, &fout);
      for (j = 0; j < h; j++)
        for (i = 0; i < w; i++) {
          const int v[3] = { j * 4 + 2, (i / n) * 4 + 1, (i % n) * 4 };
          int o[3], g[3], gamut = 1;
          double e[3];

          exact_yuv (kr, kb, full, dir, v, e);
          if (dir)
            cip_rgb_to_yuv (&m, v[0], v[1], v[2], &o[0], &o[1], &o[2]);
          else
            cip_yuv_to_rgb (&m, v[0], v[1], v[2], &o[0], &o[1], &o[2]);
          for (ch = 0; ch < 3; ch++) {
            g[ch] = dir ? ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout,
                    ch))[j * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, ch) + i] :
                ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0))[j *
                GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0) + 3 * i + ch];
            gamut &= e[ch] > -0.5 && e[ch] < 255.5;
            err = MAX (err, fabs (o[ch] - CLAMP (e[ch], 0.0, 255.0)));
          }
          for (ch = 0; ch < 3 && gamut; ch++)
            worst = MAX (worst, ABS (o[ch] - g[ch]));
        }
      CHECK (err <= 0.51 && worst <= 6, "%s %s: %.3f from the "
          "exact conversion, %d from GStreamer's converter",
          dir ? "RGB to YUV" : "YUV to RGB", cases[c].name, err, worst);
      printf ("yuv: %s %s: at most %.3f from exact, %d from GStreamer\n",
          dir ? "RGB to YUV" : "YUV to RGB", cases[c].name, err, worst);
      gst_video_converter_free (conv);
      gst_video_frame_unmap (&fin);
      gst_video_frame_unmap (&fout);
      gst_buffer_unref (bin);
      gst_buffer_unref (bout);
    }
}

/* The 4:2:0 paths: I420 and NV12 read the same R'G'B', and the painted
 * chroma is the rounded mean over the 2x2 pixels (odd edges included). */
static void
test_yuv420_semantics (void)
{
  const int w = 5, h = 3, cw = 3;
  uint8_t y[5 * 3], u[3 * 2], v[3 * 2], uv[6 * 2], a[5 * 3 * 3], b[5 * 3 * 3];
  uint8_t labels[5 * 3], py[5 * 3], pu[3 * 2], pv[3 * 2];
  float centres[2][5] = { {250, 10, 10, 0, 0}, {10, 10, 250, 0, 0} };
  CipYuvMatrix m;
  int i, yuv0[3], yuv1[3];

  cip_yuv_matrix_init (&m, 0.299, 0.114, 0);
  for (i = 0; i < w * h; i++)
    y[i] = (uint8_t) (16 + i * 13);
  for (i = 0; i < cw * 2; i++) {
    u[i] = (uint8_t) (40 + i * 30);
    v[i] = (uint8_t) (200 - i * 25);
    uv[2 * i] = u[i];
    uv[2 * i + 1] = v[i];
  }
  ref_yuv420_to_rgb (y, w, u, v, cw, 1, w, h, &m, a);
  ref_yuv420_to_rgb (y, w, uv, uv + 1, 2 * cw, 2, w, h, &m, b);
  CHECK (memcmp (a, b, sizeof a) == 0, "I420 and NV12 differ");
  {
    int r, g, bb;
    cip_yuv_to_rgb (&m, y[1 * w + 3], u[1], v[1], &r, &g, &bb);
    CHECK (a[(1 * w + 3) * 3] == r && a[(1 * w + 3) * 3 + 2] == bb,
        "pixel (3, 1) uses chroma sample (1, 0)");
  }
  /* red left of column 2, blue from it */
  for (i = 0; i < w * h; i++)
    labels[i] = (i % w) >= 2;
  ref_kmeans_paint_yuv420 (labels, w, h, centres, 2, &m, py, w, pu, pv, cw, 1);
  cip_rgb_to_yuv (&m, 250, 10, 10, &yuv0[0], &yuv0[1], &yuv0[2]);
  cip_rgb_to_yuv (&m, 10, 10, 250, &yuv1[0], &yuv1[1], &yuv1[2]);
  CHECK (py[0] == yuv0[0] && py[4] == yuv1[0], "painted luma");
  CHECK (pu[0] == yuv0[1] && pu[1] == yuv1[1] && pu[2] == yuv1[1] &&
      pu[5] == yuv1[1], "painted chroma of whole blocks");
  /* a block split half and half: the mean, rounded half up */
  for (i = 0; i < w * h; i++)
    labels[i] = (i % w) == 3;
  ref_kmeans_paint_yuv420 (labels, w, h, centres, 2, &m, py, w, pu, pv, cw, 1);
  CHECK (pu[1] == (yuv0[1] + yuv1[1] + 1) / 2 &&
      pv[1] == (yuv0[2] + yuv1[2] + 1) / 2 && pu[4] == pu[1],
      "split block chroma %d, expected %d", pu[1], (yuv0[1] + yuv1[1] + 1) / 2);
}

/* cudathin3d's lee94 semantics: ref_thin3d_lee () against scikit-image's
 * Lee skeleton (hashes of its skeletons of the same volumes,
 * tests/gen_thin3d_golden.py), and the topology of every result. */
static void
test_thin3d_golden (const char *path)
{
  FILE *f = fopen (path, "r");
  char line[256];
  int n = 0, bad = 0, topo = 0, lost = 0;

  CHECK (f != NULL, "cannot open %s", path);
  if (!f)
    return;
  while (fgets (line, sizeof line, f)) {
    int w, h, d, kind, objects, count = 0, fg, bg;
    unsigned seed, hash;
    uint8_t *v;
    size_t i;

    if (line[0] == '#' || sscanf (line, "%d %d %d %d %u %d %u", &w, &h, &d,
            &kind, &seed, &objects, &hash) != 7)
      continue;
    v = malloc ((size_t) w * h * d);
    ref_thin3d_volume (v, w, h, d, kind, seed);
    fg = ref_volume_components (v, w, h, d, 1);
    bg = ref_volume_components (v, w, h, d, 0);
    ref_thin3d_lee (v, w, h, d, 0);
    {
      /* released scikit-image rechecks candidates for simplicity alone,
       * so a small component can go entirely (a solid cube vanishes):
       * object components may only be lost, the background never changes */
      const int fg2 = ref_volume_components (v, w, h, d, 1),
          bg2 = ref_volume_components (v, w, h, d, 0);
      if (bg2 != bg || fg2 > fg)
        topo++;
      if (fg2 < fg)
        lost++;
    }
    for (i = 0; i < (size_t) w * h * d; i++)
      count += v[i];
    if (count != objects || ref_fnv1a (v, (size_t) w * h * d) != hash) {
      if (bad++ < 5)
        printf ("thin3d %dx%dx%d kind %d seed %u: %d voxels (skimage %d)\n",
            w, h, d, kind, seed, count, objects);
    }
    free (v);
    n++;
  }
  fclose (f);
  CHECK (bad == 0, "%d of %d volumes differ from skimage's skeletonize_3d",
      bad, n);
  CHECK (n == 77, "%d thin3d golden cases", n);
  CHECK (topo == 0, "%d of %d volumes gained object components or changed "
      "the background's", topo, n);
  printf ("thin3d lee94 (as scikit-image 0.26): %d of %d volumes lose whole "
      "object components; scikit-image's main branch rechecks more and "
      "keeps them\n", lost, n);
}

/* Index in a 3x3x3 neighbourhood of voxel @j (a + 2b + 4c) of octant @o
 * (bit 0, 1, 2 set: the octant lies towards +x, +y, +z) */
static int
lee_octant_voxel (int o, int j)
{
  return ((j >> 2) * (o & 4 ? 1 : -1) + 1) * 9 +
      ((j >> 1 & 1) * (o & 2 ? 1 : -1) + 1) * 3 +
      (j & 1) * (o & 1 ? 1 : -1) + 1;
}

/* Lee's condition as the kernels test it: kernels/thin3d_lee.h's changes
 * of the 8 octants summed to zero */
static int
lee_octants_invariant (const uint8_t n[27])
{
  int o, j, sum = 0;

  for (o = 0; o < 8; o++) {
    unsigned cfg = 0;
    for (j = 1; j < 8; j++)
      if (n[lee_octant_voxel (o, j)])
        cfg |= 1u << (j - 1);
    sum += cip_lee_octant_delta (cfg);
  }
  return sum == 0;
}

/* The kernels' Euler condition against the reference's, which counts the
 * cells of the union of the voxels' cubes before and after the deletion:
 * every configuration of each single octant around an object centre, and a
 * million random neighbourhoods of every density. */
static void
test_thin3d_lee_euler (void)
{
  uint32_t rng = 12345;
  int o, cfg, i, j, bad = 0;

  for (o = 0; o < 8; o++)
    for (cfg = 0; cfg < 128; cfg++) {
      uint8_t n[27] = { 0 };
      n[13] = 1;
      for (j = 1; j < 8; j++)
        if (cfg >> (j - 1) & 1)
          n[lee_octant_voxel (o, j)] = 1;
      bad += lee_octants_invariant (n) != ref_thin3d_lee_euler_invariant (n);
    }
  for (i = 0; i < 1000000; i++) {
    uint8_t n[27];
    for (j = 0; j < 27; j++) {
      rng = rng * 1664525u + 1013904223u;
      n[j] = (int) ((rng >> 8) % 10) <= i % 9;
    }
    n[13] = 1;
    bad += lee_octants_invariant (n) != ref_thin3d_lee_euler_invariant (n);
  }
  CHECK (bad == 0, "%d neighbourhoods where the octant table and the cell "
      "count disagree on Lee's Euler condition", bad);
}

/* Number of voxels of a 0/1 volume that some sub-iteration of PK12 would
 * still delete: 0 for a finished skeleton. */
static size_t
thin3d_pk_left (const uint8_t * v, int w, int h, int d)
{
  size_t left = 0;
  int x, y, z, k;

  for (z = 0; z < d; z++)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        for (k = 0; k < 12; k++)
          if (ref_thin3d_pk_deletable (v, w, h, d, x, y, z, k)) {
            left++;
            break;
          }
  return left;
}

/* cudathin3d's pk12 semantics: the template set is its own mirror image
 * along the E-W axis and under U <-> S (so each direction's templates are
 * the same whichever way the US ones are turned onto it), lines stay, and
 * every test volume keeps its topology and ends with nothing deletable. */
static void
test_thin3d_pk (void)
{
  static const int sizes[][3] = {
    {1, 1, 1}, {3, 2, 1}, {2, 2, 2}, {5, 4, 3}, {7, 7, 7}, {9, 8, 7},
    {16, 16, 16}, {17, 13, 11}, {24, 20, 16}, {33, 9, 5}, {6, 30, 12}
  };
  uint32_t s = 12345u;
  int i, k, bad = 0, matches = 0, cases = 0, topo = 0, left = 0;

  for (i = 0; i < 400000; i++) {
    uint8_t t[27], mirror[27], swap[27];
    int j;
    for (j = 0; j < 27; j++) {
      s = s * 1664525u + 1013904223u;
      t[j] = (s >> 20) % 10 < 3;
    }
    t[13] = 1;
    for (j = 0; j < 27; j++) {
      const int a = j % 3, b = j / 3 % 3, c = j / 9;
      mirror[j] = t[9 * c + 3 * b + (2 - a)];
      /* (a, b, c) -> (a, 2 - c, 2 - b): the U face to the S face */
      swap[j] = t[9 * (2 - b) + 3 * (2 - c) + a];
    }
    k = ref_thin3d_pk_match (t);
    matches += k;
    if (k != ref_thin3d_pk_match (mirror) || k != ref_thin3d_pk_match (swap))
      bad++;
  }
  CHECK (bad == 0, "%d configurations match differently mirrored or with "
      "U and S swapped", bad);
  CHECK (matches > 1000, "only %d random configurations match", matches);

  {
    /* a one-voxel line and a lone voxel are skeletons already */
    uint8_t v[9 * 5 * 4] = { 0 };
    int x;
    for (x = 1; x < 8; x++)
      v[(2 * 5 + 2) * 9 + x] = 1;
    v[(0 * 5 + 0) * 9 + 8] = 1;
    CHECK (ref_thin3d_pk (v, 9, 5, 4, 0) == 0, "a line lost voxels");
  }

  for (i = 0; i < (int) (sizeof sizes / sizeof sizes[0]); i++)
    for (k = 0; k < REF_THIN3D_KINDS; k++) {
      const int w = sizes[i][0], h = sizes[i][1], d = sizes[i][2];
      uint8_t *v = malloc ((size_t) w * h * d);
      int fg, bg;
      ref_thin3d_volume (v, w, h, d, k, 1000u + i * 16 + k);
      fg = ref_volume_components (v, w, h, d, 1);
      bg = ref_volume_components (v, w, h, d, 0);
      ref_thin3d_pk (v, w, h, d, 0);
      if (ref_volume_components (v, w, h, d, 1) != fg ||
          ref_volume_components (v, w, h, d, 0) != bg) {
        if (topo++ < 5)
          printf ("pk12 %dx%dx%d kind %d: components %d/%d -> %d/%d\n",
              w, h, d, k, fg, bg, ref_volume_components (v, w, h, d, 1),
              ref_volume_components (v, w, h, d, 0));
      }
      left += thin3d_pk_left (v, w, h, d) != 0;
      cases++;
      free (v);
    }
  CHECK (topo == 0, "%d of %d pk12 skeletons changed the topology", topo,
      cases);
  CHECK (left == 0, "%d of %d pk12 skeletons still have deletable voxels",
      left, cases);
}

/* cudaoverlay: the colour conversion's known values, and the blend's ends,
 * rounding, chroma means and mask stretching on small hand-made cases. */
static void
test_overlay_semantics (void)
{
  uint8_t yuv[3], alpha[256], colour[256 * 4], src[16], dst[16], mask[4];
  int i;

  cip_overlay_rgb_to_yuv (0.299, 0.114, 0, 255, 255, 255, yuv);
  CHECK (yuv[0] == 235 && yuv[1] == 128 && yuv[2] == 128, "white BT.601 "
      "studio: %d %d %d", yuv[0], yuv[1], yuv[2]);
  cip_overlay_rgb_to_yuv (0.299, 0.114, 0, 0, 0, 0, yuv);
  CHECK (yuv[0] == 16 && yuv[1] == 128 && yuv[2] == 128, "black: %d %d %d",
      yuv[0], yuv[1], yuv[2]);
  cip_overlay_rgb_to_yuv (0.299, 0.114, 0, 255, 0, 0, yuv);
  CHECK (yuv[0] == 81 && yuv[1] == 90 && yuv[2] == 240, "red BT.601: %d %d "
      "%d", yuv[0], yuv[1], yuv[2]);
  cip_overlay_rgb_to_yuv (0.2126, 0.0722, 1, 0, 0, 255, yuv);
  CHECK (yuv[0] == 18 && yuv[1] == 255 && yuv[2] == 116, "blue BT.709 full: "
      "%d %d %d", yuv[0], yuv[1], yuv[2]);

  for (i = 0; i < 256; i++) {
    alpha[i] = i;
    colour[i * 4] = 200;
  }
  /* a = 0: the input; a = 255: the colour; a = 128 over 0 with 255 */
  src[0] = 77;
  mask[0] = 0;
  ref_overlay_plane (src, 1, dst, 1, 1, 0, 0, 0, mask, 1, 1, 1, 1, 1, alpha,
      colour);
  CHECK (dst[0] == 77, "alpha 0 changed %d to %d", src[0], dst[0]);
  mask[0] = 255;
  ref_overlay_plane (src, 1, dst, 1, 1, 0, 0, 0, mask, 1, 1, 1, 1, 1, alpha,
      colour);
  CHECK (dst[0] == 200, "alpha 255 gave %d", dst[0]);
  src[0] = 0;
  colour[128 * 4] = 255;
  mask[0] = 128;
  ref_overlay_plane (src, 1, dst, 1, 1, 0, 0, 0, mask, 1, 1, 1, 1, 1, alpha,
      colour);
  CHECK (dst[0] == 128, "128/255 of 255 gave %d", dst[0]);
  /* a copied byte */
  src[0] = 5;
  src[1] = 6;
  mask[0] = 255;
  ref_overlay_plane (src, 2, dst, 2, 2, 2, 0, 0, mask, 1, 1, 1, 1, 1, alpha,
      colour);
  CHECK (dst[0] == 200 && dst[1] == 6, "keep: %d %d", dst[0], dst[1]);
  /* 4:2:0 chroma over 2x2 pixels, two painted: the mean of 100, 100, 200,
   * 200; over a 1x2 edge column: of 100 and 200, half up to 150 */
  src[0] = 100;
  mask[0] = 255;
  mask[1] = 0;
  mask[2] = 0;
  mask[3] = 255;
  ref_overlay_plane (src, 1, dst, 1, 1, 0, 1, 1, mask, 2, 2, 2, 2, 2, alpha,
      colour);
  CHECK (dst[0] == 150, "2x2 chroma mean %d", dst[0]);
  src[0] = 101;
  mask[0] = 255;
  mask[1] = 0;
  ref_overlay_plane (src, 1, dst, 1, 1, 0, 1, 1, mask, 1, 1, 2, 1, 2, alpha,
      colour);
  CHECK (dst[0] == 151, "1x2 chroma mean of 101 and 200: %d", dst[0]);
  /* a 1x2 mask stretched over 1x4: rows 0-1 read mask row 0, 2-3 row 1 */
  memset (src, 10, 4);
  mask[0] = 255;
  mask[1] = 0;
  ref_overlay_plane (src, 1, dst, 1, 1, 0, 0, 0, mask, 1, 1, 2, 1, 4, alpha,
      colour);
  CHECK (dst[0] == 200 && dst[1] == 200 && dst[2] == 10 && dst[3] == 10,
      "stretch: %d %d %d %d", dst[0], dst[1], dst[2], dst[3]);
}

/* cudablobs' labels and statistics against cv2.connectedComponentsWithStats
 * (hashes of its outputs, tests/gen_label_golden.py), both connectivities,
 * with OpenCV's numbering (cpu_ref.h says which). */
static void
test_label_golden (const char *path)
{
  FILE *f = fopen (path, "r");
  char line[256];
  int cases = 0, skipped = 0;
  /* under valgrind (REF_MAX_PIXELS set by meson) the 4K and 8K frames
   * would take many minutes: what they check, the plain run checks */
  const char *max_env = getenv ("REF_MAX_PIXELS");
  const long max_pixels = max_env ? atol (max_env) : 0;

  CHECK (f != NULL, "cannot open %s", path);
  if (!f)
    return;
  while (fgets (line, sizeof line, f)) {
    int kind, w, h, margin, conn, want_n, n, k;
    unsigned seed, want_l, want_s, want_c;
    uint8_t *img;
    int32_t *lab, *st;
    double *cen;
    RefBlob *blobs;

    if (line[0] == '#' || sscanf (line, "%d %u %d %d %d %d %d %x %x %x",
            &kind, &seed, &w, &h, &margin, &conn, &want_n, &want_l, &want_s,
            &want_c) != 10)
      continue;
    if (max_pixels > 0 && (long) w * h > max_pixels) {
      skipped++;
      continue;
    }
    img = malloc ((size_t) w * h);
    lab = malloc (sizeof (int32_t) * (size_t) w * h);
    blobs = malloc (sizeof (RefBlob) * ((size_t) w * h + 1));
    ref_thin_frame (img, w, h, kind, seed, margin);
    n = ref_label (img, w, w, h, conn, lab, blobs);
    st = malloc (sizeof (int32_t) * 5 * (size_t) (n > 1 ? n - 1 : 1));
    cen = malloc (sizeof (double) * 2 * (size_t) (n > 1 ? n - 1 : 1));
    for (k = 1; k < n; k++) {
      st[5 * (k - 1)] = blobs[k].left;
      st[5 * (k - 1) + 1] = blobs[k].top;
      st[5 * (k - 1) + 2] = blobs[k].width;
      st[5 * (k - 1) + 3] = blobs[k].height;
      st[5 * (k - 1) + 4] = (int32_t) blobs[k].area;
      cen[2 * (k - 1)] = blobs[k].cx;
      cen[2 * (k - 1) + 1] = blobs[k].cy;
    }
    CHECK (n == want_n && ref_fnv1a ((const uint8_t *) lab, sizeof (int32_t) *
            (size_t) w * h) == want_l && ref_fnv1a ((const uint8_t *) st,
            sizeof (int32_t) * 5 * (size_t) (n - 1)) == want_s &&
        ref_fnv1a ((const uint8_t *) cen, sizeof (double) * 2 *
            (size_t) (n - 1)) == want_c, "labels of frame kind %d seed %u "
        "%dx%d, %d-connected: %d labels (OpenCV %d), or their numbering, "
        "statistics or centroids differ from OpenCV's", kind, seed, w, h,
        conn, n, want_n);
    free (img);
    free (lab);
    free (blobs);
    free (st);
    free (cen);
    cases++;
  }
  fclose (f);
  CHECK (cases + skipped == 462, "%d labelling golden cases", cases + skipped);
  if (skipped)
    printf ("labelling goldens: %d cases run, %d larger than %ld pixels "
        "skipped (REF_MAX_PIXELS)\n", cases, skipped, max_pixels);
}

/* cudablobs' choice: min-area first, then the largest, equal areas to the
 * smaller label, kept in label order; only labels up to max_label count. */
static void
test_blobs_select (void)
{
  RefBlob b[7] = { {0} };
  static const int64_t areas[7] = { 0, 5, 9, 9, 2, 7, 9 };
  int32_t kept[6];
  int i, k;

  for (i = 0; i < 7; i++)
    b[i].area = areas[i];
  k = ref_blobs_select (b, 6, 65535, 3, 0, kept);
  CHECK (k == 5 && kept[0] == 1 && kept[1] == 2 && kept[2] == 3 &&
      kept[3] == 5 && kept[4] == 6, "min-area 3: %d blobs", k);
  k = ref_blobs_select (b, 6, 65535, 3, 2, kept);
  CHECK (k == 2 && kept[0] == 2 && kept[1] == 3, "max-blobs 2 (of three "
      "areas 9, the two smaller labels): %d blobs", k);
  k = ref_blobs_select (b, 6, 65535, 3, 4, kept);
  CHECK (k == 4 && kept[0] == 2 && kept[1] == 3 && kept[2] == 5 &&
      kept[3] == 6, "max-blobs 4, in label order: %d blobs", k);
  k = ref_blobs_select (b, 6, 4, 0, 0, kept);
  CHECK (k == 4 && kept[3] == 4, "labels past max_label: %d blobs", k);
}

/* cudahistogram's fixed-point log2 within 2^-15 of log2, never
 * decreasing; and its picture of one full bin and of an empty one. */
static void
test_histogram_picture (void)
{
  static uint32_t counts[3][256];
  uint8_t pic[64 * 32];
  uint64_t x, prev = 0;
  int worst = 0, y;

  for (x = 1; x < (1ull << 33); x = x * 3 / 2 + 1) {
    const uint32_t l = cip_hist_log2 (x);
    const double err = fabs (l / 65536.0 - log2 ((double) x));

    if (err > 1.0 / 32768 || l < prev)
      worst = 1;
    prev = l;
  }
  CHECK (!worst && cip_hist_log2 (1) == 0 && cip_hist_log2 (2) == 65536 &&
      cip_hist_log2 (1ull << 32) == 32u << 16, "cip_hist_log2");
  counts[0][128] = 1000;
  counts[0][0] = 500;
  ref_histogram_picture ((const uint32_t (*)[256]) counts, 1, 0, pic, 64, 64,
      32);
  /* column 32 shows bins 128..131: full; column 0 half; the rest empty */
  for (y = 0; y < 32; y++)
    CHECK (pic[y * 64 + 32] == 255 && pic[y * 64 + 0] == (y >= 16 ? 255 : 0)
        && pic[y * 64 + 33] == 0, "histogram picture row %d", y);
  ref_histogram_picture ((const uint32_t (*)[256]) counts, 1, 1, pic, 64, 64,
      32);
  /* log: 500 of 1000 is log2 (501) / log2 (1001) = 0.8999 of the
   * height, 28 of 32 rows: lit from row 4 */
  CHECK (pic[4 * 64] == 255 && pic[3 * 64] == 0,
      "histogram picture, log scale");
}

int
main (int argc, char **argv)
{
  test_histogram_picture ();
  test_golden_block ();
  test_all_colours ();
  test_weights_and_scale ();
  test_otsu_golden (argc > 1 ? argv[1] : "tests/data/otsu_golden.txt");
  test_otsu_semantics ();
  test_sobel_golden (argc > 2 ? argv[2] : "tests/data/sobel_golden.txt");
  test_thin_golden (argc > 3 ? argv[3] : "tests/data/thin_golden.txt");
  test_thin_semantics ();
  test_smooth_golden (argc > 4 ? argv[4] : "tests/data/smooth_golden.txt");
  test_smooth_semantics ();
  test_kmeans_semantics ();
  test_yuv_conversion ();
  test_yuv420_semantics ();
  test_thin3d_golden (argc > 5 ? argv[5] : "tests/data/thin3d_golden.txt");
  test_thin3d_pk ();
  test_thin3d_lee_euler ();
  test_overlay_semantics ();
  test_label_golden (argc > 6 ? argv[6] : "tests/data/label_golden.txt");
  test_blobs_select ();
  printf ("reference: %d passed, %d failed\n", passes, failures);
  return failures ? 1 : 0;
}
