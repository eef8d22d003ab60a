/* cudaimgproc: cudasobel
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_SOBEL (gst_cuda_sobel_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaSobel, gst_cuda_sobel, GST, CUDA_SOBEL,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudasobel);

G_END_DECLS
