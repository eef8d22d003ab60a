/* cudaimgproc: cudasmooth
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_SMOOTH (gst_cuda_smooth_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaSmooth, gst_cuda_smooth, GST, CUDA_SMOOTH,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudasmooth);

G_END_DECLS
