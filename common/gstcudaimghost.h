/* cudaimgproc: page-locked (pinned) host memory: an allocator, the video
 * buffer pools built on it, and whether a mapped host frame can be copied
 * to or from the GPU asynchronously at full PCIe speed.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS
#define GST_CUDA_IMG_HOST_MEMORY_TYPE "CudaImgHostMemory"
#define GST_TYPE_CUDA_IMG_HOST_ALLOCATOR \
  (gst_cuda_img_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaImgHostAllocator, gst_cuda_img_host_allocator,
    GST, CUDA_IMG_HOST_ALLOCATOR, GstAllocator);

GstAllocator *gst_cuda_img_host_allocator_new (GstElement * element,
    GstCudaContext * context);

gboolean gst_cuda_img_is_host_memory (GstMemory * mem);

void gst_cuda_img_warn_pageable (GstElement * element, gsize bytes,
    const gchar * purpose);

GstBufferPool *gst_cuda_img_host_pool_new (GstAllocator * allocator,
    GstCaps * caps, guint min, guint max);

gboolean gst_cuda_img_host_is_pinned (GstCudaContext * context,
    GstBuffer * buf, gconstpointer data);

void gst_cuda_img_host_submit_begin (void);

void gst_cuda_img_host_submit_end (void);

G_END_DECLS
