/* cudaimgproc: cudagray
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_GRAY (gst_cuda_gray_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaGray, gst_cuda_gray, GST, CUDA_GRAY,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudagray);

G_END_DECLS
