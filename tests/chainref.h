/* cudaimgproc: test frames and the CPU reference of `cudagray ! cudaotsu
 * ! cudasobel`, shared by the GPU tests of chains.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "cpu_ref.h"
#include "gray.h"

/* An RGBA frame with structure (a gradient, discs, noise) that differs
 * from seed to seed, so a frame read too early or a wrong frame shows. */
static inline guint8 *
make_rgba (gint w, gint h, guint seed)
{
  guint8 *f = g_malloc ((gsize) w * h * 4);
  GRand *r = g_rand_new_with_seed (seed);
  gint cx[6], cy[6], rr[6], i, x, y;

  for (i = 0; i < 6; i++) {
    cx[i] = g_rand_int_range (r, 0, w);
    cy[i] = g_rand_int_range (r, 0, h);
    rr[i] = g_rand_int_range (r, 4, MAX (h / 4, 5));
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint8 *p = f + ((gsize) y * w + x) * 4;
      gint v = (x * 160) / MAX (w, 1) + (y * 60) / MAX (h, 1);

      for (i = 0; i < 6; i++)
        if ((x - cx[i]) * (x - cx[i]) + (y - cy[i]) * (y - cy[i]) <
            rr[i] * rr[i])
          v = (v + 97 * (i + 1)) & 255;
      v += g_rand_int_range (r, -6, 7);
      p[0] = (guint8) CLAMP (v, 0, 255);
      p[1] = (guint8) CLAMP (255 - v, 0, 255);
      p[2] = (guint8) CLAMP (v / 2 + 40, 0, 255);
      p[3] = 255;
    }
  g_rand_free (r);
  return f;
}

typedef guint8 *(*RefFunc) (const guint8 * rgba, gint w, gint h);

/* cudagray with its defaults, on the CPU. */
static inline guint8 *
ref_gray (const guint8 * rgba, gint w, gint h)
{
  guint8 *g = g_malloc ((gsize) w * h);

  ref_gray_packed (rgba, w * 4, 4, 0, 1, 2, g, w, w, h, CIP_GRAY_BT601_R,
      CIP_GRAY_BT601_G, CIP_GRAY_BT601_B, 65536);
  return g;
}

/* cudagray ! cudaotsu with their defaults, on the CPU. */
static inline guint8 *
ref_binary (const guint8 * rgba, gint w, gint h)
{
  guint8 *g = ref_gray (rgba, w, h), *b = g_malloc ((gsize) w * h);
  guint32 hist[256];
  float ema = -1.0f;
  gint t;

  ref_histogram (g, w, w, h, hist);
  t = ref_otsu_final (ref_otsu_threshold (hist, (guint64) w * h), 0, 0.0, &ema);
  ref_binarize (g, w, b, w, w, h, t, FALSE);
  g_free (g);
  return b;
}

/* CHAIN with its defaults, on the CPU. */
static inline guint8 *
ref_chain (const guint8 * rgba, gint w, gint h)
{
  guint8 *b = ref_binary (rgba, w, h), *out = g_malloc ((gsize) w * h);

  ref_sobel (b, w, w, h, 3, 0, FALSE, 1.0f, 0, out, w);
  g_free (b);
  return out;
}

