/* cudaimgproc: per-element CUDA streams and the fences between them.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each element runs its kernels on a stream of its own, so that two of our
 * elements work on consecutive frames at once (two of ours linked directly
 * share one instead, in stream order).  Between two of our elements nobody
 * waits on the host: the producer records its stream's event after writing
 * a buffer (where another stream is expected to wait: below) and notes
 * itself as the memory's writer; the consumer makes its stream wait for
 * that event (read after write) and notes itself as a reader; before the
 * producer writes the memory again (it came back through the pool) its
 * stream waits for each reader's event (write after read).
 *
 * One event per stream is enough: cudaStreamWaitEvent waits for the work
 * captured by the event's latest record, and on an in-order stream a later
 * record implies every earlier one.  A wait can thus only over-wait, never
 * under-wait, and since it only ever names work already enqueued it cannot
 * form a cycle.
 *
 * The record is skipped where nobody is expected to wait for it (a chain of
 * ours on one stream: about 0.6 us of the streaming thread a frame an
 * element on the lent hosts).  To stay correct whatever is expected (a link
 * changed, a tee added), each frame takes a number once its work is
 * enqueued, the fence keeps the number beside the stream, and the stream
 * publishes the number its event's latest record covers.  A waiter whose
 * frame is not covered records the event itself before waiting: that
 * record captures the frame too (its work was enqueued before the buffer
 * was passed on), and more, so it over-waits; it is not the common path,
 * since behind a queue a producer runs frames ahead and the consumer would
 * wait for those as well.  Numbers are compared modulo 2^32.
 *
 * The fence lives on the GstMemory as qdata, made once per memory (pool
 * memory is reused, so no allocation per frame).
 *
 * From GStreamer 1.24 a foreign producer (nvcodec's decoders, converters,
 * cudaupload) may leave its writes pending on a stream it attached to the
 * memory, flagged GST_CUDA_MEMORY_TRANSFER_NEED_SYNC; 1.22 producers
 * always finished theirs before pushing.  We wait for such a write on the
 * GPU as for one of ours, through a second event recorded on that stream.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgsync.h"

#include <gst/cuda/gstcudamemory.h>

#define MAX_READERS 4

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_sync_debug);
#define GST_CAT_DEFAULT gst_cuda_img_sync_debug

struct _GstCudaImgStream
{
  gint refcount;
  GstCudaContext *context;
  cudaStream_t handle;
  cudaEvent_t event;
#if GST_CHECK_VERSION (1, 24, 0)
  cudaEvent_t foreign;          /* recorded on a foreign memory's stream */
#endif
  gint frames;                  /* (atomic) the last frame's number */
  gint recorded;                /* (atomic) the last number a record covers */
};

typedef struct
{
  GMutex lock;
  GstCudaImgStream *writer;
  guint writer_frame;
  GstCudaImgStream *readers[MAX_READERS];
  guint reader_frames[MAX_READERS];
} Fence;

static GQuark
fence_quark (void)
{
  static gsize q = 0;
  if (g_once_init_enter (&q))
    g_once_init_leave (&q, g_quark_from_static_string ("GstCudaImgFence"));
  return (GQuark) q;
}

/* Called with the context pushed. */
GstCudaImgStream *
gst_cuda_img_stream_new (GstCudaContext * context, cudaError_t * err)
{
  GstCudaImgStream *s = g_new0 (GstCudaImgStream, 1);
  static gsize debug_once = 0;

  if (g_once_init_enter (&debug_once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_img_sync_debug, "cudaimgsync", 0,
        "cudaimgproc streams and fences");
    g_once_init_leave (&debug_once, 1);
  }
  *err = cudaStreamCreateWithFlags (&s->handle, cudaStreamNonBlocking);
  if (*err == cudaSuccess)
    *err = cudaEventCreateWithFlags (&s->event, cudaEventDisableTiming);
#if GST_CHECK_VERSION (1, 24, 0)
  if (*err == cudaSuccess)
    *err = cudaEventCreateWithFlags (&s->foreign, cudaEventDisableTiming);
#endif
  if (*err != cudaSuccess) {
    if (s->event)
      cudaEventDestroy (s->event);
    if (s->handle)
      cudaStreamDestroy (s->handle);
    g_free (s);
    return NULL;
  }
  s->refcount = 1;
  s->context = gst_object_ref (context);
  return s;
}

GstCudaImgStream *
gst_cuda_img_stream_ref (GstCudaImgStream * s)
{
  g_atomic_int_inc (&s->refcount);
  return s;
}

void
gst_cuda_img_stream_unref (GstCudaImgStream * s)
{
  if (!s || !g_atomic_int_dec_and_test (&s->refcount))
    return;
  if (gst_cuda_context_push (s->context)) {
    cudaStreamSynchronize (s->handle);
    cudaEventDestroy (s->event);
#if GST_CHECK_VERSION (1, 24, 0)
    cudaEventDestroy (s->foreign);
#endif
    cudaStreamDestroy (s->handle);
    gst_cuda_context_pop (NULL);
  }
  gst_object_unref (s->context);
  g_free (s);
}

cudaStream_t
gst_cuda_img_stream_handle (GstCudaImgStream * s)
{
  return s->handle;
}

/* Records @s's event, which then covers frame @frame and all before. */
static cudaError_t
record_covering (GstCudaImgStream * s, guint frame)
{
  cudaError_t err = cudaEventRecord (s->event, s->handle);

  if (err == cudaSuccess)
    g_atomic_int_set (&s->recorded, (gint) frame);
  return err;
}

/**
 * gst_cuda_img_stream_end_frame:
 * @record: whether another stream is expected to wait for this frame
 *
 * After a frame's work is enqueued on @s, before its buffers go to the
 * fences: the frame takes its number and, with @record, the event is
 * recorded.
 */
cudaError_t
gst_cuda_img_stream_end_frame (GstCudaImgStream * s, gboolean record)
{
  guint frame = (guint) g_atomic_int_add (&s->frames, 1) + 1;

  return record ? record_covering (s, frame) : cudaSuccess;
}

/* Makes @s wait (on the GPU) for frame @frame of @on; a fence's lock held,
 * which keeps @on alive. */
static cudaError_t
wait_for_frame (GstCudaImgStream * s, GstCudaImgStream * on, guint frame)
{
  cudaError_t err = cudaSuccess;

  if ((gint) (frame - (guint) g_atomic_int_get (&on->recorded)) > 0) {
    GST_LOG ("stream %p: frame %u not recorded, recording it now", on, frame);
    err = record_covering (on, (guint) g_atomic_int_get (&on->frames));
  }
  return err == cudaSuccess ? cudaStreamWaitEvent (s->handle, on->event, 0) :
      err;
}

/* ------------------------------------------------------------------------ */
/* waiting on the host
 *
 * CUDA's default is to spin while a thread waits for the GPU (while a
 * process has fewer contexts than cores), so every thread that waits on
 * an event keeps a core busy: a 1080p stream from system memory kept two
 * cores busy waiting for its copies, sixteen streams all sixteen (H200).
 * Events the host waits on are made with cudaEventBlockingSync instead,
 * and a wait sleeps in the driver until the GPU signals it; the driver's
 * event thread pays for that (docs/notes/streams.md).  A blocked wait
 * wakes about 50 µs after the GPU is done (H200), which only matters where
 * the wait itself is short: 640x480 frames from system memory fell from
 * 36 000 to 13 000 a second when every wait slept.  So a site whose recent
 * waits (the wake-up included) were shorter than the spin budget polls
 * first, for at most that budget, and only while few threads of the
 * process spin at once (one per eight cores), so that many streams never
 * keep many cores busy, while a site whose frames come slower (1080p
 * through PCIe: 150 µs a frame) or queue behind other streams' work
 * sleeps.  The budget must exceed the wake-up, or a site that slept once
 * never spins again: 20 µs did not (measured); 100 µs, the push thread's
 * old spin, is not measured yet (docs/notes/streams.md). */

#define DEFAULT_SPIN_US 100

static gint spinning;           /* (atomic) threads spinning now */
static guint spin_budget;       /* µs; set once, below */
static gint max_spinning;

static void
init_spin_limits (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    /* CUDAIMGPROC_SPIN_US: the budget (0: always sleep), for A/B runs */
    const gchar *env = g_getenv ("CUDAIMGPROC_SPIN_US");

    spin_budget = env ? (guint) MIN (g_ascii_strtoull (env, NULL, 10), 1000) :
        DEFAULT_SPIN_US;
    max_spinning = MAX (1, g_get_num_processors () / 8);
    g_once_init_leave (&once, 1);
  }
}

/**
 * gst_cuda_img_spin_begin:
 * @typical_us: how long this site's recent waits took
 *
 * How many µs a thread about to wait may poll before it sleeps: the spin
 * budget where its waits are shorter than that and a spinning slot is
 * free (one per eight cores, at least one), else 0.  A non-zero answer is
 * paired with gst_cuda_img_spin_end ().
 */
guint
gst_cuda_img_spin_begin (gint64 typical_us)
{
  init_spin_limits ();
  if (!spin_budget || typical_us >= spin_budget)
    return 0;
  if (g_atomic_int_add (&spinning, 1) >= max_spinning) {
    g_atomic_int_add (&spinning, -1);
    return 0;
  }
  return spin_budget;
}

void
gst_cuda_img_spin_end (void)
{
  g_atomic_int_add (&spinning, -1);
}

/* An event the host waits on: it sleeps, not spins (no timing either). */
cudaError_t
gst_cuda_img_host_event_new (cudaEvent_t * event)
{
  return cudaEventCreateWithFlags (event, cudaEventBlockingSync |
      cudaEventDisableTiming);
}

/**
 * gst_cuda_img_host_wait:
 * @wait: the waiting site's history
 * @event: made by gst_cuda_img_host_event_new ()
 *
 * Returns once the work @event's last record covers is done (or failed:
 * its error).  Polls first where this site's waits are short, then sleeps.
 */
cudaError_t
gst_cuda_img_host_wait (GstCudaImgHostWait * wait, cudaEvent_t event)
{
  cudaError_t err = cudaEventQuery (event);
  gint64 t0, end;
  guint budget;

  if (err != cudaErrorNotReady)
    return err;
  t0 = g_get_monotonic_time ();
  budget = gst_cuda_img_spin_begin (wait->typical_us);
  if (budget) {
    end = t0 + budget;
    while ((err = cudaEventQuery (event)) == cudaErrorNotReady &&
        g_get_monotonic_time () < end);
    gst_cuda_img_spin_end ();
  }
  if (err == cudaErrorNotReady)
    err = cudaEventSynchronize (event);
  gst_cuda_img_host_wait_took (wait, t0);
  return err;
}

/* A wait that began at @t0 (g_get_monotonic_time) just ended: @wait's
 * typical wait is a running mean over about eight. */
void
gst_cuda_img_host_wait_took (GstCudaImgHostWait * wait, gint64 t0)
{
  wait->typical_us += (g_get_monotonic_time () - t0 - wait->typical_us) / 8;
}

static void
fence_free (gpointer data)
{
  Fence *f = data;
  guint i;

  if (f->writer)
    gst_cuda_img_stream_unref (f->writer);
  for (i = 0; i < MAX_READERS; i++)
    if (f->readers[i])
      gst_cuda_img_stream_unref (f->readers[i]);
  g_mutex_clear (&f->lock);
  g_free (f);
}

static Fence *
fence_get (GstMemory * mem, gboolean create)
{
  static GMutex create_lock;
  Fence *f = gst_mini_object_get_qdata (GST_MINI_OBJECT (mem), fence_quark ());

  if (f || !create)
    return f;
  /* Two readers behind a tee may get here at once. */
  g_mutex_lock (&create_lock);
  f = gst_mini_object_get_qdata (GST_MINI_OBJECT (mem), fence_quark ());
  if (!f) {
    f = g_new0 (Fence, 1);
    g_mutex_init (&f->lock);
    gst_mini_object_set_qdata (GST_MINI_OBJECT (mem), fence_quark (), f,
        fence_free);
  }
  g_mutex_unlock (&create_lock);
  return f;
}

static inline gboolean
same_context (GstCudaImgStream * s, GstMemory * mem)
{
  return ((GstCudaMemory *) mem)->context == s->context;
}

/**
 * gst_cuda_img_fence_wait_writer:
 * @writer: (out): which of ours wrote @mem, if any
 *
 * Before reading @mem on @s: wait (on the GPU) for the element that wrote it.
 */
cudaError_t
gst_cuda_img_fence_wait_writer (GstCudaImgStream * s, GstMemory * mem,
    GstCudaImgWriter * writer)
{
  cudaError_t err = cudaSuccess;
  Fence *f;

  *writer = GST_CUDA_IMG_WRITER_NOT_OURS;
  /* our fences and streams live in our context; memory of another one is
   * copied up by the caller rather than read here */
  if (!same_context (s, mem))
    return cudaSuccess;
  f = fence_get (mem, FALSE);
  if (f) {
    g_mutex_lock (&f->lock);
    if (f->writer == s) {
      *writer = GST_CUDA_IMG_WRITER_THIS_STREAM;
    } else if (f->writer) {
      *writer = GST_CUDA_IMG_WRITER_OTHER_STREAM;
      err = wait_for_frame (s, f->writer, f->writer_frame);
    }
    g_mutex_unlock (&f->lock);
  }
#if GST_CHECK_VERSION (1, 24, 0)
  /* A foreign write pending on the memory's stream.  The flag stays set:
   * it tells other readers (a tee's other branch) the same; clearing it is
   * for whoever waits on the host (gst_cuda_memory_sync). */
  if (*writer == GST_CUDA_IMG_WRITER_NOT_OURS
      && GST_MEMORY_FLAG_IS_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC)) {
    GstCudaStream *ms = gst_cuda_memory_get_stream ((GstCudaMemory *) mem);
    cudaStream_t h = ms ? (cudaStream_t) gst_cuda_stream_get_handle (ms) : NULL;

    if (h && h != s->handle) {
      GST_LOG ("memory %p: waiting on the GPU for a write pending on its"
          " stream %p", mem, h);
      err = cudaEventRecord (s->foreign, h);
      if (err == cudaSuccess)
        err = cudaStreamWaitEvent (s->handle, s->foreign, 0);
    }
  }
#endif
  return err;
}

/**
 * gst_cuda_img_fence_wait_readers:
 *
 * Before writing @mem on @s: wait for every one of our elements that read
 * its previous contents, and forget them.
 */
cudaError_t
gst_cuda_img_fence_wait_readers (GstCudaImgStream * s, GstMemory * mem)
{
  Fence *f = same_context (s, mem) ? fence_get (mem, FALSE) : NULL;
  cudaError_t err = cudaSuccess;
  guint i;

  if (!f)
    return cudaSuccess;
  g_mutex_lock (&f->lock);
  for (i = 0; i < MAX_READERS; i++) {
    GstCudaImgStream *r = f->readers[i];
    if (!r)
      continue;
    if (r != s && err == cudaSuccess)
      err = wait_for_frame (s, r, f->reader_frames[i]);
    f->readers[i] = NULL;
    gst_cuda_img_stream_unref (r);
  }
  g_mutex_unlock (&f->lock);
  return err;
}

/* The number of the frame that @s ended last. */
static inline guint
last_frame (GstCudaImgStream * s)
{
  return (guint) g_atomic_int_get (&s->frames);
}

/* After writing @mem on @s and ending the frame there. */
void
gst_cuda_img_fence_set_writer (GstCudaImgStream * s, GstMemory * mem)
{
  Fence *f = fence_get (mem, TRUE);
  GstCudaImgStream *old;

  g_mutex_lock (&f->lock);
  old = f->writer;
  f->writer = old == s ? old : gst_cuda_img_stream_ref (s);
  f->writer_frame = last_frame (s);
  g_mutex_unlock (&f->lock);
  if (old && old != s)
    gst_cuda_img_stream_unref (old);
}

/**
 * gst_cuda_img_fence_add_reader:
 *
 * After enqueuing reads of @mem on @s and ending the frame there.  Returns
 * FALSE when no reader slot is left (a tee to many of our elements): the
 * caller must then synchronize @s before releasing @mem.
 */
gboolean
gst_cuda_img_fence_add_reader (GstCudaImgStream * s, GstMemory * mem)
{
  Fence *f = fence_get (mem, TRUE);
  gboolean ret = FALSE;
  gint i, free_slot = -1;

  g_mutex_lock (&f->lock);
  for (i = 0; i < MAX_READERS; i++) {
    if (f->readers[i] == s) {
      f->reader_frames[i] = last_frame (s);
      ret = TRUE;
      break;
    }
    if (!f->readers[i] && free_slot < 0)
      free_slot = i;
  }
  if (!ret && free_slot >= 0) {
    f->readers[free_slot] = gst_cuda_img_stream_ref (s);
    f->reader_frames[free_slot] = last_frame (s);
    ret = TRUE;
  }
  g_mutex_unlock (&f->lock);
  return ret;
}
