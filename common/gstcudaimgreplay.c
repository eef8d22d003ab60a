/* cudaimgproc: a frame's kernel launches captured once as a CUDA graph and
 * replayed for later frames with the same buffers and settings.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: on GPU frames a chain of ours is bound by the host, and most of an
 * element's host time a frame is its kernel launch (about 4-5 us on the
 * lent H100 hosts; launching a graph, whatever it holds, about 2).  The
 * pools' buffers cycle, so the same few (input, output) pairs come back
 * frame after frame: each pair's launches are captured once and the graph
 * is launched from then on.  A graph is only kept while the element's
 * settings generation (bumped by every property notification) is the one
 * read before the capture, so a frame uses the old settings or the new
 * ones, never a stale graph.  Where graphs keep missing (settings animated
 * by a controller every frame, more buffer pairs than entries) the
 * element launches directly for a while, as it would without this.
 *
 * The launches are captured on a stream of the cache's own, and only the
 * finished graph is launched on the element's stream.  That stream is
 * shared: the next element of ours runs on it, and stops (from the
 * application's thread, while frames still stream upstream) by
 * synchronizing it.  Synchronizing a stream that another thread is
 * capturing is invalid; the driver crashed on it (cuStreamSynchronize,
 * SIGSEGV, within seconds in a two-thread loop on an H100; now and then in
 * oom-gpu's pipelines torn down mid-stream).  No thread but the capturing
 * one ever sees the capture stream.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgreplay.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_replay_debug);
#define GST_CAT_DEFAULT gst_cuda_img_replay_debug

/* A miss (capture and instantiation, tens of µs) costs many hits' gain. */
#define MISS_DEBT 16
#define MAX_DEBT 256
#define BACKOFF_FRAMES 1024

static void
ensure_debug (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_img_replay_debug, "cudaimgreplay", 0,
        "cudaimgproc: launches replayed as CUDA graphs");
    g_once_init_leave (&once, 1);
  }
}

/* Context current.  The graphs go; the capture stream stays for the next
 * caps (gst_cuda_img_replay_free). */
void
gst_cuda_img_replay_clear (GstCudaImgReplay * replay)
{
  guint i;

  /* a graph still running is freed when it completes */
  for (i = 0; i < replay->n; i++)
    cudaGraphExecDestroy (replay->entries[i].exec);
  replay->n = 0;
  replay->debt = 0;
  replay->backoff = 0;
}

/* Context current: everything, the capture stream too. */
void
gst_cuda_img_replay_free (GstCudaImgReplay * replay)
{
  gst_cuda_img_replay_clear (replay);
  if (replay->capture)
    cudaStreamDestroy (replay->capture);
  replay->capture = NULL;
}

static cudaGraphExec_t
lookup (GstCudaImgReplay * replay, const GstCudaImgReplayKey * key)
{
  guint i;

  for (i = 0; i < replay->n; i++) {
    if (memcmp (&replay->entries[i].key, key, sizeof (*key)) == 0) {
      replay->entries[i].used = ++replay->clock;
      return replay->entries[i].exec;
    }
  }
  return NULL;
}

/* Keeps @exec under @key, in place of the least recently used entry. */
static void
insert (GstCudaImgReplay * replay, const GstCudaImgReplayKey * key,
    cudaGraphExec_t exec)
{
  GstCudaImgReplayEntry *e = &replay->entries[0];
  guint i;

  if (replay->n < GST_CUDA_IMG_REPLAY_ENTRIES) {
    e = &replay->entries[replay->n++];
  } else {
    for (i = 1; i < replay->n; i++)
      if (replay->entries[i].used < e->used)
        e = &replay->entries[i];
    cudaGraphExecDestroy (e->exec);
  }
  e->key = *key;
  e->exec = exec;
  e->used = ++replay->clock;
}

/* The launches captured into an instantiated graph, or NULL (the capture
 * failed: nothing was enqueued; *launch_err: @launch's own error). */
static cudaGraphExec_t
capture (GstCudaImgReplay * replay, GstCudaImgReplayLaunch launch,
    gpointer data, cudaError_t * launch_err, cudaError_t * err)
{
  cudaStream_t stream;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;

  *launch_err = cudaSuccess;
  /* once per element: nothing executes on it, it only records */
  *err = replay->capture ? cudaSuccess :
      cudaStreamCreateWithFlags (&replay->capture, cudaStreamNonBlocking);
  if (*err != cudaSuccess) {
    replay->capture = NULL;
    return NULL;
  }
  stream = replay->capture;
  /* thread-local: other threads' CUDA calls (a push thread waiting on an
   * event) are not this capture's business */
  *err = cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal);
  if (*err != cudaSuccess)
    return NULL;
  *launch_err = launch (data, stream);
  *err = cudaStreamEndCapture (stream, &graph);
  if (*err == cudaSuccess && *launch_err == cudaSuccess)
    *err = cudaGraphInstantiate (&exec, graph, 0);
  if (graph)
    cudaGraphDestroy (graph);
  if (*err != cudaSuccess || *launch_err != cudaSuccess) {
    /* drop the capture's error so the direct launch speaks for itself */
    (void) cudaGetLastError ();
    if (exec)
      cudaGraphExecDestroy (exec);
    return NULL;
  }
  return exec;
}

/**
 * gst_cuda_img_replay_run:
 * @gen: the element's settings generation, read atomically before and
 *   after the capture
 * @launch: enqueues the frame's launches on the stream it is given:
 *   @stream, or the capture stream while capturing, when it must do
 *   nothing but enqueue (no one-shot state consumed, no host bookkeeping
 *   of its own), since the graph replays it
 *
 * Enqueues the frame's work on @stream: a kept graph if @key has one, else
 * @launch captured (and kept), else @launch itself.  Context current.
 */
cudaError_t
gst_cuda_img_replay_run (GstCudaImgReplay * replay, GstObject * owner,
    const GstCudaImgReplayKey * key, const gint * gen,
    GstCudaImgReplayLaunch launch, gpointer data, cudaStream_t stream)
{
  cudaGraphExec_t exec;
  cudaError_t err, launch_err;

  if (replay->broken)
    return launch (data, stream);
  if (replay->backoff) {
    replay->backoff--;
    return launch (data, stream);
  }
  exec = lookup (replay, key);
  if (exec) {
    replay->hits++;
    replay->debt -= MIN (replay->debt, 1);
    return cudaGraphLaunch (exec, stream);
  }

  ensure_debug ();
  replay->misses++;
  replay->debt += MISS_DEBT;
  if (replay->debt > MAX_DEBT) {
    GST_DEBUG_OBJECT (owner, "graphs keep missing (%" G_GUINT64_FORMAT
        " hits, %" G_GUINT64_FORMAT " misses): direct launches for %d "
        "frames", replay->hits, replay->misses, BACKOFF_FRAMES);
    replay->debt = 0;
    replay->backoff = BACKOFF_FRAMES;
    gst_cuda_img_replay_clear (replay);
    replay->backoff = BACKOFF_FRAMES;
    return launch (data, stream);
  }

  GST_LOG_OBJECT (owner, "capturing the launches for a new buffer pair or "
      "settings (%u graphs kept)", replay->n);
  exec = capture (replay, launch, data, &launch_err, &err);
  if (!exec) {
    /* a launcher that cannot be captured: the element works as before */
    GST_WARNING_OBJECT (owner, "cannot capture the frame's launches (%s, "
        "%s): launching directly from now on", cudaGetErrorName (err),
        cudaGetErrorName (launch_err));
    replay->broken = TRUE;
    return launch (data, stream);
  }
  err = cudaGraphLaunch (exec, stream);
  if (g_atomic_int_get (gen) == key->gen) {
    insert (replay, key, exec);
  } else {
    /* the settings changed during the capture: this frame only */
    cudaGraphExecDestroy (exec);
  }
  return err;
}
