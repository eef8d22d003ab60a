/* cudaimgproc: cudahistogram
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_HISTOGRAM (gst_cuda_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaHistogram, gst_cuda_histogram, GST, CUDA_HISTOGRAM,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudahistogram);

G_END_DECLS
