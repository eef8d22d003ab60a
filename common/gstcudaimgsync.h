/* cudaimgproc: per-element CUDA streams and the fences between them.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

typedef struct _GstCudaImgStream GstCudaImgStream;

/* Who wrote a memory about to be read, as its fence says: none of ours (or
 * one of another context), one of ours on the reader's stream, or one of
 * ours on another stream. */
typedef enum
{
  GST_CUDA_IMG_WRITER_NOT_OURS,
  GST_CUDA_IMG_WRITER_THIS_STREAM,
  GST_CUDA_IMG_WRITER_OTHER_STREAM
} GstCudaImgWriter;

GstCudaImgStream *gst_cuda_img_stream_new (GstCudaContext * context,
    cudaError_t * err);
GstCudaImgStream *gst_cuda_img_stream_ref (GstCudaImgStream * stream);
void gst_cuda_img_stream_unref (GstCudaImgStream * stream);
cudaStream_t gst_cuda_img_stream_handle (GstCudaImgStream * stream);

cudaError_t gst_cuda_img_stream_end_frame (GstCudaImgStream * stream,
    gboolean record);

cudaError_t gst_cuda_img_fence_wait_writer (GstCudaImgStream * stream,
    GstMemory * mem, GstCudaImgWriter * writer);
cudaError_t gst_cuda_img_fence_wait_readers (GstCudaImgStream * stream,
    GstMemory * mem);
void gst_cuda_img_fence_set_writer (GstCudaImgStream * stream, GstMemory * mem);
gboolean gst_cuda_img_fence_add_reader (GstCudaImgStream * stream,
    GstMemory * mem);

/* Waiting on the host for the GPU (gstcudaimgsync.c): the GPU writes
 * @marked to @word (page-locked host memory) once the work recorded
 * before it is done; one GstCudaImgHostWait per waiting site. */
typedef struct
{
  cudaEvent_t event;            /* for other streams to wait on, or NULL */
  volatile guint32 *word;
  guint64 device_word;          /* its device address */
  guint32 marked;               /* what the last record writes */
  cudaStream_t stream;          /* where it was last recorded */
} GstCudaImgHostEvent;

typedef struct
{
  gint64 typical_us;            /* how long its recent waits took */
} GstCudaImgHostWait;

cudaError_t gst_cuda_img_host_event_init (GstCudaImgHostEvent * e,
    gboolean with_event);
void gst_cuda_img_host_event_clear (GstCudaImgHostEvent * e);
cudaError_t gst_cuda_img_host_event_record (GstCudaImgHostEvent * e,
    cudaStream_t stream);
cudaError_t gst_cuda_img_host_event_record_full (GstCudaImgHostEvent * e,
    cudaStream_t stream, gboolean with_event);
gboolean gst_cuda_img_host_event_done (const GstCudaImgHostEvent * e);
cudaError_t gst_cuda_img_host_wait (GstCudaImgHostWait * wait,
    GstCudaImgHostEvent * e);
void gst_cuda_img_host_wait_took (GstCudaImgHostWait * wait, gint64 t0);
gpointer gst_cuda_img_driver_symbol (const gchar * name);
guint gst_cuda_img_spin_begin (gint64 typical_us);
void gst_cuda_img_spin_end (void);

G_END_DECLS
