/* cudaimgproc: buffer pool of GstCudaMemory for any single-plane format
 * (GRAY8 included) and the multi-plane formats GStreamer's allocator knows.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

G_BEGIN_DECLS
#define GST_TYPE_CUDA_IMG_POOL (gst_cuda_img_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaImgPool, gst_cuda_img_pool, GST, CUDA_IMG_POOL,
    GstBufferPool);

GstBufferPool *gst_cuda_img_pool_new (GstElement * element,
    GstCudaContext * context);

gboolean gst_cuda_img_alloc_info (const GstVideoInfo * info,
    GstVideoInfo * alloc_info);

GstMemory *gst_cuda_img_memory_alloc (GstCudaContext * context,
    const GstVideoInfo * info, GstVideoInfo * out_info);

G_END_DECLS
