/* cudaimgproc: cudablobs
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_BLOBS (gst_cuda_blobs_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaBlobs, gst_cuda_blobs, GST, CUDA_BLOBS,
    GstCudaImgFilter);

GST_ELEMENT_REGISTER_DECLARE (cudablobs);

G_END_DECLS
