/* cudaimgproc: cudaoverlay
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_OVERLAY (gst_cuda_overlay_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaOverlay, gst_cuda_overlay, GST, CUDA_OVERLAY,
    GstVideoAggregator);

GST_ELEMENT_REGISTER_DECLARE (cudaoverlay);

G_END_DECLS
