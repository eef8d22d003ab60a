/* cudaimgproc: asynchronous read-back of per-frame values as messages.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgreadback.h"
#include "gstcudaimgframe.h"
#include "cip_alloc.h"

#define N GST_CUDA_IMG_READBACK_SLOTS

cudaError_t
gst_cuda_img_readback_alloc (GstCudaImgReadback * rb, GstElement * element,
    gsize size, GstCudaImgReadbackBuild build)
{
  cudaError_t err;
  guint i;

  memset (rb, 0, sizeof (*rb));
  g_mutex_init (&rb->lock);
  rb->locks = TRUE;
  rb->element = element;
  rb->build = build;
  rb->size = size;
  rb->current = -1;
  err = cip_malloc (&rb->device, size, "message results");
  if (err == cudaSuccess)
    err = cudaMemset (rb->device, 0, size);
  if (err == cudaSuccess)
    err = cip_host_alloc ((void **) &rb->host, N * size, cudaHostAllocDefault,
        "page-locked message results");
  for (i = 0; i < N && err == cudaSuccess; i++)
    err = gst_cuda_img_host_event_init (&rb->slots[i].done, FALSE);
  if (err != cudaSuccess)
    gst_cuda_img_readback_free (rb);
  return err;
}

static void
post_slot (GstCudaImgReadback * rb, guint i)
{
  GstStructure *s = rb->build (rb->element, rb->host + i * rb->size,
      rb->slots[i].pts, rb->slots[i].flags);

  rb->slots[i].pending = FALSE;
  rb->slots[i].stamped = FALSE;
  gst_element_post_message (rb->element,
      gst_message_new_element (GST_OBJECT (rb->element), s));
}

/* Posts the pending messages in frame order, but @keep.  @wait: wait for
 * those not yet on the host (their copies were enqueued a frame or more
 * ago), and post those not stamped yet too (EOS); else stop at the first
 * still in flight or unstamped. */
static void
post_pending (GstCudaImgReadback * rb, gboolean wait, gint keep)
{
  guint k;

  for (k = 0; k < N; k++) {
    guint i = (rb->next + k) % N;
    cudaError_t err;

    if (!rb->slots[i].pending || (gint) i == keep)
      continue;
    if (!wait && (!rb->slots[i].stamped ||
            !gst_cuda_img_host_event_done (&rb->slots[i].done)))
      break;
    /* returns at once where it is done */
    err = gst_cuda_img_host_wait (&rb->wait, &rb->slots[i].done);
    if (err != cudaSuccess) {
      gst_cuda_img_post_cuda_error (rb->element,
          err, "reading back the frame's values");
      rb->slots[i].pending = FALSE;
      continue;
    }
    post_slot (rb, i);
  }
}

void
gst_cuda_img_readback_free (GstCudaImgReadback * rb)
{
  guint i;

  if (rb->host)
    post_pending (rb, TRUE, -1);
  for (i = 0; i < N; i++) {
    if (rb->slots[i].done.word)
      gst_cuda_img_host_event_clear (&rb->slots[i].done);
    rb->slots[i].pending = FALSE;
  }
  if (rb->host)
    cip_free_host (rb->host);
  if (rb->device)
    cip_free (rb->device);
  rb->host = NULL;
  rb->device = NULL;
  if (rb->locks)
    g_mutex_clear (&rb->lock);
  rb->locks = FALSE;
}

cudaError_t
gst_cuda_img_readback_enqueue (GstCudaImgReadback * rb, guint flags,
    cudaStream_t stream)
{
  guint i;
  cudaError_t err;

  g_mutex_lock (&rb->lock);
  i = rb->next;
  rb->current = -1;
  /* A slot still pending is N frames old: post it first. */
  if (rb->slots[i].pending)
    post_pending (rb, TRUE, -1);
  err = cudaMemcpyAsync (rb->host + i * rb->size, rb->device, rb->size,
      cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = gst_cuda_img_host_event_record (&rb->slots[i].done, stream);
  if (err == cudaSuccess) {
    rb->slots[i].pending = TRUE;
    rb->slots[i].stamped = FALSE;
    rb->slots[i].flags = flags;
    rb->slots[i].pts = GST_CLOCK_TIME_NONE;
    rb->current = (gint) i;
    rb->next = (i + 1) % N;
  }
  g_mutex_unlock (&rb->lock);
  return err;
}

void
gst_cuda_img_readback_skip (GstCudaImgReadback * rb)
{
  rb->current = -1;
}

void
gst_cuda_img_readback_after (GstCudaImgReadback * rb, GstBuffer * outbuf)
{
  if (!rb->host)
    return;
  g_mutex_lock (&rb->lock);
  if (rb->current >= 0) {
    rb->slots[rb->current].pts = GST_BUFFER_PTS (outbuf);
    rb->slots[rb->current].stamped = TRUE;
  }
  post_pending (rb, TRUE, rb->current);
  if (rb->current >= 0 && rb->slots[rb->current].pending &&
      gst_cuda_img_host_event_done (&rb->slots[rb->current].done))
    post_slot (rb, rb->current);
  g_mutex_unlock (&rb->lock);
}

/* A frame is on the host (its read-back copy came before it): its
 * message, and any before it, go now rather than with the next frame. */
void
gst_cuda_img_readback_post_ready (GstCudaImgReadback * rb)
{
  if (!rb->host)
    return;
  g_mutex_lock (&rb->lock);
  post_pending (rb, FALSE, -1);
  g_mutex_unlock (&rb->lock);
}

void
gst_cuda_img_readback_drain (GstCudaImgReadback * rb, GstCudaContext * ctx)
{
  if (!ctx || !rb->host || !gst_cuda_context_push (ctx))
    return;
  g_mutex_lock (&rb->lock);
  post_pending (rb, TRUE, -1);
  g_mutex_unlock (&rb->lock);
  gst_cuda_context_pop (NULL);
}
