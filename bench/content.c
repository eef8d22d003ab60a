/* cudaimgproc benchmarks: realistic frames, a photograph scaled up.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include "content.h"
#include "gray.h"

static uint8_t *photo_rgb;      /* RGB, photo_w x photo_h */
static int photo_w, photo_h;

int
bench_have_photo (void)
{
  return photo_rgb != NULL;
}

int
load_photo (const char *path, int w, int h)
{
  FILE *f = fopen (path, "rb");
  size_t n = (size_t) w * h * 3;

  if (!f)
    return 0;
  photo_rgb = malloc (n);
  if (fread (photo_rgb, 1, n, f) != n) {
    free (photo_rgb);
    photo_rgb = NULL;
  }
  fclose (f);
  photo_w = w;
  photo_h = h;
  return photo_rgb != NULL;
}

/* Bilinear scale of the photo (or, without one, a smooth synthetic scene)
 * to w x h, @bpp bytes a pixel (3: RGB, 1: its BT.601 luma). */
uint8_t *
make_content (int w, int h, int bpp)
{
  uint8_t *out = malloc ((size_t) w * h * bpp);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int rgb[3];
      if (photo_rgb) {
        float fx = (x + 0.5f) * photo_w / w - 0.5f;
        float fy = (y + 0.5f) * photo_h / h - 0.5f;
        int x0 = fx < 0 ? 0 : (int) fx, y0 = fy < 0 ? 0 : (int) fy;
        int x1 = x0 + 1 < photo_w ? x0 + 1 : x0;
        int y1 = y0 + 1 < photo_h ? y0 + 1 : y0;
        float ax = fx - x0, ay = fy - y0;
        if (ax < 0)
          ax = 0;
        if (ay < 0)
          ay = 0;
        for (int c = 0; c < 3; c++) {
          const uint8_t *p = photo_rgb;
          float v = (1 - ay) * ((1 - ax) * p[(y0 * photo_w + x0) * 3 + c] +
              ax * p[(y0 * photo_w + x1) * 3 + c]) +
              ay * ((1 - ax) * p[(y1 * photo_w + x0) * 3 + c] +
              ax * p[(y1 * photo_w + x1) * 3 + c]);
          rgb[c] = (int) (v + 0.5f);
        }
      } else {
        rgb[0] = (x * 255 / w + ((x * 7 + y * 13) & 15)) & 255;
        rgb[1] = (y * 255 / h) & 255;
        rgb[2] = ((x + y) * 128 / (w + h) + 60) & 255;
      }
      if (bpp == 1)
        out[(size_t) y * w + x] = (uint8_t) ((rgb[0] * CIP_GRAY_BT601_R +
                rgb[1] * CIP_GRAY_BT601_G + rgb[2] * CIP_GRAY_BT601_B +
                16384) >> 15);
      else
        for (int c = 0; c < bpp; c++)
          out[((size_t) y * w + x) * bpp + c] = c < 3 ? rgb[c] : 255;
    }
  return out;
}
