/* cudaimgproc: values a kernel wrote on the device, read back to the host
 * without stalling the stream and posted as element messages in frame
 * order, at the latest with the next frame and always before EOS.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <cuda_runtime_api.h>

#include "gstcudaimgsync.h"

G_BEGIN_DECLS
/* Messages in flight; one frame's is at most one frame old when posted. */
#define GST_CUDA_IMG_READBACK_SLOTS 4
/**
 * GstCudaImgReadbackBuild:
 * @element: the element posting
 * @data: the bytes copied from the device
 * @pts: the frame's timestamp
 * @flags: what the frame passed to gst_cuda_img_readback_enqueue()
 *
 * Returns: the message's structure
 */
typedef GstStructure *(*GstCudaImgReadbackBuild) (GstElement * element,
    gconstpointer data, GstClockTime pts, guint flags);

typedef struct
{
  GstCudaImgHostEvent done;
  GstClockTime pts;
  guint flags;
  gboolean pending;
  gboolean stamped;             /* its frame's PTS is known */
} GstCudaImgReadbackSlot;

typedef struct
{
  GstElement *element;
  GstCudaImgReadbackBuild build;
  gsize size;
  gpointer device;              /* the record kernels write, zeroed */
  guint8 *host;                 /* pinned, a slot's bytes each */
  GstCudaImgReadbackSlot slots[GST_CUDA_IMG_READBACK_SLOTS];
  guint next;
  gint current;                 /* enqueued by the frame in process */
  GstCudaImgHostWait wait;
  /* the streaming thread and a downloader's pushing thread post */
  GMutex lock;
  gboolean locks;
} GstCudaImgReadback;

/* Context current.  Allocates the device record (@size bytes, zeroed) that
 * the element's kernels write and each message is read from. */
cudaError_t gst_cuda_img_readback_alloc (GstCudaImgReadback * rb,
    GstElement * element, gsize size, GstCudaImgReadbackBuild build);
/* Posts what is pending, then frees.  Context current. */
void gst_cuda_img_readback_free (GstCudaImgReadback * rb);

/* From process(): copy the device record on @stream for this frame. */
cudaError_t gst_cuda_img_readback_enqueue (GstCudaImgReadback * rb,
    guint flags, cudaStream_t stream);
/* Before each frame's process() (the base class): no message for it
 * unless process() enqueues one. */
void gst_cuda_img_readback_skip (GstCudaImgReadback * rb);

/* After the frame's work is enqueued (the base class): stamps this
 * frame's message with @outbuf's PTS, posts the earlier ones and this one
 * if it already arrived. */
void gst_cuda_img_readback_after (GstCudaImgReadback * rb, GstBuffer * outbuf);

/* As a frame leaves the download thread (the base class): posts what is
 * on the host, in frame order. */
void gst_cuda_img_readback_post_ready (GstCudaImgReadback * rb);

/* On EOS: posts everything (pushes @ctx to wait). */
void gst_cuda_img_readback_drain (GstCudaImgReadback * rb,
    GstCudaContext * ctx);

G_END_DECLS
