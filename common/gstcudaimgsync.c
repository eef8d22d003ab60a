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
#include "cip_alloc.h"
#include "hostword.h"

#include <gmodule.h>
#include <string.h>
#include <time.h>
#include <gst/cuda/gstcudamemory.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause ()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__ ("yield")
#else
#define cpu_relax() do { } while (0)
#endif

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

static void
init_sync_debug (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_img_sync_debug, "cudaimgsync", 0,
        "cudaimgproc streams, fences and host waits");
    g_once_init_leave (&once, 1);
  }
}

/* Called with the context pushed. */
GstCudaImgStream *
gst_cuda_img_stream_new (GstCudaContext * context, cudaError_t * err)
{
  GstCudaImgStream *s = g_new0 (GstCudaImgStream, 1);

  init_sync_debug ();
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
 * Events made with cudaEventBlockingSync sleep instead, but the driver's
 * event thread then spends about 20 µs of a core on every record (29 % of
 * the process's CPU with 64 streams at 1080p), a woken thread runs about
 * 50 µs after the GPU is done, and polling cudaEventQuery from several
 * threads contends on the context (docs/notes/streams.md).
 *
 * So where the host waits, the GPU writes a number to page-locked host
 * memory once the work before it is done (cuStreamWriteValue32, or a
 * one-thread kernel where the driver lacks it), and the host reads it: no
 * driver call, no driver thread.  A site whose recent waits were shorter
 * than the spin budget polls the word first, for at most that budget, and
 * only while few threads of the process poll at once (one per eight
 * cores), so that many streams never keep many cores busy.  Otherwise, or
 * after the budget, the thread sleeps: first for half its typical wait,
 * then in steps of an eighth of it (5 µs to 1 ms), with a timer slack of
 * 1 µs.  A wait's length is measured to when it noticed the word, a step
 * late at most, so the typical wait settles at the true one plus a
 * sixteenth, where a first sleep of the whole typical wait would grow it
 * without bound; and no sleep is longer than 1 ms, so that one long wait
 * (pipelines starting, a stream queued behind hundreds) is not followed
 * by long sleeps: with the first sleep uncapped, most of 64 streams at
 * 640x480 passed no frame in a second while a few ran at 1330 fps.  Every millisecond asleep it asks the stream for an error
 * (a failed stream never writes the word). */

#define DEFAULT_SPIN_US 100
#define MIN_STEP_US 5
#define MAX_STEP_US 1000
#define CHECK_US 1000
#define WORDS_PER_PAGE 1024
#define CU_ERROR_NOT_SUPPORTED 801      /* the driver's CUDA_ERROR_NOT_SUPPORTED */

typedef int (*WriteValueFunc) (cudaStream_t stream, unsigned long long addr,
    unsigned int value, unsigned int flags);

static gint spinning;           /* (atomic) threads spinning now */
static guint spin_budget;       /* µs; set once, below */
static gint max_spinning;
static WriteValueFunc write_value;      /* NULL: the kernel writes */
/* words of page-locked, mapped memory; a page is freed with its last word
 * (the allocation hook sees pipelines free what they allocated) */
typedef struct
{
  guint32 *base;
  guint n_used;
  guint32 used[WORDS_PER_PAGE / 32];
} WordPage;

static GMutex words_lock;
static GPtrArray *word_pages;

/**
 * gst_cuda_img_driver_symbol:
 *
 * A function of the CUDA driver that GStreamer's loader does not export
 * (cuDevicePrimaryCtxRetain, cuStreamWriteValue32_v2), or NULL.
 * libcuda.so.1 is loaded already (gst_cuda_load_library); it is opened
 * here once and kept open for the life of the process.
 */
gpointer
gst_cuda_img_driver_symbol (const gchar * name)
{
  static gsize once = 0;
  static GModule *libcuda;
  gpointer sym = NULL;

  if (g_once_init_enter (&once)) {
    libcuda = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);
    g_once_init_leave (&once, 1);
  }
  if (libcuda && !g_module_symbol (libcuda, name, &sym))
    sym = NULL;
  return sym;
}

/* What the host waits need, once: the spin limits, the word writer, the
 * words' pages. */
static void
init_host_waits (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    /* CUDAIMGPROC_SPIN_US: the budget (0: always sleep), for A/B runs */
    const gchar *env = g_getenv ("CUDAIMGPROC_SPIN_US");

    init_sync_debug ();
    spin_budget = env ? (guint) MIN (g_ascii_strtoull (env, NULL, 10), 1000) :
        DEFAULT_SPIN_US;
    max_spinning = MAX (1, g_get_num_processors () / 8);
    /* CUDA 12's ABI name; CUDAIMGPROC_HOSTWORD_KERNEL=1 tests the fallback */
    if (!g_getenv ("CUDAIMGPROC_HOSTWORD_KERNEL"))
      write_value = (WriteValueFunc)
          gst_cuda_img_driver_symbol ("cuStreamWriteValue32_v2");
    word_pages = g_ptr_array_new ();
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
  init_host_waits ();
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

/* A word of page-locked, mapped host memory.  Context current. */
static cudaError_t
word_get (volatile guint32 ** word)
{
  cudaError_t err = cudaSuccess;
  WordPage *pg = NULL;
  guint i, k;

  init_host_waits ();
  g_mutex_lock (&words_lock);
  for (i = 0; i < word_pages->len && !pg; i++)
    if (((WordPage *) g_ptr_array_index (word_pages, i))->n_used <
        WORDS_PER_PAGE)
      pg = g_ptr_array_index (word_pages, i);
  if (!pg) {
    pg = g_new0 (WordPage, 1);
    err = cip_host_alloc ((void **) &pg->base,
        WORDS_PER_PAGE * sizeof (guint32),
        cudaHostAllocMapped | cudaHostAllocPortable, "page-locked wait words");
    if (err == cudaSuccess)
      g_ptr_array_add (word_pages, pg);
    else
      g_clear_pointer (&pg, g_free);
  }
  if (pg) {
    for (k = 0; pg->used[k / 32] & (1u << (k % 32)); k++);
    pg->used[k / 32] |= 1u << (k % 32);
    pg->n_used++;
    *word = pg->base + k;
  }
  g_mutex_unlock (&words_lock);
  return err;
}

static void
word_put (volatile guint32 * word)
{
  guint i;

  g_mutex_lock (&words_lock);
  for (i = 0; i < word_pages->len; i++) {
    WordPage *pg = g_ptr_array_index (word_pages, i);
    gsize k = (gsize) (word - pg->base);

    if (word < pg->base || k >= WORDS_PER_PAGE)
      continue;
    pg->used[k / 32] &= ~(1u << (k % 32));
    if (--pg->n_used == 0) {
      cip_free_host (pg->base);
      g_free (pg);
      g_ptr_array_remove_index_fast (word_pages, i);
    }
    break;
  }
  g_mutex_unlock (&words_lock);
}

/**
 * gst_cuda_img_host_event_init:
 * @with_event: also a CUDA event, for other streams to wait on (@e->event)
 *
 * A point in a stream's work the host can wait for.  Context current.
 */
cudaError_t
gst_cuda_img_host_event_init (GstCudaImgHostEvent * e, gboolean with_event)
{
  cudaError_t err;

  memset (e, 0, sizeof (*e));
  err = word_get (&e->word);
  if (err != cudaSuccess)
    return err;
  *e->word = 0;
  err = cudaHostGetDevicePointer ((void **) &e->device_word,
      (void *) e->word, 0);
  if (err == cudaSuccess && with_event)
    err = cudaEventCreateWithFlags (&e->event, cudaEventDisableTiming);
  if (err != cudaSuccess)
    gst_cuda_img_host_event_clear (e);
  return err;
}

/* Context current.  Waits for the GPU's last write of the word first: its
 * page may be freed with it (the callers have synchronized the stream
 * already, or the stream failed; either way this does not wait long). */
void
gst_cuda_img_host_event_clear (GstCudaImgHostEvent * e)
{
  if (e->event)
    cudaEventDestroy (e->event);
  if (e->word && e->stream && !gst_cuda_img_host_event_done (e)) {
    GstCudaImgHostWait w = { 0 };

    (void) gst_cuda_img_host_wait (&w, e);
  }
  if (e->word)
    word_put (e->word);
  memset (e, 0, sizeof (*e));
}

/**
 * gst_cuda_img_host_event_record:
 *
 * Marks the end of what is enqueued on @stream so far: the host can wait
 * for it (gst_cuda_img_host_wait), other streams for @e->event.
 */
cudaError_t
gst_cuda_img_host_event_record (GstCudaImgHostEvent * e, cudaStream_t stream)
{
  return gst_cuda_img_host_event_record_full (e, stream, TRUE);
}

/**
 * gst_cuda_img_host_event_record_full:
 * @with_event: FALSE: the host's word only, where no other stream waits
 *   for this mark (one driver call less)
 */
cudaError_t
gst_cuda_img_host_event_record_full (GstCudaImgHostEvent * e,
    cudaStream_t stream, gboolean with_event)
{
  cudaError_t err = e->event && with_event ?
      cudaEventRecord (e->event, stream) : cudaSuccess;
  WriteValueFunc write = write_value;
  guint32 mark = e->marked + 1;
  int res;

  if (err != cudaSuccess)
    return err;
  /* the default write is fenced: the work before it is visible first */
  res = write ? write (stream, e->device_word, mark, 0) : 0;
  if (res == CU_ERROR_NOT_SUPPORTED) {
    GST_INFO ("no stream memory operations here: a kernel writes the words");
    write = write_value = NULL;
  } else if (res != 0) {
    err = cudaStreamQuery (stream);
    return err == cudaErrorNotReady || err == cudaSuccess ?
        cudaErrorUnknown : err;
  }
  if (!write)
    err = cip_hostword_write ((guint32 *) e->device_word, mark, stream);
  if (err == cudaSuccess) {
    e->marked = mark;
    e->stream = stream;
  }
  return err;
}

/* TRUE once the work its last record covers is done; no driver call. */
gboolean
gst_cuda_img_host_event_done (const GstCudaImgHostEvent * e)
{
  return (gint32) (g_atomic_int_get ((gint *) e->word) - e->marked) >= 0;
}

static void
sleep_us (gint64 us)
{
  struct timespec ts = { us / G_USEC_PER_SEC, (us % G_USEC_PER_SEC) * 1000 };
#ifdef __linux__
  static __thread gboolean slack_set;

  /* the default 50 µs would make every step a long one */
  if (!slack_set)
    prctl (PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  slack_set = TRUE;
#endif
  while (nanosleep (&ts, &ts) != 0);
}

/* Sleeps until @e is done or its stream failed, having waited since @t0. */
static cudaError_t
sleep_until_done (GstCudaImgHostEvent * e, gint64 typical_us, gint64 t0)
{
  const gint64 step = CLAMP (typical_us / 8, MIN_STEP_US, MAX_STEP_US);
  gint64 now = g_get_monotonic_time (), check = now + CHECK_US;
  gint64 first = MIN (t0 + typical_us / 2 - now, MAX_STEP_US);
  cudaError_t err;

  if (first > step)
    sleep_us (first);
  while (!gst_cuda_img_host_event_done (e)) {
    if (g_get_monotonic_time () >= check) {
      err = cudaStreamQuery (e->stream);
      if (err != cudaErrorNotReady)
        return err;             /* done (the word is then written) or failed */
      check = g_get_monotonic_time () + CHECK_US;
    }
    sleep_us (step);
  }
  return cudaSuccess;
}

/**
 * gst_cuda_img_host_wait:
 * @wait: the waiting site's history
 *
 * Returns once the work @e's last record covers is done (or failed: its
 * error).  Polls first where this site's waits are short, then sleeps.
 */
cudaError_t
gst_cuda_img_host_wait (GstCudaImgHostWait * wait, GstCudaImgHostEvent * e)
{
  cudaError_t err = cudaSuccess;
  gint64 t0, end;
  guint budget, i;

  if (gst_cuda_img_host_event_done (e))
    return cudaSuccess;
  t0 = g_get_monotonic_time ();
  budget = gst_cuda_img_spin_begin (wait->typical_us);
  if (budget) {
    end = t0 + budget;
    do {
      for (i = 0; i < 64 && !gst_cuda_img_host_event_done (e); i++)
        cpu_relax ();
    } while (!gst_cuda_img_host_event_done (e)
        && g_get_monotonic_time () < end);
    gst_cuda_img_spin_end ();
  }
  if (!gst_cuda_img_host_event_done (e))
    err = sleep_until_done (e, wait->typical_us, t0);
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
