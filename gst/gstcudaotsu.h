/* cudaimgproc: cudaotsu
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_OTSU (gst_cuda_otsu_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaOtsu, gst_cuda_otsu, GST, CUDA_OTSU,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudaotsu);

G_END_DECLS
