/* cudaimgproc: cudathin3d
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_THIN3D (gst_cuda_thin3d_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaThin3d, gst_cuda_thin3d, GST, CUDA_THIN3D,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudathin3d);

G_END_DECLS
