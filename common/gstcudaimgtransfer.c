/* cudaimgproc: frames between system memory and the GPU.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The first element of a chain uploads, the last downloads.  Both copies
 * run on copy streams of their own, so that with the kernels on the
 * element's stream the copy engines and the SMs work on three frames at
 * once: frame N+1 going up while frame N is computed and frame N-1 comes
 * down.
 *
 * Upload: a ring of GST_CUDA_IMG_UPLOAD_SLOTS device frames.  A frame in
 * page-locked memory (our pool, which upstream was proposed, or system
 * memory registered when it came back, see gstcudaimghost.c) is copied by
 * the engine straight from the buffer; anything else is staged band by
 * band through page-locked memory of the slot's, copied by the CPU on the
 * streaming thread and a few helpers while the engine takes the bands
 * already copied.  The input stays mapped, and so
 * referenced, until its copy is done: the host waits for that only when
 * the slot comes round again, two frames later.
 *
 * Download: a ring of GST_CUDA_IMG_DOWNLOAD_SLOTS device frames the
 * kernels write, each copied into its output buffer (page-locked: our own
 * pool) on the copy stream.  Nothing waits for that on the streaming
 * thread: a thread of the downloader's waits for each frame's copy and
 * pushes the buffers in order, so a frame leaves as soon as it is on the
 * host (no added latency) while the streaming thread already uploads the
 * next.  When every slot is in flight the streaming thread waits.  Serialized
 * events and queries drain the ring first (the base class calls
 * gst_cuda_img_downloader_drain), so nothing overtakes a frame.
 *
 * The same ring and thread serve frames that stay on the device (made
 * without a GstVideoInfo: no device frames, no copy): the last of our
 * elements before a foreign one that takes CUDA memory, which must get a
 * finished frame, and the first after a foreign CUDA producer, which may
 * write its buffer again once we release it.  The thread waits for the
 * frame's work, then releases the input and pushes the output, so the
 * streaming thread goes on to the next frame instead of waiting for the
 * GPU: a chain of ours costs no host synchronisation in the streaming
 * thread at all.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgtransfer.h"
#include "gstcudaimgframe.h"
#include "gstcudaimgsync.h"
#include "gstcudaimghost.h"
#include "cip_alloc.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_transfer_debug);
#define GST_CAT_DEFAULT gst_cuda_img_transfer_debug

static void
init_debug (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_img_transfer_debug, "cudaimgtransfer",
        0, "cudaimgproc uploads and downloads");
    g_once_init_leave (&once, 1);
  }
}

/* Says once, and again whenever it changes, how frames cross: page-locked
 * memory copied by the engine itself, or staged by the CPU. */
static void
note_path (GstObject * who, gint * last, gboolean pinned, const gchar * dir)
{
  if (*last == pinned)
    return;
  *last = pinned;
  GST_INFO_OBJECT (who, "%s %s", dir, pinned ? "straight from page-locked "
      "memory" : "staged through page-locked memory (the buffer's is "
      "pageable)");
}

/* A staged copy goes in bands of about this many bytes. */
#define BAND_BYTES (2u << 20)

/* A frame on the device, and where its planes go in a packed host copy. */
typedef struct
{
  guint8 *data[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  gsize row[GST_VIDEO_MAX_PLANES];
  gint rows[GST_VIDEO_MAX_PLANES];
  gsize host_off[GST_VIDEO_MAX_PLANES];
  gsize host_size;
  guint n_planes;
} Planes;

static void
planes_free (Planes * d)
{
  guint p;

  for (p = 0; p < d->n_planes; p++)
    if (d->data[p])
      cip_free (d->data[p]);
  memset (d, 0, sizeof (*d));
}

/* Context current. */
static cudaError_t
planes_alloc (Planes * d, const GstVideoInfo * info)
{
  cudaError_t err = cudaSuccess;
  guint p;

  memset (d, 0, sizeof (*d));
  d->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < d->n_planes && err == cudaSuccess; p++) {
    size_t pitch = 0;

    gst_cuda_img_plane_extent (info, p, &d->row[p], &d->rows[p]);
    d->host_off[p] = d->host_size;
    d->host_size += d->row[p] * d->rows[p];
    err = cip_malloc_pitch ((void **) &d->data[p], &pitch, d->row[p],
        d->rows[p], "transfer frame plane");
    d->stride[p] = (gint) pitch;
  }
  if (err != cudaSuccess)
    planes_free (d);
  return err;
}

/* A slot's page-locked staging (@d's planes packed), made at first need;
 * NULL where none can be had, after one warning from @element: the copy
 * then goes straight to or from the pageable memory, which CUDA stages
 * itself, synchronously (slower, still right).  Context current. */
static guint8 *
staging_get (const Planes * d, guint8 ** staging, GstElement * element,
    gboolean * warned)
{
  if (*staging || cip_host_alloc ((void **) staging, d->host_size,
          cudaHostAllocPortable, "page-locked staging") == cudaSuccess)
    return *staging;
  if (!*warned)
    gst_cuda_img_warn_pageable (element, d->host_size,
        "to copy frames through");
  *warned = TRUE;
  return NULL;
}

/* A slot's device frame and page-locked staging. */
static void
slot_buffers_free (Planes * d, guint8 ** staging)
{
  planes_free (d);
  if (*staging)
    cip_free_host (*staging);
  *staging = NULL;
}

static void
planes_to_frame (const Planes * d, const GstVideoInfo * info,
    GstCudaImgFrame * f)
{
  guint p;

  memset (f, 0, sizeof (*f));
  f->info = info;
  for (p = 0; p < d->n_planes; p++) {
    f->data[p] = d->data[p];
    f->stride[p] = d->stride[p];
  }
}

static void
copy_rows (guint8 * dst, gsize dstride, const guint8 * src, gsize sstride,
    gsize row, gint rows)
{
  gint y;

  if (dstride == row && sstride == row) {
    memcpy (dst, src, row * rows);
    return;
  }
  for (y = 0; y < rows; y++)
    memcpy (dst + y * dstride, src + y * sstride, row);
}

/* ------------------------------------------------------------------------ */
/* staging: copying pageable memory into page-locked memory, in bands, with
 * a few threads.  One CPU thread copies about 7 GB/s on the lent hosts,
 * four about 22, the PCIe link takes 50: the caller and up to
 * COPIER_THREADS helpers take bands in turn, and the caller hands each
 * band to the copy engine as soon as it and those before it are copied.
 * The helpers are the process's, shared by every uploader (a hundred
 * pipelines made seven hundred threads when each had its own): a copier
 * with bands left waits in their queue. */

#define COPIER_THREADS 7
#define MAX_BANDS 256

typedef struct
{
  GMutex lock;
  GCond cond;

  /* the job: rows of @row bytes, @band rows a band */
  const guint8 *src;
  gsize sstride;
  guint8 *dst;
  gsize row;
  gint rows, band, n_bands, next;
  guint8 done[MAX_BANDS];

  /* under helpers_lock */
  GList link;                   /* in the helpers' queue, where queued */
  gboolean queued;
  guint helping;                /* helpers working on it */
} Copier;

static GMutex helpers_lock;
static GCond helpers_cond;
static GQueue helpers_queue = G_QUEUE_INIT;

/* Band @i's first row, and how many rows it has. */
static gint
band_rows (const Copier * c, gint i, gint * y)
{
  *y = i * c->band;
  return MIN (c->band, c->rows - *y);
}

static void
copy_band (Copier * c, gint i)
{
  gint y, n = band_rows (c, i, &y);

  copy_rows (c->dst + (gsize) y * c->row, c->row,
      c->src + (gsize) y * c->sstride, c->sstride, c->row, n);
}

/* helpers_lock held */
static void
copier_unqueue (Copier * c)
{
  if (c->queued)
    g_queue_unlink (&helpers_queue, &c->link);
  c->queued = FALSE;
}

/* One of the process's helpers: copies bands of the first queued copier
 * until it has none left. */
static gpointer
copier_thread (gpointer data)
{
  for (;;) {
    Copier *c;

    g_mutex_lock (&helpers_lock);
    while (!helpers_queue.head)
      g_cond_wait (&helpers_cond, &helpers_lock);
    c = helpers_queue.head->data;
    c->helping++;
    g_mutex_unlock (&helpers_lock);

    g_mutex_lock (&c->lock);
    while (c->next < c->n_bands) {
      gint i = c->next++;

      g_mutex_unlock (&c->lock);
      copy_band (c, i);
      g_mutex_lock (&c->lock);
      c->done[i] = 1;
      g_cond_broadcast (&c->cond);
    }
    g_mutex_unlock (&c->lock);

    g_mutex_lock (&helpers_lock);
    copier_unqueue (c);
    c->helping--;
    g_cond_broadcast (&helpers_cond);
    g_mutex_unlock (&helpers_lock);
  }
  return NULL;
}

static void
copier_free (Copier * c)
{
  if (!c)
    return;
  g_mutex_lock (&helpers_lock);
  copier_unqueue (c);
  while (c->helping)
    g_cond_wait (&helpers_cond, &helpers_lock);
  g_mutex_unlock (&helpers_lock);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->cond);
  g_free (c);
}

/* The helpers start with the first copier, only where there are cores
 * for them (none on one core), and live as long as the process. */
static Copier *
copier_new (void)
{
  static gsize once = 0;
  Copier *c = g_new0 (Copier, 1);

  if (g_once_init_enter (&once)) {
    guint i, n = MIN (COPIER_THREADS, g_get_num_processors () - 1);

    for (i = 0; i < n; i++) {
      GThread *t = g_thread_try_new ("cudaimg-stage", copier_thread, NULL,
          NULL);
      if (t)
        g_thread_unref (t);
    }
    g_once_init_leave (&once, 1);
  }
  g_mutex_init (&c->lock);
  g_cond_init (&c->cond);
  c->link.data = c;
  return c;
}

/* Copies @rows rows of @row bytes from @src into page-locked @dst (rows
 * packed) and enqueues each band's copy from @dst to the device rows at
 * @dev, @dpitch apart, on @stream, in order. */
static cudaError_t
copier_stage (Copier * c, const guint8 * src, gsize sstride, guint8 * dst,
    gsize row, gint rows, guint8 * dev, gsize dpitch, cudaStream_t stream)
{
  cudaError_t err = cudaSuccess;
  gint dma = 0;

  g_mutex_lock (&c->lock);
  c->src = src;
  c->sstride = sstride;
  c->dst = dst;
  c->row = row;
  c->rows = rows;
  c->band = MAX (1, (gint) (BAND_BYTES / MAX (row, 1)));
  c->band = MAX (c->band, (rows + MAX_BANDS - 1) / MAX_BANDS);
  c->n_bands = (rows + c->band - 1) / c->band;
  c->next = 0;
  memset (c->done, 0, c->n_bands);
  g_mutex_unlock (&c->lock);

  g_mutex_lock (&helpers_lock);
  if (!c->queued)
    g_queue_push_tail_link (&helpers_queue, &c->link);
  c->queued = TRUE;
  g_cond_broadcast (&helpers_cond);
  g_mutex_unlock (&helpers_lock);

  g_mutex_lock (&c->lock);
  while (dma < c->n_bands) {
    if (c->done[dma]) {
      gint y, n = band_rows (c, dma++, &y);

      g_mutex_unlock (&c->lock);
      if (err == cudaSuccess) {
        gst_cuda_img_host_submit_begin ();
        err = cudaMemcpy2DAsync (dev + (gsize) y * dpitch, dpitch,
            dst + (gsize) y * row, row, row, n, cudaMemcpyHostToDevice, stream);
        gst_cuda_img_host_submit_end ();
      }
      g_mutex_lock (&c->lock);
    } else if (c->next < c->n_bands) {
      gint i = c->next++;

      g_mutex_unlock (&c->lock);
      copy_band (c, i);
      g_mutex_lock (&c->lock);
      c->done[i] = 1;
    } else {
      g_cond_wait (&c->cond, &c->lock);
    }
  }
  c->n_bands = 0;
  g_mutex_unlock (&c->lock);

  g_mutex_lock (&helpers_lock);
  copier_unqueue (c);
  g_mutex_unlock (&helpers_lock);
  return err;
}

/* ------------------------------------------------------------------------ */
/* Copies on the kernels' stream.  One pipeline alone overlaps its frames'
 * copies with its kernels on copy streams of its own, which costs the
 * host a frame three driver calls more each way (an event recorded, a
 * stream made to wait on it, and back); with many pipelines in the
 * process each one's copies overlap the others' kernels anyway, and under
 * many streams the driver's lock over those calls is most of the CPU a
 * frame (docs/notes/streams.md).  From COPIES_ON_STREAM_FROM uploaders
 * (downloaders) in the process on, a frame's copies go on the kernels'
 * stream, in order with them.  CUDAIMGPROC_COPIES_ON_STREAM_FROM=N sets
 * N (0: always; a large N: never), for A/B runs: on an H200, 64 to 256
 * streams took 18-49 % less CPU a frame so, at 2 % more to 2 % fewer
 * frames (docs/performance.md, Many streams). */
#define COPIES_ON_STREAM_FROM 4
static gint live_uploaders, live_downloaders;   /* atomic */
static gint on_stream_from;     /* read once, before the first uploader or
                                 * downloader is made */

static void
init_copies_on_stream (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    const gchar *env = g_getenv ("CUDAIMGPROC_COPIES_ON_STREAM_FROM");

    on_stream_from = env ?
        (gint) MIN (g_ascii_strtoull (env, NULL, 10), G_MAXINT) :
        COPIES_ON_STREAM_FROM;
    g_once_init_leave (&once, 1);
  }
}

static gboolean
copies_on_stream (gint * live)
{
  return g_atomic_int_get (live) >= on_stream_from;
}

/* ------------------------------------------------------------------------ */
/* upload */

typedef struct
{
  Planes dev;
  guint8 *staging;              /* page-locked, allocated at first need */
  GstCudaImgHostEvent uploaded; /* the host bytes are read */
  cudaEvent_t consumed;         /* the kernels are done with dev */
  gboolean consumed_recorded;
  GstVideoFrame vf;             /* mapped, and so referenced, until uploaded */
  gboolean mapped;
} InSlot;

struct _GstCudaImgUploader
{
  GstElement *element;
  GstCudaContext *context;
  GstVideoInfo info;
  cudaStream_t copy;
  InSlot slots[GST_CUDA_IMG_UPLOAD_SLOTS];
  guint next;
  gint current;
  gint path;                    /* as note_path () last said */
  gboolean unstaged_warned;
  Copier *copier;               /* made at the first staged upload */
  GstCudaImgHostWait wait;      /* for a slot's copy, on the streaming
                                 * thread */
  gboolean on_stream;           /* the last frame's copy went on the
                                 * kernels' stream */
  gboolean counted;             /* in live_uploaders */
};

static void
in_slot_release (GstCudaImgUploader * up, InSlot * s)
{
  if (!s->mapped)
    return;
  /* a failed copy is reported where it was enqueued */
  (void) gst_cuda_img_host_wait (&up->wait, &s->uploaded);
  gst_video_frame_unmap (&s->vf);
  s->mapped = FALSE;
}

/**
 * gst_cuda_img_uploader_release:
 *
 * Gives back the input buffers still held (a drain query: upstream wants
 * its pool's buffers).  Context current.
 */
void
gst_cuda_img_uploader_release (GstCudaImgUploader * up)
{
  guint i;

  for (i = 0; i < GST_CUDA_IMG_UPLOAD_SLOTS; i++)
    in_slot_release (up, &up->slots[i]);
}

/* Context current; the kernels that read the slots are done. */
void
gst_cuda_img_uploader_free (GstCudaImgUploader * up)
{
  guint i;

  if (!up)
    return;
  gst_cuda_img_uploader_release (up);
  if (up->counted)
    g_atomic_int_add (&live_uploaders, -1);
  if (up->copy)
    cudaStreamSynchronize (up->copy);
  copier_free (up->copier);
  for (i = 0; i < GST_CUDA_IMG_UPLOAD_SLOTS; i++) {
    InSlot *s = &up->slots[i];
    slot_buffers_free (&s->dev, &s->staging);
    if (s->uploaded.word)
      gst_cuda_img_host_event_clear (&s->uploaded);
    if (s->consumed)
      cudaEventDestroy (s->consumed);
  }
  if (up->copy)
    cudaStreamDestroy (up->copy);
  gst_object_unref (up->context);
  g_free (up);
}

/**
 * gst_cuda_img_uploader_new:
 *
 * Device frames of @info, events and a copy stream.  Context current.
 */
GstCudaImgUploader *
gst_cuda_img_uploader_new (GstElement * element, GstCudaContext * context,
    const GstVideoInfo * info, cudaError_t * err)
{
  GstCudaImgUploader *up = g_new0 (GstCudaImgUploader, 1);
  guint i;

  init_debug ();
  up->element = element;
  up->context = gst_object_ref (context);
  up->info = *info;
  up->current = -1;
  up->path = -1;
  *err = cudaStreamCreateWithFlags (&up->copy, cudaStreamNonBlocking);
  for (i = 0; i < GST_CUDA_IMG_UPLOAD_SLOTS && *err == cudaSuccess; i++) {
    InSlot *s = &up->slots[i];
    *err = planes_alloc (&s->dev, info);
    if (*err == cudaSuccess)
      *err = gst_cuda_img_host_event_init (&s->uploaded, TRUE);
    if (*err == cudaSuccess)
      *err = cudaEventCreateWithFlags (&s->consumed, cudaEventDisableTiming);
  }
  if (*err != cudaSuccess) {
    (void) cudaGetLastError ();
    gst_cuda_img_uploader_free (up);
    return NULL;
  }
  init_copies_on_stream ();
  g_atomic_int_inc (&live_uploaders);
  up->counted = TRUE;
  return up;
}

/* Copies plane @p through the slot's page-locked staging. */
static cudaError_t
upload_staged (GstCudaImgUploader * up, InSlot * s, guint p,
    const guint8 * src, gint sstride, cudaStream_t via)
{
  guint i;

  /* Every slot's at the first need: memory that comes back is staged
   * until its registration, made by another thread, is in place, so the
   * next frames may be staged too, and memory in use stays flat from the
   * first frame. */
  for (i = 0; !s->staging && i < GST_CUDA_IMG_UPLOAD_SLOTS; i++)
    if (&up->slots[i] != s)
      staging_get (&up->slots[i].dev, &up->slots[i].staging, up->element,
          &up->unstaged_warned);
  if (!staging_get (&s->dev, &s->staging, up->element, &up->unstaged_warned))
    return cudaMemcpy2DAsync (s->dev.data[p], s->dev.stride[p], src, sstride,
        s->dev.row[p], s->dev.rows[p], cudaMemcpyHostToDevice, via);
  if (!up->copier)
    up->copier = copier_new ();
  return copier_stage (up->copier, src, sstride, s->staging +
      s->dev.host_off[p], s->dev.row[p], s->dev.rows[p], s->dev.data[p],
      s->dev.stride[p], via);
}

/**
 * gst_cuda_img_uploader_upload:
 * @frame: (out): the device copy, for the kernels
 *
 * Enqueues the copy of @buf to the device on the uploader's stream and
 * makes @stream wait for it.  @buf stays mapped until the copy is done.
 * Returns FALSE if @buf could not be mapped; @err is the first CUDA error.
 * Context current.
 */
gboolean
gst_cuda_img_uploader_upload (GstCudaImgUploader * up, GstBuffer * buf,
    cudaStream_t stream, GstCudaImgFrame * frame, cudaError_t * err)
{
  InSlot *s = &up->slots[up->next];
  const gboolean same = copies_on_stream (&live_uploaders);
  cudaStream_t via = same ? stream : up->copy;
  guint p;

  /* Inputs whose copy is done go back upstream now (a camera's pool may
   * be small); the slot's own previous frame, its copy done in any case,
   * and its kernels before ours. */
  for (p = 0; p < GST_CUDA_IMG_UPLOAD_SLOTS; p++)
    if (up->slots[p].mapped && &up->slots[p] != s &&
        gst_cuda_img_host_event_done (&up->slots[p].uploaded))
      in_slot_release (up, &up->slots[p]);
  in_slot_release (up, s);
  /* on the copy stream: after the kernels that read the slot last; where
   * the frames before went on @stream, after all of @stream's work */
  *err = cudaSuccess;
  if (!same) {
    if (up->on_stream)
      *err = cudaEventRecord (s->consumed, stream);
    if (*err == cudaSuccess && (up->on_stream || s->consumed_recorded))
      *err = cudaStreamWaitEvent (up->copy, s->consumed, 0);
  }
  up->on_stream = same;
  if (*err != cudaSuccess)
    return TRUE;
  if (!gst_video_frame_map (&s->vf, &up->info, buf, GST_MAP_READ))
    return FALSE;
  s->mapped = TRUE;

  for (p = 0; p < s->dev.n_planes && *err == cudaSuccess; p++) {
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&s->vf, p);
    gint sstride = GST_VIDEO_FRAME_PLANE_STRIDE (&s->vf, p);

    gboolean pinned = gst_cuda_img_host_is_pinned (up->context, buf, src);

    note_path (GST_OBJECT (up->element), &up->path, pinned, "uploads");
    /* gated (gstcudaimghost.c): the copies, not the staging's memcpy */
    if (pinned) {
      gst_cuda_img_host_submit_begin ();
      *err = cudaMemcpy2DAsync (s->dev.data[p], s->dev.stride[p], src,
          sstride, s->dev.row[p], s->dev.rows[p], cudaMemcpyHostToDevice, via);
      gst_cuda_img_host_submit_end ();
    } else {
      *err = upload_staged (up, s, p, src, sstride, via);
    }
  }
  gst_cuda_img_host_submit_begin ();
  if (*err == cudaSuccess)
    *err = gst_cuda_img_host_event_record_full (&s->uploaded, via, !same);
  if (*err == cudaSuccess && !same)
    *err = cudaStreamWaitEvent (stream, s->uploaded.event, 0);
  gst_cuda_img_host_submit_end ();

  planes_to_frame (&s->dev, &up->info, frame);
  up->current = up->next;
  up->next = (up->next + 1) % GST_CUDA_IMG_UPLOAD_SLOTS;
  return TRUE;
}

/* After the kernels that read the uploaded frame are enqueued on @stream. */
cudaError_t
gst_cuda_img_uploader_consumed (GstCudaImgUploader * up, cudaStream_t stream)
{
  InSlot *s = &up->slots[up->current];

  /* its copy went on @stream: the next one there comes after in order */
  s->consumed_recorded = !up->on_stream;
  return up->on_stream ? cudaSuccess : cudaEventRecord (s->consumed, stream);
}

/* ------------------------------------------------------------------------ */
/* download */

typedef struct
{
  Planes dev;
  guint8 *staging;              /* for output memory not page-locked */
  guint staged;                 /* planes copied through it, a bit each */
  GstCudaImgHostEvent done;     /* on the host */
  GstVideoFrame vf;
  gboolean mapped;
  GstBuffer *buf;               /* to push, or NULL (pushed by the element) */
  GstBuffer *hold;              /* to release once done */
  cudaStream_t via;             /* the stream its copy went on */
} OutSlot;

struct _GstCudaImgDownloader
{
  GstElement *element;
  GstPad *srcpad;
  GstCudaImgDownloadedFunc downloaded;
  GstCudaContext *context;
  GstVideoInfo info;
  gboolean device;              /* frames stay on the device: no copies */
  cudaStream_t copy;
  cudaEvent_t ready;            /* the kernels' output, for the copy stream */
  gboolean counted;             /* in live_downloaders */
  OutSlot slots[GST_CUDA_IMG_DOWNLOAD_SLOTS];

  GMutex lock;
  GCond cond;
  guint head;                   /* slots [tail, head) wait to be pushed;
                                 * written under the lock, atomically */
  guint tail;
  gboolean busy;                /* the thread is pushing one */
  gboolean idle;                /* the thread sleeps, waiting for a frame */
  guint waiting;                /* other threads asleep on the cond */
  gboolean flushing;
  gint quit;                    /* atomic */
  GstFlowReturn flow;           /* downstream's first non-OK answer */
  GThread *thread;
  gint path;                    /* as note_path () last said */
  gboolean unstaged_warned;
  GstCudaImgHostWait wait;      /* the thread's, for a slot's work */
  GstCudaImgHostWait gap;       /* the thread's, for the next frame */
};

#define SLOT(down, i) (&(down)->slots[(i) % GST_CUDA_IMG_DOWNLOAD_SLOTS])

/* Called from a thread other than the push thread, lock held. */
static void
wait_cond (GstCudaImgDownloader * down)
{
  down->waiting++;
  g_cond_wait (&down->cond, &down->lock);
  down->waiting--;
}

/* Push thread, lock not held: returns once a frame past @tail is
 * committed, the downloader quits, or the spin budget passed.  At full
 * rate on GPU frames the next one comes every few tens of µs, and handing
 * a frame to a sleeping thread costs the streaming thread a futex wake-up
 * (1.5 µs a frame on the lent hosts); where frames come further apart
 * (through PCIe, or many streams at once) the thread sleeps at once
 * (gst_cuda_img_spin_begin). */
static void
spin_for_work (GstCudaImgDownloader * down, guint tail)
{
  const guint budget = gst_cuda_img_spin_begin (down->gap.typical_us);
  const gint64 end = g_get_monotonic_time () + budget;
  guint i;

  if (!budget)
    return;
  do {
    for (i = 0; i < 256; i++)
      if ((guint) g_atomic_int_get ((gint *) & down->head) != tail ||
          g_atomic_int_get (&down->quit))
        goto done;
  } while (g_get_monotonic_time () < end);
done:
  gst_cuda_img_spin_end ();
}

static void
copy_staged (GstCudaImgDownloader * down, OutSlot * s)
{
  guint p;

  for (p = 0; p < s->dev.n_planes; p++)
    if (s->staged & (1u << p))
      copy_rows (GST_VIDEO_FRAME_PLANE_DATA (&s->vf, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&s->vf, p),
          s->staging + s->dev.host_off[p], s->dev.row[p], s->dev.row[p],
          s->dev.rows[p]);
}

static gpointer
push_thread (gpointer data)
{
  GstCudaImgDownloader *down = data;
  gboolean pushed = gst_cuda_context_push (down->context);

  g_mutex_lock (&down->lock);
  for (;;) {
    OutSlot *s;
    GstBuffer *buf;
    GstFlowReturn ret = GST_FLOW_OK;
    cudaError_t err;
    gboolean drop;

    if (!down->quit && down->head == down->tail) {
      const guint tail = down->tail;
      const gint64 t0 = g_get_monotonic_time ();

      g_mutex_unlock (&down->lock);
      spin_for_work (down, tail);
      g_mutex_lock (&down->lock);
      while (!down->quit && down->head == down->tail) {
        down->idle = TRUE;
        g_cond_wait (&down->cond, &down->lock);
        down->idle = FALSE;
      }
      gst_cuda_img_host_wait_took (&down->gap, t0);
    }
    if (down->head == down->tail)
      break;
    s = SLOT (down, down->tail);
    down->busy = TRUE;
    g_mutex_unlock (&down->lock);

    err = gst_cuda_img_host_wait (&down->wait, &s->done);
    if (err == cudaSuccess && s->staged)
      copy_staged (down, s);
    if (s->mapped)
      gst_video_frame_unmap (&s->vf);
    s->mapped = FALSE;
    gst_clear_buffer (&s->hold);
    buf = s->buf;
    s->buf = NULL;

    g_mutex_lock (&down->lock);
    down->tail++;               /* the slot is free again */
    if (down->waiting)
      g_cond_broadcast (&down->cond);
    drop = down->flushing || down->flow != GST_FLOW_OK;
    g_mutex_unlock (&down->lock);

    if (err != cudaSuccess) {
      gst_cuda_img_post_cuda_error (down->element, err,
          down->device ? "waiting for the GPU" : "downloading a frame");
      gst_clear_buffer (&buf);
      ret = GST_FLOW_ERROR;
    } else if (drop || !buf) {
      gst_clear_buffer (&buf);
    } else {
      if (down->downloaded)
        down->downloaded (down->element, buf);
      ret = gst_pad_push (down->srcpad, buf);
    }

    g_mutex_lock (&down->lock);
    if (ret != GST_FLOW_OK && down->flow == GST_FLOW_OK)
      down->flow = ret;
    down->busy = FALSE;
    if (down->waiting)
      g_cond_broadcast (&down->cond);
  }
  g_mutex_unlock (&down->lock);
  if (pushed)
    gst_cuda_context_pop (NULL);
  return NULL;
}

/* Context current.  Drops what was not pushed yet. */
void
gst_cuda_img_downloader_free (GstCudaImgDownloader * down)
{
  guint i;

  if (!down)
    return;
  if (down->thread) {
    g_mutex_lock (&down->lock);
    down->flushing = TRUE;
    g_atomic_int_set (&down->quit, TRUE);
    g_cond_broadcast (&down->cond);
    g_mutex_unlock (&down->lock);
    g_thread_join (down->thread);
  }
  if (down->counted)
    g_atomic_int_add (&live_downloaders, -1);
  if (down->copy)
    cudaStreamSynchronize (down->copy);
  for (i = 0; i < GST_CUDA_IMG_DOWNLOAD_SLOTS; i++) {
    OutSlot *s = &down->slots[i];
    /* a copy on the kernels' stream is waited for here */
    if (s->mapped && s->via != down->copy)
      (void) cudaStreamSynchronize (s->via);
    if (s->mapped)
      gst_video_frame_unmap (&s->vf);
    gst_clear_buffer (&s->hold);
    gst_clear_buffer (&s->buf);
    slot_buffers_free (&s->dev, &s->staging);
    if (s->done.word)
      gst_cuda_img_host_event_clear (&s->done);
  }
  if (down->ready)
    cudaEventDestroy (down->ready);
  if (down->copy)
    cudaStreamDestroy (down->copy);
  g_mutex_clear (&down->lock);
  g_cond_clear (&down->cond);
  gst_object_unref (down->context);
  g_free (down);
}

/**
 * gst_cuda_img_downloader_new:
 * @srcpad: where the thread pushes the frames
 * @info: (nullable): the output frames; NULL for frames that stay on the
 *   device (gst_cuda_img_downloader_await () instead of _download ())
 * @downloaded: (nullable): called (in that thread) as each is on the host
 *
 * Device frames of @info for the kernels to write, a copy stream and the
 * thread that pushes.  Context current.
 */
GstCudaImgDownloader *
gst_cuda_img_downloader_new (GstElement * element, GstPad * srcpad,
    GstCudaContext * context, const GstVideoInfo * info,
    GstCudaImgDownloadedFunc downloaded, cudaError_t * err)
{
  GstCudaImgDownloader *down = g_new0 (GstCudaImgDownloader, 1);
  GError *error = NULL;
  gchar *name;
  guint i;

  init_debug ();
  down->path = -1;
  down->element = element;
  down->srcpad = srcpad;
  down->downloaded = downloaded;
  down->context = gst_object_ref (context);
  down->device = info == NULL;
  if (info)
    down->info = *info;
  down->flow = GST_FLOW_OK;
  g_mutex_init (&down->lock);
  g_cond_init (&down->cond);
  *err = cudaSuccess;
  if (!down->device) {
    *err = cudaStreamCreateWithFlags (&down->copy, cudaStreamNonBlocking);
    if (*err == cudaSuccess)
      *err = cudaEventCreateWithFlags (&down->ready, cudaEventDisableTiming);
  }
  for (i = 0; i < GST_CUDA_IMG_DOWNLOAD_SLOTS && *err == cudaSuccess; i++) {
    if (!down->device)
      *err = planes_alloc (&down->slots[i].dev, info);
    if (*err == cudaSuccess)
      *err = gst_cuda_img_host_event_init (&down->slots[i].done, FALSE);
  }
  if (*err != cudaSuccess) {
    (void) cudaGetLastError ();
    gst_cuda_img_downloader_free (down);
    return NULL;
  }
  name = g_strdup_printf ("%s:%s", GST_OBJECT_NAME (element),
      down->device ? "wait" : "push");
  down->thread = g_thread_try_new (name, push_thread, down, &error);
  g_free (name);
  if (!down->thread) {
    GST_ERROR_OBJECT (element, "no push thread: %s", error->message);
    g_clear_error (&error);
    *err = cudaErrorMemoryAllocation;
    gst_cuda_img_downloader_free (down);
    return NULL;
  }
  if (!down->device) {
    init_copies_on_stream ();
    g_atomic_int_inc (&live_downloaders);
    down->counted = TRUE;
  }
  return down;
}

/**
 * gst_cuda_img_downloader_acquire:
 * @frame: (out) (nullable): where the kernels write the frame (not for
 *   frames that stay on the device)
 *
 * Waits for a free slot.  Returns GST_FLOW_FLUSHING while flushing, or
 * what downstream answered when it was not OK.
 */
GstFlowReturn
gst_cuda_img_downloader_acquire (GstCudaImgDownloader * down,
    GstCudaImgFrame * frame)
{
  GstFlowReturn ret;

  g_mutex_lock (&down->lock);
  while (!down->flushing && down->flow == GST_FLOW_OK &&
      down->head - down->tail >= GST_CUDA_IMG_DOWNLOAD_SLOTS)
    wait_cond (down);
  ret = down->flushing ? GST_FLOW_FLUSHING : down->flow;
  g_mutex_unlock (&down->lock);
  if (ret == GST_FLOW_OK && frame)
    planes_to_frame (&SLOT (down, down->head)->dev, &down->info, frame);
  return ret;
}

/* Whether it was made for frames that stay on the device. */
gboolean
gst_cuda_img_downloader_is_device (GstCudaImgDownloader * down)
{
  return down->device;
}

/**
 * gst_cuda_img_downloader_await:
 * @hold: (nullable): a buffer to keep until the work is done
 *
 * For frames that stay on the device: after the frame's work is enqueued
 * on @stream, notes where it ends.  The thread waits for it, then
 * releases @hold and pushes what gst_cuda_img_downloader_commit () gets.
 */
cudaError_t
gst_cuda_img_downloader_await (GstCudaImgDownloader * down, GstBuffer * hold,
    cudaStream_t stream)
{
  OutSlot *s = SLOT (down, down->head);

  g_return_val_if_fail (down->device, cudaErrorInvalidValue);
  if (hold)
    s->hold = gst_buffer_ref (hold);
  return gst_cuda_img_host_event_record (&s->done, stream);
}

/**
 * gst_cuda_img_downloader_download:
 * @hold: (nullable): a buffer to keep until the copy is done
 *
 * After the kernels that write the acquired frame are enqueued on @stream:
 * enqueues its copy into @outbuf.  Returns FALSE if @outbuf could not be
 * mapped; @err is the first CUDA error.  Context current.
 */
gboolean
gst_cuda_img_downloader_download (GstCudaImgDownloader * down,
    GstBuffer * outbuf, GstBuffer * hold, cudaStream_t stream,
    cudaError_t * err)
{
  OutSlot *s = SLOT (down, down->head);
  const gboolean same = copies_on_stream (&live_downloaders);
  cudaStream_t via = same ? stream : down->copy;
  guint p;

  *err = cudaSuccess;
  if (!same) {
    *err = cudaEventRecord (down->ready, stream);
    if (*err == cudaSuccess)
      *err = cudaStreamWaitEvent (down->copy, down->ready, 0);
  }
  if (*err != cudaSuccess)
    return TRUE;
  s->via = via;
  if (!gst_video_frame_map (&s->vf, &down->info, outbuf, GST_MAP_WRITE))
    return FALSE;
  s->mapped = TRUE;
  s->staged = 0;

  for (p = 0; p < s->dev.n_planes && *err == cudaSuccess; p++) {
    guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (&s->vf, p);
    gint dstride = GST_VIDEO_FRAME_PLANE_STRIDE (&s->vf, p);

    gboolean pinned = gst_cuda_img_host_is_pinned (down->context, outbuf,
        dst);

    note_path (GST_OBJECT (down->element), &down->path, pinned, "downloads");
    /* a downstream pool of its own kind of memory: land the copy in
     * page-locked memory, which the push thread copies over */
    if (!pinned && staging_get (&s->dev, &s->staging, down->element,
            &down->unstaged_warned)) {
      s->staged |= 1u << p;
      dst = s->staging + s->dev.host_off[p];
      dstride = (gint) s->dev.row[p];
    }
    *err = cudaMemcpy2DAsync (dst, dstride, s->dev.data[p], s->dev.stride[p],
        s->dev.row[p], s->dev.rows[p], cudaMemcpyDeviceToHost, via);
  }
  if (*err == cudaSuccess)
    *err = gst_cuda_img_host_event_record (&s->done, via);
  if (hold)
    s->hold = gst_buffer_ref (hold);
  return TRUE;
}

/* The acquired slot is not going to be committed (an error on the way). */
void
gst_cuda_img_downloader_abort (GstCudaImgDownloader * down)
{
  OutSlot *s = SLOT (down, down->head);

  if (s->mapped) {
    (void) cudaStreamSynchronize (s->via);
    gst_video_frame_unmap (&s->vf);
    s->mapped = FALSE;
  }
  gst_clear_buffer (&s->hold);
}

/**
 * gst_cuda_img_downloader_commit:
 * @outbuf: (transfer full) (nullable): the buffer given to download, or
 *   to push once the awaited work is done; NULL when the element pushes
 *   it itself (the thread then only releases the held input)
 *
 * Hands the frame to the push thread.  Returns what downstream answered
 * so far (GST_FLOW_FLUSHING while flushing).
 */
GstFlowReturn
gst_cuda_img_downloader_commit (GstCudaImgDownloader * down, GstBuffer * outbuf)
{
  GstFlowReturn ret;

  SLOT (down, down->head)->buf = outbuf;
  g_mutex_lock (&down->lock);
  g_atomic_int_inc ((gint *) & down->head);
  /* no system call unless the thread sleeps (spin_for_work) */
  if (down->idle)
    g_cond_broadcast (&down->cond);
  ret = down->flushing ? GST_FLOW_FLUSHING : down->flow;
  g_mutex_unlock (&down->lock);
  return ret;
}

/* Returns once every committed frame was pushed (or dropped: flushing). */
void
gst_cuda_img_downloader_drain (GstCudaImgDownloader * down)
{
  g_mutex_lock (&down->lock);
  while (!down->flushing && (down->head != down->tail || down->busy))
    wait_cond (down);
  g_mutex_unlock (&down->lock);
}

/**
 * gst_cuda_img_downloader_set_flushing:
 *
 * TRUE (flush start, from any thread): frames not yet pushed are dropped
 * and waits return.  FALSE (flush stop): once they are gone, frames flow
 * again.
 */
void
gst_cuda_img_downloader_set_flushing (GstCudaImgDownloader * down,
    gboolean flushing)
{
  g_mutex_lock (&down->lock);
  if (flushing) {
    down->flushing = TRUE;
  } else {
    while (down->head != down->tail || down->busy)
      wait_cond (down);
    down->flushing = FALSE;
    down->flow = GST_FLOW_OK;
  }
  g_cond_broadcast (&down->cond);
  g_mutex_unlock (&down->lock);
}
