/* cudaimgproc: a frame's planes on the device, and CUDA errors as element
 * errors (gstcudaimgframe.c): the lowest floor of common/, used by the
 * transfers, the read-back, the element helpers and the base class.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/**
 * GstCudaImgFrame:
 * @info: format and size of the frame
 * @data: device pointer of each plane
 * @stride: pitch of each plane, in bytes
 */
typedef struct
{
  const GstVideoInfo *info;
  guint8 *data[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
} GstCudaImgFrame;

void gst_cuda_img_post_cuda_error (GstElement * element, cudaError_t err,
    const gchar * doing);
void gst_cuda_img_frame_from_video_frame (GstCudaImgFrame * f,
    const GstVideoInfo * info, const GstVideoFrame * vf);
void gst_cuda_img_plane_extent (const GstVideoInfo * info, guint p,
    gsize * row, gint * rows);

G_END_DECLS
