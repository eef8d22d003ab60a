/* cudaimgproc: what every element does whatever its GStreamer base class
 * (GstBaseTransform for the filters, GstVideoAggregator for cudaoverlay):
 * finding the device, CUDA errors as element errors, caps in both kinds of
 * memory, and the pools proposed upstream and used for output.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <cuda_runtime_api.h>

#include "gstcudaimgframe.h"
#include "gstcudaimgsync.h"

G_BEGIN_DECLS

#define GST_CUDA_IMG_DEFAULT_DEVICE_ID -1
GParamSpec *gst_cuda_img_device_id_pspec (void);
gboolean gst_cuda_img_check_device (GstElement * element, gint device_id);
GstCudaContext *gst_cuda_img_shared_context (gint device_id);
gboolean gst_cuda_img_open (GstElement * element, gint device_id,
    GstCudaContext ** context, GstCudaImgStream ** stream,
    GstAllocator ** host_allocator);
gboolean gst_cuda_img_push_context (GstElement * element,
    GstCudaContext * context);

gboolean gst_cuda_img_is_our_memory (GstCudaContext * context,
    GstBuffer * buf);
gboolean gst_cuda_img_map_device (GstBuffer * buf, const GstVideoInfo * info,
    GstMapFlags flags, GstCudaImgFrame * f, GstMapInfo * map);
void gst_cuda_img_unmap_device (GstBuffer * buf, GstMapInfo * map);

GType gst_cuda_img_register_enum (gsize * type, const gchar * name,
    const GEnumValue * values);

GstCaps *gst_cuda_img_formats_caps (const GstVideoFormat * formats, guint n);
gboolean gst_cuda_img_caps_are_cuda (GstCaps * caps);
GstCaps *gst_cuda_img_in_both_memories (GstCaps * caps, GstCaps * within,
    GstCaps * filter);

gboolean gst_cuda_img_propose_allocation (GstElement * element,
    GstQuery * query, GstCudaContext * context, GstAllocator * host_allocator);
gboolean gst_cuda_img_decide_allocation (GstElement * element,
    GstQuery * query, GstCudaContext * context, GstAllocator * host_allocator,
    guint own);

G_END_DECLS
