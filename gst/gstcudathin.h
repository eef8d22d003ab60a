/* cudaimgproc: cudathin
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_THIN (gst_cuda_thin_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaThin, gst_cuda_thin, GST, CUDA_THIN,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudathin);

G_END_DECLS
