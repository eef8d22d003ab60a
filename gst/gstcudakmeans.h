/* cudaimgproc: cudakmeans
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_KMEANS (gst_cuda_kmeans_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaKmeans, gst_cuda_kmeans, GST, CUDA_KMEANS,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudakmeans);

G_END_DECLS
