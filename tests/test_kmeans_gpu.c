/* cudaimgproc: cudakmeans on the GPU against the CPU reference: labels,
 * centres (to the bit: integer sums, the same rounded operations), counts
 * and iterations on clustered, natural-like, one-colour and tiny frames,
 * every k, both inits, with and without position; warm start on a slowly
 * changing sequence; determinism; 8K; I420 and NV12 (clustered on the
 * R'G'B' of their colorimetry; colour output in 4:2:0); and the element.
 * Skips (exit 77) where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "kmeans.h"

typedef enum
{
  PAT_CLUSTERS, PAT_SCENE, PAT_ONE, PAT_NOISE, PAT_N,
  PAT_WHITE = PAT_N             /* not in the loops over patterns */
} Pattern;

/* @bpp-byte pixels, R G B at @ro @go @bo, 4th byte 0x5a. */
static void
make_frame (guint8 * p, gint stride, gint w, gint h, gint bpp, gint ro,
    gint go, gint bo, Pattern pat, guint32 seed, gint shift)
{
  static const guint8 pal[5][3] = { {200, 30, 40}, {20, 180, 60},
  {30, 40, 210}, {230, 230, 220}, {90, 90, 20}
  };
  guint32 s = seed * 2654435761u + 7;
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint8 *q = p + (gsize) y * stride + (gsize) x * bpp;
      gint r, g, b, c, n;
      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      n = (gint) (s >> 28) - 8; /* -8..7 */
      switch (pat) {
        case PAT_CLUSTERS:
          c = ((x + shift) / 7 + y / 5 + (x * y) % 3) % 5;
          r = pal[c][0] + n;
          g = pal[c][1] - n;
          b = pal[c][2] + n / 2;
          break;
        case PAT_SCENE:        /* sky, ground, a sun, smooth shading */
          if ((x - w / 3 - shift) * (x - w / 3 - shift) + (y - h / 4) *
              (y - h / 4) < (w * w) / 64) {
            r = 250;
            g = 220 + n;
            b = 60;
          } else if (y < h / 2) {
            r = 60 + y * 60 / h;
            g = 120 + y * 80 / h;
            b = 230 - n;
          } else {
            r = 90 + (x * 50) / w + n;
            g = 140 - (y * 40) / h;
            b = 40;
          }
          break;
        case PAT_ONE:
          r = 17;
          g = 99;
          b = 201;
          break;
        case PAT_WHITE:        /* white, and noise at every 97th pixel */
          r = g = b = 255;
          if ((x + y * w) % 97 == 0) {
            r = (gint) (s & 255);
            g = (gint) ((s >> 8) & 255);
            b = (gint) ((s >> 16) & 255);
          }
          break;
        default:
          r = (gint) (s & 255);
          g = (gint) ((s >> 8) & 255);
          b = (gint) ((s >> 16) & 255);
          break;
      }
      q[ro] = (guint8) CLAMP (r, 0, 255);
      q[go] = (guint8) CLAMP (g, 0, 255);
      q[bo] = (guint8) CLAMP (b, 0, 255);
      if (bpp == 4)
        q[6 - ro - go - bo] = 0x5a;
    }
}

typedef struct
{
  gint w, h, pitch, cpitch, ch;
  gsize size;                   /* planes one after another */
  CipKmeansFormat fmt;
  guint8 *host, *rgb, *d_src, *d_dst;
  CipKmeans *km;
  CipKmeansResult *d_res;
  float centres[CIP_KMEANS_MAX_K][5];   /* the reference's warm state */
  guint64 inertia;              /* the last frame's, as the kernel said */
  guint64 each[CIP_KMEANS_MAX_ATTEMPTS];        /* the reference's inertia
                                                 * of each attempt */
} Case;

/* @layout CIP_KMEANS_PACKED (with @bpp and offsets) or 4:2:0; @pad bytes
 * after each row of every plane. */
static void
case_init (Case * c, CipKmeansLayout layout, gint w, gint h, gint bpp,
    gint ro, gint go, gint bo, gint pad)
{
  memset (c, 0, sizeof (*c));
  c->w = w;
  c->h = h;
  c->fmt.layout = layout;
  if (layout == CIP_KMEANS_PACKED) {
    c->fmt.bpp = bpp;
    c->fmt.r_off = ro;
    c->fmt.g_off = go;
    c->fmt.b_off = bo;
    c->pitch = w * bpp + pad;
    c->size = (gsize) c->pitch * h;
  } else {
    /* BT.709 limited range, what HD caps default to */
    cip_yuv_matrix_init (&c->fmt.yuv, 0.2126, 0.0722, 0);
    c->pitch = w + pad;
    c->ch = (h + 1) / 2;
    c->cpitch = (layout == CIP_KMEANS_NV12 ? 2 : 1) * ((w + 1) / 2) + pad;
    c->size = (gsize) c->pitch * h + (layout == CIP_KMEANS_NV12 ? 1 : 2) *
        (gsize) c->cpitch * c->ch;
  }
  /* the padding not zero, as a frame's need not be: no sum may take it */
  c->host = g_malloc (c->size);
  memset (c->host, 0xa7, c->size);
  c->rgb = g_malloc0 ((gsize) w * h * 3);
  CUDA_OK (cudaMalloc ((void **) &c->d_src, c->size));
  CUDA_OK (cudaMalloc ((void **) &c->d_dst, c->size));
  CUDA_OK (cudaMalloc ((void **) &c->d_res, sizeof (CipKmeansResult)));
  CUDA_OK (cip_kmeans_create (&c->km, w, h));
}

static void
case_free (Case * c)
{
  cip_kmeans_destroy (c->km);
  cudaFree (c->d_src);
  cudaFree (c->d_dst);
  cudaFree (c->d_res);
  g_free (c->host);
  g_free (c->rgb);
}

/* Plane pointers of a frame laid out as case_init says, from @base. */
static CipKmeansPlanes
case_planes (const Case * c, guint8 * base)
{
  CipKmeansPlanes p = { {base}, {c->pitch} };
  guint8 *chroma = base + (gsize) c->pitch * c->h;

  if (c->fmt.layout != CIP_KMEANS_PACKED) {
    p.data[1] = chroma;
    p.data[2] = chroma + (gsize) c->cpitch * c->ch;
    p.pitch[1] = p.pitch[2] = c->cpitch;
  }
  return p;
}

/* Tight RGB to 4:2:0 planes (@step 1: I420; 2: NV12, @v = @u + 1): Y of
 * every pixel, each chroma sample that of its block's top-left pixel. */
static void
rgb_to_yuv420 (const guint8 * rgb, gint w, gint h, const CipYuvMatrix * m,
    guint8 * y, gint y_stride, guint8 * u, guint8 * v, gint c_stride, gint step)
{
  gint i, j;

  for (j = 0; j < h; j++)
    for (i = 0; i < w; i++) {
      const guint8 *q = rgb + ((gsize) j * w + i) * 3;
      const gsize c = (gsize) (j / 2) * c_stride + (i / 2) * step;
      gint yy, uu, vv;
      cip_rgb_to_yuv (m, q[0], q[1], q[2], &yy, &uu, &vv);
      y[(gsize) j * y_stride + i] = (guint8) yy;
      if (!(i & 1) && !(j & 1)) {
        u[c] = (guint8) uu;
        v[c] = (guint8) vv;
      }
    }
}

/* Fills the host frame: packed directly, 4:2:0 from the pattern's RGB (Y
 * per pixel, chroma of each block's top-left pixel); c->rgb is then what
 * the kernel clusters, tight RGB. */
static void
case_fill (Case * c, Pattern pat, guint32 seed, gint shift)
{
  const CipKmeansFormat *f = &c->fmt;
  gint x, y;

  if (f->layout == CIP_KMEANS_PACKED) {
    make_frame (c->host, c->pitch, c->w, c->h, f->bpp, f->r_off, f->g_off,
        f->b_off, pat, seed, shift);
    for (y = 0; y < c->h; y++)
      for (x = 0; x < c->w; x++) {
        const guint8 *q = c->host + (gsize) y * c->pitch + (gsize) x * f->bpp;
        guint8 *o = c->rgb + ((gsize) y * c->w + x) * 3;
        o[0] = q[f->r_off];
        o[1] = q[f->g_off];
        o[2] = q[f->b_off];
      }
  } else {
    CipKmeansPlanes pl = case_planes (c, c->host);
    const gint step = f->layout == CIP_KMEANS_NV12 ? 2 : 1;
    guint8 *u = pl.data[1], *v = step == 2 ? u + 1 : pl.data[2];

    make_frame (c->rgb, c->w * 3, c->w, c->h, 3, 0, 1, 2, pat, seed, shift);
    rgb_to_yuv420 (c->rgb, c->w, c->h, &f->yuv, c->host, c->pitch, u, v,
        c->cpitch, step);
    ref_yuv420_to_rgb (c->host, c->pitch, u, v, c->cpitch, step, c->w, c->h,
        &f->yuv, c->rgb);
  }
}

/* One frame through the launcher (labels output) and the reference with
 * the same parameters; everything must be equal.  Then the colour output
 * of the same centres. */
static void
case_run (Case * c, Pattern pat, guint32 seed, gint shift,
    const CipKmeansParams * p, gint * iterations)
{
  guint8 *labels = g_malloc ((gsize) c->w * c->h);
  guint8 *out = g_malloc (c->size), *want = g_malloc (c->size);
  CipKmeansPlanes src = case_planes (c, c->d_src);
  CipKmeansPlanes dst = case_planes (c, c->d_dst);
  const CipKmeansFormat *f = &c->fmt;
  guint32 counts[CIP_KMEANS_MAX_K];
  CipKmeansResult res;
  CipKmeansParams pl = *p;
  guint64 inertia;
  gint it, j, x, y;

  case_fill (c, pat, seed, shift);
  CUDA_OK (cudaMemcpy (c->d_src, c->host, c->size, cudaMemcpyHostToDevice));
  pl.output = 1;
  CUDA_OK (cip_kmeans (c->km, f, &src, &dst, &pl, c->d_res, 0));
  CUDA_OK (cudaMemcpy (out, c->d_dst, c->size, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (&res, c->d_res, sizeof (res), cudaMemcpyDeviceToHost));

  if (p->reinit && p->attempts > 1) {
    it = ref_kmeans_attempts (c->rgb, c->w * 3, 3, 0, 1, 2, c->w, c->h, p->k,
        p->max_iterations, p->epsilon, p->spatial_weight, p->init, p->seed,
        p->attempts, c->centres, labels, counts, &inertia, c->each);
  } else {
    it = ref_kmeans (c->rgb, c->w * 3, 3, 0, 1, 2, c->w, c->h, p->k,
        p->max_iterations, p->epsilon, p->spatial_weight, p->init, p->seed,
        !p->reinit, c->centres, labels, counts);
    inertia = ref_kmeans_inertia (c->rgb, c->w * 3, 3, 0, 1, 2, c->w, c->h,
        p->spatial_weight, c->centres, p->k);
  }
  fail_unless_equals_int (res.iterations, it);
  fail_unless_equals_uint64 (res.inertia, inertia);
  c->inertia = res.inertia;
  fail_unless_equals_int (res.k, p->k);
  for (j = 0; j < p->k; j++) {
    fail_unless (memcmp (res.centres[j], c->centres[j], 5 * sizeof (float))
        == 0, "%dx%d layout %d k %d: centre %d (%g %g %g) differs from the "
        "reference's (%g %g %g)", c->w, c->h, f->layout, p->k, j,
        res.centres[j][0], res.centres[j][1], res.centres[j][2],
        c->centres[j][0], c->centres[j][1], c->centres[j][2]);
    fail_unless_equals_int (res.counts[j], counts[j]);
    fail_if (isnan (res.centres[j][0]));
  }
  for (y = 0; y < c->h; y++)
    for (x = 0; x < c->w; x++)
      fail_unless (out[(gsize) y * c->pitch + x] ==
          labels[(gsize) y * c->w + x], "%dx%d layout %d k %d pattern %d: "
          "label of (%d, %d) is %d, reference %d", c->w, c->h, f->layout,
          p->k, pat, x, y, out[(gsize) y * c->pitch + x],
          labels[(gsize) y * c->w + x]);

  /* colour output of the same centres */
  pl.output = 0;
  pl.max_iterations = 0;
  pl.reinit = 0;
  CUDA_OK (cip_kmeans (c->km, f, &src, &dst, &pl, NULL, 0));
  CUDA_OK (cudaMemcpy (out, c->d_dst, c->size, cudaMemcpyDeviceToHost));
  if (f->layout == CIP_KMEANS_PACKED) {
    /* each pixel its centre's rounded colour, 4th byte kept */
    for (y = 0; y < c->h; y++)
      for (x = 0; x < c->w; x++) {
        const guint8 *o = out + (gsize) y * c->pitch + (gsize) x * f->bpp;
        const float *cc = c->centres[labels[(gsize) y * c->w + x]];
        fail_unless (o[f->r_off] == (guint8) rintf (cc[0]) &&
            o[f->g_off] == (guint8) rintf (cc[1]) &&
            o[f->b_off] == (guint8) rintf (cc[2]) &&
            (f->bpp == 3 || o[6 - f->r_off - f->g_off - f->b_off] == 0x5a),
            "%dx%d: colour of (%d, %d) wrong", c->w, c->h, x, y);
      }
  } else {
    CipKmeansPlanes wp = case_planes (c, want), op = case_planes (c, out);
    const gint step = f->layout == CIP_KMEANS_NV12 ? 2 : 1;
    const gint cb = ((c->w + 1) / 2 - 1) * step + 1;    /* chroma row bytes */

    memcpy (want, out, c->size);        /* the padding is not ours */
    ref_kmeans_paint_yuv420 (labels, c->w, c->h, c->centres, p->k, &f->yuv,
        want, c->pitch, wp.data[1], step == 2 ? (guint8 *) wp.data[1] + 1 :
        wp.data[2], c->cpitch, step);
    for (y = 0; y < c->h; y++)
      for (x = 0; x < c->w; x++)
        fail_unless (want[(gsize) y * c->pitch + x] ==
            out[(gsize) y * c->pitch + x], "%dx%d layout %d k %d pattern %d: "
            "Y of (%d, %d) is %d, reference %d (label %d)", c->w, c->h,
            f->layout, p->k, pat, x, y, out[(gsize) y * c->pitch + x],
            want[(gsize) y * c->pitch + x], labels[(gsize) y * c->w + x]);
    for (j = 0; j < (step == 2 ? 1 : 2); j++)
      for (y = 0; y < c->ch; y++)
        fail_unless (memcmp ((guint8 *) wp.data[1 + j] + (gsize) y *
                c->cpitch, (guint8 *) op.data[1 + j] + (gsize) y * c->cpitch,
                step == 2 ? cb + 1 : cb) == 0, "%dx%d layout %d: chroma "
            "row %d wrong", c->w, c->h, f->layout, y);
  }
  if (iterations)
    *iterations = it;
  g_free (labels);
  g_free (out);
  g_free (want);
}

static void
cold_case (CipKmeansLayout layout, gint w, gint h, gint bpp, gint ro, gint go,
    gint bo, gint pad, Pattern pat, gint k, gint init, gfloat spatial,
    gint iters)
{
  CipKmeansParams p = { k, iters, 1.0f, spatial, init, 42, 1, 1 };
  Case c;

  case_init (&c, layout, w, h, bpp, ro, go, bo, pad);
  case_run (&c, pat, w + h + k, 0, &p, NULL);
  case_free (&c);
}

#define PACKED(...) cold_case (CIP_KMEANS_PACKED, __VA_ARGS__)

GST_START_TEST (test_kernel_vs_reference)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {17, 9}, {64, 48},
  {333, 97}, {641, 479}
  };
  static const gint ks[] = { 2, 4, 8, 16, 64 };
  guint s, ki;
  gint pat, init;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (pat = 0; pat < PAT_N; pat++)
      for (ki = 0; ki < G_N_ELEMENTS (ks); ki++)
        for (init = 0; init < 2; init++) {
          gint w = sizes[s][0], h = sizes[s][1];
          /* RGBA in 16-byte aligned rows (read 4 pixels at a time),
           * BGR with a padded pitch, xRGB with position (tight rows:
           * aligned only where the width is a multiple of 4), I420
           * padded, NV12 with position */
          PACKED (w, h, 4, 0, 1, 2, (16 - w * 4 % 16) % 16, pat, ks[ki], init,
              0.0f, 10);
          PACKED (w, h, 3, 2, 1, 0, 5, pat, ks[ki], init, 0.0f, 10);
          PACKED (w, h, 4, 1, 2, 3, 0, pat, ks[ki], init, 0.5f, 10);
          cold_case (CIP_KMEANS_I420, w, h, 0, 0, 0, 0, 3, pat, ks[ki], init,
              0.0f, 10);
          cold_case (CIP_KMEANS_NV12, w, h, 0, 0, 0, 0, 0, pat, ks[ki], init,
              0.5f, 10);
        }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* One colour, k larger than the distinct colours: no NaN, empty clusters
 * re-seeded deterministically, every pixel in a cluster of its colour. */
GST_START_TEST (test_degenerate)
{
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  PACKED (640, 480, 4, 0, 1, 2, 0, PAT_ONE, 8, 0, 0.0f, 10);
  PACKED (640, 480, 4, 0, 1, 2, 0, PAT_ONE, 64, 1, 0.0f, 10);
  PACKED (640, 480, 4, 0, 1, 2, 0, PAT_CLUSTERS, 64, 0, 0.0f, 30);
  PACKED (640, 480, 3, 0, 1, 2, 0, PAT_ONE, 5, 0, 2.0f, 10);
  cold_case (CIP_KMEANS_NV12, 640, 480, 0, 0, 0, 0, 0, PAT_ONE, 8, 0, 0.0f, 10);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* A slowly moving scene: warm starts match the reference frame after
 * frame and need fewer iterations than cold starts. */
GST_START_TEST (test_warm_start)
{
  CipKmeansParams p = { 6, 50, 0.5f, 0.0f, 0, 3, 1, 1 };
  gint f, it, warm_total = 0, cold_total = 0;
  Case c;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  case_init (&c, CIP_KMEANS_PACKED, 640, 360, 4, 0, 1, 2, 0);
  for (f = 0; f < 8; f++) {
    p.reinit = f == 0;
    case_run (&c, PAT_SCENE, 5, f * 2, &p, &it);
    if (f > 0)
      warm_total += it;
  }
  for (f = 1; f < 8; f++) {
    p.reinit = 1;
    case_run (&c, PAT_SCENE, 5, f * 2, &p, &it);
    cold_total += it;
  }
  g_print ("warm start: %d iterations over 7 frames, cold: %d\n",
      warm_total, cold_total);
  fail_unless (warm_total < cold_total, "warm %d, cold %d", warm_total,
      cold_total);
  fail_unless (warm_total <= 2 * 7, "warm starts took %d iterations",
      warm_total);
  case_free (&c);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The same input twice: the same bytes, output and result. */
GST_START_TEST (test_deterministic)
{
  CipKmeansParams p = { 16, 10, 0.0f, 0.25f, 0, 9, 1, 0 };
  const gint w = 1920, h = 1080, pitch = w * 4;
  guint8 *host = g_malloc ((gsize) pitch * h), *a, *b, *d_src, *d_dst;
  CipKmeansResult ra, rb, *d_res;
  const CipKmeansFormat fmt = { CIP_KMEANS_PACKED, 4, 0, 1, 2 };
  CipKmeansPlanes src, dst;
  CipKmeans *km;
  gint run;

  a = g_malloc ((gsize) pitch * h);
  b = g_malloc ((gsize) pitch * h);
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  make_frame (host, pitch, w, h, 4, 0, 1, 2, PAT_NOISE, 1, 0);
  CUDA_OK (cudaMalloc ((void **) &d_src, (gsize) pitch * h));
  CUDA_OK (cudaMalloc ((void **) &d_dst, (gsize) pitch * h));
  CUDA_OK (cudaMalloc ((void **) &d_res, sizeof (CipKmeansResult)));
  CUDA_OK (cudaMemcpy (d_src, host, (gsize) pitch * h, cudaMemcpyHostToDevice));
  src = (CipKmeansPlanes) { {
  d_src}
  , {
  pitch}
  };
  dst = (CipKmeansPlanes) { {
  d_dst}
  , {
  pitch}
  };
  for (run = 0; run < 2; run++) {
    CUDA_OK (cip_kmeans_create (&km, w, h));
    CUDA_OK (cip_kmeans (km, &fmt, &src, &dst, &p, d_res, 0));
    CUDA_OK (cudaMemcpy (run ? b : a, d_dst, (gsize) pitch * h,
            cudaMemcpyDeviceToHost));
    CUDA_OK (cudaMemcpy (run ? &rb : &ra, d_res, sizeof (ra),
            cudaMemcpyDeviceToHost));
    cip_kmeans_destroy (km);
  }
  fail_unless (memcmp (a, b, (gsize) pitch * h) == 0);
  fail_unless (memcmp (&ra, &rb, sizeof (ra)) == 0);
  cudaFree (d_src);
  cudaFree (d_dst);
  cudaFree (d_res);
  g_free (host);
  g_free (a);
  g_free (b);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

GST_START_TEST (test_8k)
{
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  PACKED (7680, 4320, 4, 2, 1, 0, 0, PAT_SCENE, 8, 0, 0.0f, 3);
  /* k = 16 on large frames, in packed 3-byte pixels */
  PACKED (3840, 2160, 3, 2, 1, 0, 5, PAT_SCENE, 16, 0, 0.0f, 3);
  cold_case (CIP_KMEANS_I420, 7680, 4320, 0, 0, 0, 0, 0, PAT_SCENE, 8, 0,
      0.0f, 3);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* A lane's colour sums of a pass with k = 4, 8 or 16 are two 16-bit
 * halves a word, folded into the block's every 64 tasks (kmeans.cu's
 * LANE_TASKS), so that 256 white pixels cannot carry.  Tall frames one
 * task wide (a task: a row's 128 pixels; in 4:2:0, 64 columns of two
 * rows; for k >= 8 in 4-byte pixels 8 rows of 16), each warp of the
 * kernel taking 66 tasks: k = 4 (2 blocks of 256 an SM), k = 8 in 3-byte
 * pixels (3 of 256) and NV12, and k = 8 in 4-byte pixels, which makes
 * 6.7 Mpixels on 132 SMs and so one block of 768 an SM (from 3 Mpixels),
 * below 59 SMs 3 of 256: either way 24 warps an SM.  A build folding
 * every 128 tasks fails this test. */
GST_START_TEST (test_lane_sums_fold)
{
  gint dev, sms;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaGetDevice (&dev));
  CUDA_OK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
          dev));
  PACKED (4, sms * 16 * 66, 4, 0, 1, 2, 0, PAT_WHITE, 4, 0, 0.0f, 3);
  PACKED (4, 8 * sms * 24 * 66, 4, 2, 1, 0, 0, PAT_WHITE, 8, 0, 0.0f, 3);
  PACKED (4, sms * 24 * 66, 3, 2, 1, 0, 1, PAT_WHITE, 8, 0, 0.0f, 3);
  cold_case (CIP_KMEANS_NV12, 2, 2 * sms * 24 * 66, 0, 0, 0, 0, 0, PAT_WHITE,
      8, 0, 0.0f, 3);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* From 3 Mpixels k = 8 and 16 run in blocks of 768 threads, one an SM
 * (kmeans.cu's kernel_by; k = 8's lane sums in dynamic shared memory):
 * frames small enough for the sanitizer runs, which test_8k's are not, so
 * that racecheck, synccheck and memcheck see those kernels too. */
GST_START_TEST (test_one_block_an_sm)
{
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  PACKED (2560, 1440, 4, 0, 1, 2, 0, PAT_SCENE, 8, 0, 0.0f, 3);
  PACKED (2560, 1440, 4, 2, 1, 0, 0, PAT_SCENE, 16, 0, 0.0f, 3);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The scores' 4-byte walk leaves out of a tile's search the centres
 * that its colours' box rules out (kmeans.cu's prune_centres): a tile
 * left with one centre, with two, or with a pixel near two, in the
 * shaded scene's smooth bands and sharp edges and the clusters' noise;
 * k = 8 (c* from the task before), 12, 16 and 32 (c* from the box's
 * middle), 33 (rows, no pruning: more centres than lanes); widths not a
 * multiple of a tile's 16 and heights not of its 8, with padded rows
 * (case_init's padding is not zero): a tile of one centre adds the sums
 * its box came with, which must leave out the pixels past the edge. */
GST_START_TEST (test_pruned_search)
{
  static const gint sizes[][2] = { {35, 13}, {333, 97}, {1921, 1079} };
  static const gint ks[] = { 8, 12, 16, 32, 33 };
  static const Pattern pats[] = { PAT_SCENE, PAT_CLUSTERS };
  guint s, ki, pi;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (pi = 0; pi < G_N_ELEMENTS (pats); pi++)
      for (ki = 0; ki < G_N_ELEMENTS (ks); ki++) {
        const gint w = sizes[s][0], h = sizes[s][1];
        /* the large frame: the cases that differ (the CPU's time) */
        if (w > 1000 && (pats[pi] != PAT_SCENE || ks[ki] > 12))
          continue;
        PACKED (w, h, 4, 2, 1, 0, (16 - w * 4 % 16) % 16, pats[pi], ks[ki],
            0, 0.0f, 10);
      }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* ---- the element ------------------------------------------------------- */

/* Ten k-means++ starts a frame: the kept one is the reference's (labels,
 * centres, counts, iterations and inertia to the bit, so deterministic),
 * and its inertia no worse than that of any of the ten alone. */
GST_START_TEST (test_attempts)
{
  static const struct
  {
    Pattern pat;
    gint k;
  } frames[] = { {PAT_CLUSTERS, 8}, {PAT_SCENE, 8}, {PAT_NOISE, 8},
  {PAT_CLUSTERS, 4}, {PAT_SCENE, 3}
  };
  const gint w = 641, h = 479, attempts = 10;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (frames); f++) {
    CipKmeansParams p = { frames[f].k, 30, 0.0f, 0.0f, 0, 7, 1, 1,
      attempts
    };
    guint64 worst = 0, first = 0, best;
    Case c;
    gint a, run;

    case_init (&c, CIP_KMEANS_PACKED, w, h, 4, 0, 1, 2, 0);
    for (run = 0; run < 2; run++)
      case_run (&c, frames[f].pat, 11 + f, 0, &p, NULL);
    best = c.inertia;
    /* each attempt's inertia, from the reference of the last run (that
     * it picks the earliest lowest is test_reference's) */
    for (a = 0; a < attempts; a++) {
      const guint64 q = c.each[a];

      fail_unless (best <= q, "pattern %d k %d: the kept inertia %"
          G_GUINT64_FORMAT " is above attempt %d's %" G_GUINT64_FORMAT,
          frames[f].pat, p.k, best, a, q);
      worst = MAX (worst, q);
      if (a == 0)
        first = q;
    }
    g_print ("attempts: pattern %d k %d: inertia of the best of %d %.0f, "
        "of the first %.4fx it, of the worst %.4fx\n", frames[f].pat, p.k,
        attempts, best / 64.0, (double) first / best, (double) worst / best);
    case_free (&c);
  }
}

GST_END_TEST;

GST_START_TEST (test_element)
{
  static const gchar *outs[] = { "video/x-raw,format=RGBA",
    "video/x-raw(memory:CUDAMemory),format=GRAY8"
  };
  gint o;

  for (o = 0; o < 2; o++) {
    const gint w = 320, h = 240;
    MsgHarness m = msg_harness_new (o ? "cudakmeans name=k output=labels "
        "spread-labels=true post-messages=true attempts=3" : "cudakmeans "
        "name=k "
        "post-messages=true", "video/x-raw,format=RGBA,width=320,height=240,"
        "framerate=30/1", outs[o], "k");
    float centres[CIP_KMEANS_MAX_K][5];
    guint8 *labels = g_malloc (w * h);
    guint32 counts[CIP_KMEANS_MAX_K];
    gint f;

    for (f = 0; f < 3; f++) {
      GstBuffer *in = gst_buffer_new_allocate (NULL, w * h * 4, NULL), *out;
      GstMapInfo map;
      GstVideoInfo info;
      GstVideoFrame vf;
      GstMessage *msg;
      const GstStructure *s;
      const GValue *cv;
      gint kk = f == 2 ? 5 : 4, it, x, y;
      guint mit = 0;
      guint64 inertia;
      gdouble mi = -1;

      if (f == 2)               /* k while playing: starts afresh */
        g_object_set (m.e, "k", 5, NULL);
      gst_buffer_map (in, &map, GST_MAP_WRITE);
      make_frame (map.data, w * 4, w, h, 4, 0, 1, 2, PAT_SCENE, 1, f);
      /* three starts where the centres start afresh */
      if (o && f != 1) {
        it = ref_kmeans_attempts (map.data, w * 4, 4, 0, 1, 2, w, h, kk, 10,
            1.0f, 0.0f, 0, 0, 3, centres, labels, counts, &inertia, NULL);
      } else {
        it = ref_kmeans (map.data, w * 4, 4, 0, 1, 2, w, h, kk, 10, 1.0f,
            0.0f, 0, 0, f == 1, centres, labels, counts);
        inertia = ref_kmeans_inertia (map.data, w * 4, 4, 0, 1, 2, w, h, 0.0f,
            centres, kk);
      }
      gst_buffer_unmap (in, &map);
      GST_BUFFER_PTS (in) = f * GST_SECOND;
      fail_unless_equals_int (gst_harness_push (m.h, in), GST_FLOW_OK);
      out = gst_harness_pull (m.h);
      gst_video_info_set_format (&info, o ? GST_VIDEO_FORMAT_GRAY8 :
          GST_VIDEO_FORMAT_RGBA, w, h);
      fail_unless (gst_video_frame_map (&vf, &info, out, GST_MAP_READ));
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          const guint8 *p = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 0) +
              (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0);
          gint l = labels[y * w + x];
          if (o) {
            fail_unless_equals_int (p[x], l * 255 / (kk - 1));
          } else {
            fail_unless (p[4 * x] == (guint8) rintf (centres[l][0]) &&
                p[4 * x + 1] == (guint8) rintf (centres[l][1]) &&
                p[4 * x + 2] == (guint8) rintf (centres[l][2]) &&
                p[4 * x + 3] == 0x5a, "frame %d pixel (%d, %d)", f, x, y);
          }
        }
      gst_video_frame_unmap (&vf);
      gst_buffer_unref (out);

      msg = gst_bus_timed_pop_filtered (m.bus, 2 * GST_SECOND,
          GST_MESSAGE_ELEMENT);
      fail_unless (msg != NULL);
      s = gst_message_get_structure (msg);
      fail_unless (gst_structure_has_name (s, "cudakmeans"));
      fail_unless (gst_structure_get_uint (s, "iterations", &mit));
      fail_unless_equals_int (mit, it);
      fail_unless (gst_structure_get_double (s, "inertia", &mi));
      fail_unless_equals_float (mi, inertia / 64.0);
      cv = gst_structure_get_value (s, "centres");
      fail_unless (cv && gst_value_array_get_size (cv) == (guint) kk);
      fail_unless_equals_float (g_value_get_double (gst_value_array_get_value
              (gst_value_array_get_value (cv, 0), 0)), centres[0][0]);
      gst_message_unref (msg);
    }
    msg_harness_free (&m);
    g_free (labels);
  }
}

GST_END_TEST;

/* I420 (BT.709 limited, colour out) and NV12 (BT.601 full range, labels
 * out) through the element in system memory: clustered on the R'G'B' the
 * caps' colorimetry gives, as the reference does. */
GST_START_TEST (test_element_yuv)
{
  static const struct
  {
    const gchar *launch, *in, *out;
  } cases[] = {
    {"cudakmeans k=5", "video/x-raw,format=I420,width=97,height=61,"
          "framerate=30/1,colorimetry=bt709",
        "video/x-raw,format=I420,width=97,height=61"},
    {"cudakmeans k=3 output=labels", "video/x-raw,format=NV12,width=96,"
          "height=54,framerate=30/1,colorimetry=1:4:0:0",
        "video/x-raw,format=GRAY8,width=96,height=54"},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstHarness *h = filter_harness (cases[c].launch, cases[c].in,
        cases[c].out);
    GstCaps *caps = gst_caps_from_string (cases[c].in);
    GstVideoInfo info, oinfo;
    GstVideoFrame vf, of;
    GstBuffer *in, *out;
    CipYuvMatrix m;
    gdouble kr, kb;
    float centres[CIP_KMEANS_MAX_K][5];
    guint32 counts[CIP_KMEANS_MAX_K];
    const gint k = c ? 3 : 5;
    guint8 *rgb, *labels, *want[3];
    gint w, hh, y, p, nv12;

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    w = GST_VIDEO_INFO_WIDTH (&info);
    hh = GST_VIDEO_INFO_HEIGHT (&info);
    nv12 = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_NV12;
    fail_unless (gst_video_color_matrix_get_Kr_Kb (info.colorimetry.matrix,
            &kr, &kb));
    cip_yuv_matrix_init (&m, kr, kb,
        info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255);
    rgb = g_malloc ((gsize) w * hh * 3);
    labels = g_malloc ((gsize) w * hh);

    /* a scene in RGB, to the caps' YUV */
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    fail_unless (gst_video_frame_map (&vf, &info, in, GST_MAP_WRITE));
    make_frame (rgb, w * 3, w, hh, 3, 0, 1, 2, PAT_SCENE, 4, 0);
    {
      guint8 *u = GST_VIDEO_FRAME_PLANE_DATA (&vf, 1);
      guint8 *v = nv12 ? u + 1 : (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf,
          2);
      const gint cs = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 1);

      rgb_to_yuv420 (rgb, w, hh, &m, GST_VIDEO_FRAME_PLANE_DATA (&vf, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0), u, v, cs, nv12 ? 2 : 1);
      ref_yuv420_to_rgb (GST_VIDEO_FRAME_PLANE_DATA (&vf, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0), u, v, cs, nv12 ? 2 : 1, w,
          hh, &m, rgb);
    }
    gst_video_frame_unmap (&vf);
    ref_kmeans (rgb, w * 3, 3, 0, 1, 2, w, hh, k, 10, 1.0f, 0.0f, 0, 0, 0,
        centres, labels, counts);

    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    gst_video_info_set_format (&oinfo, nv12 ? GST_VIDEO_FORMAT_GRAY8 :
        GST_VIDEO_FORMAT_I420, w, hh);
    fail_unless (gst_video_frame_map (&of, &oinfo, out, GST_MAP_READ));
    if (nv12) {
      for (y = 0; y < hh; y++)
        fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&of, 0) +
                y * GST_VIDEO_FRAME_PLANE_STRIDE (&of, 0), labels + y * w,
                w) == 0, "NV12 labels of row %d", y);
    } else {
      gint cw = (w + 1) / 2, ch = (hh + 1) / 2;
      want[0] = g_malloc ((gsize) w * hh);
      want[1] = g_malloc ((gsize) cw * ch);
      want[2] = g_malloc ((gsize) cw * ch);
      ref_kmeans_paint_yuv420 (labels, w, hh, centres, k, &m, want[0], w,
          want[1], want[2], cw, 1);
      for (p = 0; p < 3; p++)
        for (y = 0; y < (p ? ch : hh); y++)
          fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&of,
                      p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&of, p),
                  want[p] + y * (p ? cw : w), p ? cw : w) == 0,
              "I420 plane %d row %d", p, y);
      for (p = 0; p < 3; p++)
        g_free (want[p]);
    }
    gst_video_frame_unmap (&of);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (rgb);
    g_free (labels);
  }
}

GST_END_TEST;

static Suite *
kmeans_gpu_suite (void)
{
  Suite *s = suite_create ("cudakmeans-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 900);
  tcase_add_test (tc, test_kernel_vs_reference);
  tcase_add_test (tc, test_degenerate);
  tcase_add_test (tc, test_warm_start);
  tcase_add_test (tc, test_deterministic);
  tcase_add_test (tc, test_8k);
  tcase_add_test (tc, test_lane_sums_fold);
  tcase_add_test (tc, test_one_block_an_sm);
  tcase_add_test (tc, test_pruned_search);
  tcase_add_test (tc, test_attempts);
  tcase_add_test (tc, test_element);
  tcase_add_test (tc, test_element_yuv);
  return s;
}

GPU_CHECK_MAIN (kmeans_gpu);
