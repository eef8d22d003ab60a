/* cudaimgproc pipeline benchmarks: what the two GStreamer benchmarks share.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>

int bench_cmp_double (const void *a, const void *b);
double bench_median (double *v, gint n);
gboolean bench_measure_pcie (double *h2d_bps, double *d2h_bps);
GstBuffer *bench_make_input (GstCudaContext * ctx, const GstVideoInfo * info,
    const uint8_t * rgba);
