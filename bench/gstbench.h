/* cudaimgproc pipeline benchmarks: what the two GStreamer benchmarks share.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>

int bench_cmp_double (const void *a, const void *b);
double bench_median (double *v, gint n);
gboolean bench_measure_pcie (double *h2d_bps, double *d2h_bps);
GstBuffer *bench_make_input (GstCudaContext * ctx, const GstVideoInfo * info,
    const uint8_t * rgba);

/* The options both pipeline benchmarks take. */
typedef struct
{
  FILE *json;                   /* --json FILE: records appended */
  const gchar *only;            /* --only SUBSTRING of the chain's name */
  const gchar *memory;          /* --memory KIND */
  gint w, h;                    /* --size WxH; 0: every size */
  const gchar *chain, *format;  /* --chain DESCRIPTION FORMAT */
} BenchOptions;

gboolean bench_option (gint argc, gchar ** argv, gint * i, BenchOptions * o);
