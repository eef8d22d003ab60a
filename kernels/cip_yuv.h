/* cudaimgproc: 8-bit Y'CbCr <-> R'G'B' in 16.16 fixed point, the same bits
 * on the host (the element, the CPU reference) and the GPU.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The matrix comes from Kr and Kb (gst_video_color_matrix_get_Kr_Kb) and
 * the range: limited is Y 16..235 and Cb, Cr 16..240; full is 0..255.  A
 * chroma sample is used as is for every pixel it covers (no
 * interpolation), so a pixel's colour depends on its own samples only.
 */
#ifndef __CIP_KERNELS_YUV_H__
#define __CIP_KERNELS_YUV_H__

#include <stdint.h>
#include <math.h>

#ifdef __CUDACC__
#define CIP_YUV_FN static inline __host__ __device__
#else
#define CIP_YUV_FN static inline
#endif

typedef struct
{
  int32_t yoff;                 /* 16 limited, 0 full range */
  int32_t ky, krv, kgu, kgv, kbu;       /* to RGB */
  int32_t yr, yg, yb, ur, ug, ub, vr, vg, vb;   /* from RGB */
} CipYuvMatrix;

static inline int32_t
cip_yuv_q16 (double v)
{
  return (int32_t) floor (v * 65536.0 + 0.5);
}

static inline void
cip_yuv_matrix_init (CipYuvMatrix * m, double kr, double kb, int full_range)
{
  const double kg = 1.0 - kr - kb;
  const double ys = full_range ? 1.0 : 255.0 / 219.0;
  const double cs = full_range ? 1.0 : 255.0 / 224.0;
  const double yi = 1.0 / ys, ci = 1.0 / cs;

  m->yoff = full_range ? 0 : 16;
  m->ky = cip_yuv_q16 (ys);
  m->krv = cip_yuv_q16 (cs * 2.0 * (1.0 - kr));
  m->kgu = cip_yuv_q16 (cs * 2.0 * kb * (1.0 - kb) / kg);
  m->kgv = cip_yuv_q16 (cs * 2.0 * kr * (1.0 - kr) / kg);
  m->kbu = cip_yuv_q16 (cs * 2.0 * (1.0 - kb));
  m->yr = cip_yuv_q16 (yi * kr);
  m->yg = cip_yuv_q16 (yi * kg);
  m->yb = cip_yuv_q16 (yi * kb);
  m->ur = cip_yuv_q16 (-ci * kr / (2.0 * (1.0 - kb)));
  m->ug = cip_yuv_q16 (-ci * kg / (2.0 * (1.0 - kb)));
  m->ub = cip_yuv_q16 (ci * 0.5);
  m->vr = cip_yuv_q16 (ci * 0.5);
  m->vg = cip_yuv_q16 (-ci * kg / (2.0 * (1.0 - kr)));
  m->vb = cip_yuv_q16 (-ci * kb / (2.0 * (1.0 - kr)));
}

/* 16.16 to 0..255, rounding half up */
CIP_YUV_FN int
cip_yuv_clamp (int32_t v)
{
  v += 32768;
  return v < 0 ? 0 : (v >> 16) > 255 ? 255 : (v >> 16);
}

CIP_YUV_FN void
cip_yuv_to_rgb (const CipYuvMatrix * m, int y, int u, int v, int *r, int *g,
    int *b)
{
  const int32_t l = m->ky * (y - m->yoff);
  u -= 128;
  v -= 128;
  *r = cip_yuv_clamp (l + m->krv * v);
  *g = cip_yuv_clamp (l - m->kgu * u - m->kgv * v);
  *b = cip_yuv_clamp (l + m->kbu * u);
}

CIP_YUV_FN void
cip_rgb_to_yuv (const CipYuvMatrix * m, int r, int g, int b, int *y, int *u,
    int *v)
{
  *y = cip_yuv_clamp (m->yr * r + m->yg * g + m->yb * b + (m->yoff << 16));
  *u = cip_yuv_clamp (m->ur * r + m->ug * g + m->ub * b + (128 << 16));
  *v = cip_yuv_clamp (m->vr * r + m->vg * g + m->vb * b + (128 << 16));
}

#endif /* __CIP_KERNELS_YUV_H__ */
