/* cudaimgproc: page-locked host memory.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A copy between the GPU and pageable memory runs through the driver's own
 * bounce buffer and blocks the calling thread: about 12 GB/s on the lent
 * hosts, against 45-53 GB/s from page-locked memory, which the copy engines
 * read and write by themselves while the thread goes on.  So:
 *
 *  - the allocator here gives page-locked memory (cudaHostAlloc, portable:
 *    pinned for every context), which our elements propose upstream and use
 *    for their own system-memory output, in plain GstVideoBufferPools;
 *  - system memory that upstream brings itself is page-locked in place
 *    (cudaHostRegister) when the same GstMemory comes back a second time,
 *    as pool memory does, by a thread of its own; the registration lives
 *    as qdata on the memory and is undone just before the memory is
 *    freed.  Memory seen once is not worth it (registering costs about as
 *    much as a pageable copy): the caller stages it through page-locked
 *    memory of its own, as it does until a registration is made.
 *
 * Only GStreamer's own system memory is registered: its bytes stay at one
 * address for the memory's life.  Other memories (fd or dmabuf maps) may
 * map elsewhere on each map, and a stale registration would read the wrong
 * pages.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimghost.h"
#include "cip_alloc.h"

#include <cuda_runtime_api.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_host_debug);
#define GST_CAT_DEFAULT gst_cuda_img_host_debug

typedef struct
{
  GstMemory mem;
  guint8 *data;                 /* the first of the maxsize bytes */
  gpointer block;               /* what was allocated (root memory only) */
  gboolean pinned;
} HostMemory;

struct _GstCudaImgHostAllocator
{
  GstAllocator parent;

  GstCudaContext *context;
  GWeakRef element;             /* told when memory cannot be page-locked */
  gboolean warned;
};

#define gst_cuda_img_host_allocator_parent_class parent_class
G_DEFINE_TYPE (GstCudaImgHostAllocator, gst_cuda_img_host_allocator,
    GST_TYPE_ALLOCATOR);

#define PAGE_ALIGN 4095

static GstMemory *
host_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstCudaImgHostAllocator *self = GST_CUDA_IMG_HOST_ALLOCATOR (allocator);
  HostMemory *m = g_new0 (HostMemory, 1);
  gsize align = params->align | gst_memory_alignment;
  gsize offset = (params->prefix + align) & ~align;
  gsize maxsize = offset + size + params->padding;
  void *block = NULL;

  /* cudaHostAlloc gives whole pages: aligned enough for any alignment a
   * video pool asks for */
  if (align <= PAGE_ALIGN && gst_cuda_context_push (self->context)) {
    if (cip_host_alloc (&block, maxsize, cudaHostAllocPortable,
            "page-locked frame") != cudaSuccess)
      block = NULL;
    gst_cuda_context_pop (NULL);
  }
  if (block) {
    m->pinned = TRUE;
    m->data = block;
  } else {
    /* Still correct, only slower: the copies stage through pinned memory */
    if (!self->warned) {
      GstElement *element = g_weak_ref_get (&self->element);

      GST_WARNING_OBJECT (self, "could not page-lock %" G_GSIZE_FORMAT
          " bytes; using pageable memory", maxsize);
      if (element) {
        gst_cuda_img_warn_pageable (element, maxsize, "for frames");
        gst_object_unref (element);
      }
    }
    self->warned = TRUE;
    block = g_malloc (maxsize + align);
    m->data = (guint8 *) (((guintptr) block + align) & ~(guintptr) align);
  }
  m->block = block;
  GST_LOG_OBJECT (self, "%s %" G_GSIZE_FORMAT " bytes", m->pinned ?
      "page-locked" : "pageable", maxsize);
  gst_memory_init (GST_MEMORY_CAST (m), params->flags, allocator, NULL,
      maxsize, align, offset, size);
  if (offset && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (m->data, 0, offset);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (m->data + offset + size, 0, params->padding);
  return GST_MEMORY_CAST (m);
}

static void
host_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCudaImgHostAllocator *self = GST_CUDA_IMG_HOST_ALLOCATOR (allocator);
  HostMemory *m = (HostMemory *) mem;

  if (!mem->parent) {
    if (!m->pinned) {
      g_free (m->block);
    } else if (gst_cuda_context_push (self->context)) {
      cip_free_host (m->block);
      gst_cuda_context_pop (NULL);
    }
  }
  g_free (m);
}

static gpointer
host_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  return ((HostMemory *) mem)->data;
}

static void
host_unmap (GstMemory * mem)
{
}

static GstMemory *
host_share (GstMemory * mem, gssize offset, gssize size)
{
  HostMemory *m = (HostMemory *) mem, *sub = g_new0 (HostMemory, 1);
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  sub->data = m->data;
  sub->pinned = m->pinned;
  gst_memory_init (GST_MEMORY_CAST (sub), GST_MINI_OBJECT_FLAGS (parent) |
      GST_MINI_OBJECT_FLAG_LOCK_READONLY, mem->allocator, parent,
      mem->maxsize, mem->align, mem->offset + offset, size);
  return GST_MEMORY_CAST (sub);
}

static gboolean
host_is_span (GstMemory * mem1, GstMemory * mem2, gsize * offset)
{
  HostMemory *m1 = (HostMemory *) mem1, *m2 = (HostMemory *) mem2;

  if (offset)
    *offset = mem1->offset - mem1->parent->offset;
  return m1->data + mem1->offset + mem1->size == m2->data + mem2->offset;
}

static void
gst_cuda_img_host_allocator_dispose (GObject * object)
{
  GstCudaImgHostAllocator *self = GST_CUDA_IMG_HOST_ALLOCATOR (object);

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (parent_class)->dispose (object);
}

static void
gst_cuda_img_host_allocator_finalize (GObject * object)
{
  GstCudaImgHostAllocator *self = GST_CUDA_IMG_HOST_ALLOCATOR (object);

  g_weak_ref_clear (&self->element);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_img_host_allocator_class_init (GstCudaImgHostAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gst_cuda_img_host_allocator_dispose;
  G_OBJECT_CLASS (klass)->finalize = gst_cuda_img_host_allocator_finalize;
  allocator_class->alloc = host_alloc;
  allocator_class->free = host_free;
  GST_DEBUG_CATEGORY_INIT (gst_cuda_img_host_debug, "cudaimghost", 0,
      "cudaimgproc page-locked host memory");
}

static void
gst_cuda_img_host_allocator_init (GstCudaImgHostAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR (self);

  alloc->mem_type = GST_CUDA_IMG_HOST_MEMORY_TYPE;
  alloc->mem_map = host_map;
  alloc->mem_unmap = host_unmap;
  alloc->mem_share = host_share;
  alloc->mem_is_span = host_is_span;
}

/**
 * gst_cuda_img_warn_pageable:
 *
 * Posts the warning that @bytes of page-locked memory @purpose could not
 * be had, so copies go through pageable memory: slower, still right.
 */
void
gst_cuda_img_warn_pageable (GstElement * element, gsize bytes,
    const gchar * purpose)
{
  GST_ELEMENT_WARNING (element, RESOURCE, NO_SPACE_LEFT,
      ("Could not page-lock %" G_GSIZE_FORMAT " bytes of system memory %s; "
          "copies go through pageable memory, more slowly.", bytes, purpose),
      ("cudaHostAlloc failed (out of page-locked memory, or the "
          "locked-memory limit, ulimit -l)"));
}

/**
 * gst_cuda_img_host_allocator_new:
 *
 * An allocator of page-locked host memory, pinned for every CUDA context
 * (it allocates with @context current).  Where memory cannot be
 * page-locked it gives pageable memory and @element posts a warning.
 */
GstAllocator *
gst_cuda_img_host_allocator_new (GstElement * element, GstCudaContext * context)
{
  GstCudaImgHostAllocator *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  self = g_object_new (GST_TYPE_CUDA_IMG_HOST_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  /* weak: upstream's pool may keep the allocator longer than @element */
  g_weak_ref_init (&self->element, element);
  return GST_ALLOCATOR_CAST (self);
}

/* Page-locked memory of ours (not the pageable fallback). */
gboolean
gst_cuda_img_is_host_memory (GstMemory * mem)
{
  return mem && GST_IS_CUDA_IMG_HOST_ALLOCATOR (mem->allocator) &&
      ((HostMemory *) mem)->pinned;
}

/**
 * gst_cuda_img_host_pool_new:
 *
 * A video buffer pool (GstVideoMeta, video alignment as usual) whose
 * memory comes from @allocator; configured for @caps.
 */
GstBufferPool *
gst_cuda_img_host_pool_new (GstAllocator * allocator, GstCaps * caps,
    guint min, guint max)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocationParams params;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min, max);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* ------------------------------------------------------------------------ */
/* registering system memory that comes back */

enum
{
  REG_QUEUED,                   /* waiting for the registering thread */
  REG_MAKING,                   /* in cudaHostRegister */
  REG_OK,
  REG_FAILED,
  REG_CANCELLED                 /* its memory went while it was queued */
};

typedef struct
{
  GstCudaContext *context;
  gpointer base;
  gsize size;
  gint state;                   /* (atomic); changed under reg_lock */
  gint refs;                    /* under reg_lock: the memory's qdata, the
                                 * queued task */
} Registration;

/* Our registrations, from when they are queued until after they are
 * undone, and the lock over the list, the states and
 * gst_cuda_img_host_is_pinned ()'s look at foreign page-locked memory.
 * Not over the driver calls that make and undo them, and these are made
 * by one thread of their own, not by a streaming thread: under load
 * (256 streams of 640x480 on an H200) cudaHostRegister took most of a
 * second, and a stream whose thread made it passed no frame meanwhile,
 * nor, with the lock held, did the others whose memory was not registered
 * yet.  Until its registration is made a frame is staged. */
static GMutex reg_lock;
static GCond reg_cond;
static GSList *registered;
static GThreadPool *reg_thread;

/* The gate.  Under load the driver starves cudaHostRegister: with 256
 * threads each enqueuing a copy, a kernel and a copy back, one
 * registration of a 640x480 frame took from 39 ms to over a second
 * (median), and in 256 streams of ours 0.2 to 3.4 s each, so memory was
 * staged for as long as the streams ran; it took 0.4 ms with threads that
 * only queried events, and 1 to 8 ms with the threads kept out of the
 * driver meanwhile (H200, docs/notes/regtime.cu, docs/notes/streams.md).
 * So the streaming threads enqueue their work inside
 * gst_cuda_img_host_submit_begin () and _end (), and the registering
 * thread closes the gate, waits for those inside to leave, makes what is
 * queued (for at most GATE_BATCH_US), and opens it again for at least as
 * long as it was closed.  With no registration queued, passing costs two
 * atomic operations. */
#define GATE_BATCH_US 10000
static gint gate_closed;        /* (atomic) */
static gint gate_inside;        /* (atomic) threads in a submission */
static GMutex gate_lock;
static GCond gate_cond;
static _Thread_local guint gate_depth;  /* a thread's nesting */
/* the registering thread's own */
static gboolean gate_held;
static gint64 gate_closed_at, gate_opened_at, gate_last_closed;
static guint gate_made;

static void
gate_leave (void)
{
  if (g_atomic_int_dec_and_test (&gate_inside)
      && g_atomic_int_get (&gate_closed)) {
    g_mutex_lock (&gate_lock);
    g_cond_broadcast (&gate_cond);
    g_mutex_unlock (&gate_lock);
  }
}

/**
 * gst_cuda_img_host_submit_begin:
 *
 * Before a streaming thread enqueues work (copies, launches, events):
 * waits while the gate is closed (above).  Never around a wait for another
 * thread: the registering thread waits for this one to leave.  Nests.
 */
void
gst_cuda_img_host_submit_begin (void)
{
  if (gate_depth++ > 0)
    return;
  for (;;) {
    g_atomic_int_inc (&gate_inside);
    if (G_LIKELY (!g_atomic_int_get (&gate_closed)))
      return;
    gate_leave ();
    g_mutex_lock (&gate_lock);
    while (g_atomic_int_get (&gate_closed))
      g_cond_wait (&gate_cond, &gate_lock);
    g_mutex_unlock (&gate_lock);
  }
}

/**
 * gst_cuda_img_host_submit_end:
 *
 * After the work gst_cuda_img_host_submit_begin () let in is enqueued.
 */
void
gst_cuda_img_host_submit_end (void)
{
  g_return_if_fail (gate_depth > 0);
  if (--gate_depth == 0)
    gate_leave ();
}

/* The registering thread's, before a registration */
static void
gate_close (void)
{
  gint64 now;

  if (gate_held)
    return;
  now = g_get_monotonic_time ();
  if (now < gate_opened_at + gate_last_closed)
    g_usleep (gate_opened_at + gate_last_closed - now);
  gate_closed_at = g_get_monotonic_time ();
  g_mutex_lock (&gate_lock);
  g_atomic_int_set (&gate_closed, 1);
  while (g_atomic_int_get (&gate_inside) > 0)
    g_cond_wait (&gate_cond, &gate_lock);
  g_mutex_unlock (&gate_lock);
  gate_held = TRUE;
  gate_made = 0;
  GST_LOG ("gate closed, the streams out after %" G_GINT64_FORMAT " us",
      g_get_monotonic_time () - gate_closed_at);
}

/* The registering thread's, after each task: open unless more are queued
 * and the batch's time is not up */
static void
gate_maybe_open (void)
{
  if (!gate_held || (g_thread_pool_unprocessed (reg_thread) > 0 &&
          g_get_monotonic_time () - gate_closed_at < GATE_BATCH_US))
    return;
  g_mutex_lock (&gate_lock);
  g_atomic_int_set (&gate_closed, 0);
  g_cond_broadcast (&gate_cond);
  g_mutex_unlock (&gate_lock);
  gate_held = FALSE;
  gate_opened_at = g_get_monotonic_time ();
  gate_last_closed = gate_opened_at - gate_closed_at;
  GST_DEBUG ("gate open after %" G_GINT64_FORMAT " us closed, %u "
      "registrations made", gate_last_closed, gate_made);
}

static GQuark
registration_quark (void)
{
  static gsize q = 0;
  if (g_once_init_enter (&q))
    g_once_init_leave (&q,
        g_quark_from_static_string ("GstCudaImgHostRegistration"));
  return (GQuark) q;
}

static GQuark
seen_quark (void)
{
  static gsize q = 0;
  if (g_once_init_enter (&q))
    g_once_init_leave (&q, g_quark_from_static_string ("GstCudaImgHostSeen"));
  return (GQuark) q;
}

/* Lock held */
static void
registration_unref (Registration * r)
{
  if (--r->refs > 0)
    return;
  gst_clear_object (&r->context);
  g_free (r);
}

/* The registering thread's: whether @r's memory went while it was queued
 * (@r is then let go, and the gate maybe opened); if not and @making, @r
 * is marked as being made. */
static gboolean
registration_dropped (Registration * r, gboolean making)
{
  gboolean dropped;

  g_mutex_lock (&reg_lock);
  dropped = r->state == REG_CANCELLED;
  if (dropped)
    registration_unref (r);
  else if (making)
    g_atomic_int_set (&r->state, REG_MAKING);
  g_mutex_unlock (&reg_lock);
  if (dropped)
    gate_maybe_open ();
  return dropped;
}

/* The registering thread's task */
static void
make_registration (gpointer data, gpointer user_data)
{
  Registration *r = data;
  gboolean ok = FALSE;

  /* not MAKING before the gate is closed: a stream freeing the memory
   * meanwhile drops the registration rather than waiting for the gate */
  if (registration_dropped (r, FALSE))
    return;
  gate_close ();
  if (registration_dropped (r, TRUE))
    return;

  if (gst_cuda_context_push (r->context)) {
    /* how long one takes under load (docs/notes/streams.md) */
    const gint64 t0 = g_get_monotonic_time ();
    cudaError_t err = cudaHostRegister (r->base, r->size,
        cudaHostRegisterPortable);

    ok = err == cudaSuccess;
    /* read here, not inside GST_DEBUG (not evaluated when the category is
     * off): left behind, the error would be a later call's */
    if (!ok)
      (void) cudaGetLastError ();
    GST_DEBUG ("cudaHostRegister of %" G_GSIZE_FORMAT " bytes: %s, %"
        G_GINT64_FORMAT " us", r->size, cudaGetErrorName (err),
        g_get_monotonic_time () - t0);
    gst_cuda_context_pop (NULL);
  }

  g_mutex_lock (&reg_lock);
  if (!ok)
    registered = g_slist_remove (registered, r);
  g_atomic_int_set (&r->state, ok ? REG_OK : REG_FAILED);
  g_cond_broadcast (&reg_cond);
  registration_unref (r);
  g_mutex_unlock (&reg_lock);
  gate_made++;
  gate_maybe_open ();
}

static void
registration_free (gpointer data)
{
  Registration *r = data;

  /* Before the memory's bytes are freed: the qdata goes first.  A queued
   * registration is dropped, one being made is waited for (the bytes must
   * not go while the driver pins them), one made is undone while still
   * listed, so that a look at the same bytes through another memory
   * meanwhile takes them for ours, not for page-locked. */
  g_mutex_lock (&reg_lock);
  if (r->state == REG_QUEUED) {
    g_atomic_int_set (&r->state, REG_CANCELLED);
    registered = g_slist_remove (registered, r);
    registration_unref (r);
    g_mutex_unlock (&reg_lock);
    return;
  }
  while (r->state == REG_MAKING)
    g_cond_wait (&reg_cond, &reg_lock);
  g_mutex_unlock (&reg_lock);
  if (r->state == REG_OK && gst_cuda_context_push (r->context)) {
    cudaHostUnregister (r->base);
    gst_cuda_context_pop (NULL);
  }
  g_mutex_lock (&reg_lock);
  registered = g_slist_remove (registered, r);
  registration_unref (r);
  g_mutex_unlock (&reg_lock);
}

/* Lock held: whether @p lies in one of our registrations */
static gboolean
in_our_registration (gconstpointer p)
{
  GSList *l;

  for (l = registered; l; l = l->next) {
    const Registration *r = l->data;

    if ((const guint8 *) p >= (const guint8 *) r->base &&
        (const guint8 *) p < (const guint8 *) r->base + r->size)
      return TRUE;
  }
  return FALSE;
}

/* Queues the registration of @root's bytes, noted under the lock (two of
 * our elements behind a tee may read the same memory at once). */
static void
queue_registration (GstCudaContext * context, GstMemory * root)
{
  Registration *r;
  GstMapInfo map;

  g_mutex_lock (&reg_lock);
  if (!reg_thread) {
    /* one thread: each memory is registered once, and however many
     * streams queue, none waits in the driver's call (whether the driver
     * could make several at once was not measured) */
    reg_thread = g_thread_pool_new (make_registration, NULL, 1, FALSE, NULL);
  }
  r = gst_mini_object_get_qdata (GST_MINI_OBJECT (root), registration_quark ());
  if (!r) {
    r = g_new0 (Registration, 1);
    r->state = REG_FAILED;
    r->refs = 1;
    if (gst_memory_map (root, &map, GST_MAP_READ)) {
      r->base = map.data - root->offset;
      gst_memory_unmap (root, &map);
      r->size = root->maxsize;
      r->context = gst_object_ref (context);
      r->state = REG_QUEUED;
      r->refs = 2;
      registered = g_slist_prepend (registered, r);
      g_thread_pool_push (reg_thread, r, NULL);
    }
    gst_mini_object_set_qdata (GST_MINI_OBJECT (root), registration_quark (),
        r, registration_free);
  }
  g_mutex_unlock (&reg_lock);
}

/**
 * gst_cuda_img_host_is_pinned:
 * @buf: a buffer mapped on the host
 * @data: a plane's bytes in @buf's mapping
 *
 * Whether the GPU can copy from or to @data by itself (page-locked), so
 * that an asynchronous copy neither blocks nor goes through the driver's
 * bounce buffer.  System memory seen here before is registered (once, by a
 * thread of its own: until then this says no, and the caller stages).
 * Context current.
 */
gboolean
gst_cuda_img_host_is_pinned (GstCudaContext * context, GstBuffer * buf,
    gconstpointer data)
{
  struct cudaPointerAttributes attr;
  GstMemory *root = NULL;
  gboolean pinned, again = FALSE;

  if (gst_buffer_n_memory (buf) == 1) {
    GstMemory *mem = gst_buffer_peek_memory (buf, 0);
    Registration *r;

    if (gst_cuda_img_is_host_memory (mem))
      return TRUE;
    for (root = mem; root->parent;)
      root = root->parent;
    r = gst_mini_object_get_qdata (GST_MINI_OBJECT (root),
        registration_quark ());
    if (r && g_atomic_int_get (&r->state) == REG_OK)
      return TRUE;
    if (!r && gst_memory_is_type (root, GST_ALLOCATOR_SYSMEM)) {
      /* a mark, not a pointer: a new memory at a freed one's address is
       * not "seen before" */
      if (!gst_mini_object_get_qdata (GST_MINI_OBJECT (root), seen_quark ()))
        gst_mini_object_set_qdata (GST_MINI_OBJECT (root), seen_quark (),
            GINT_TO_POINTER (1), NULL);
      else
        again = TRUE;
    }
    /* Queued or being made: ours, staged by the look below. */
  }
  /* Page-locked by someone else (an application's cudaHostAlloc, say), for
   * as long as the memory lives.  Not by one of our registrations of
   * another GstMemory over the same bytes (an application wrapping its
   * arrays anew each frame, behind a tee): that one is undone when its
   * own memory goes, maybe while the engine still copies from this one.
   * Under the lock, so that no registration of ours comes or goes between
   * the two looks. */
  g_mutex_lock (&reg_lock);
  if (in_our_registration (data)) {
    pinned = FALSE;
  } else if (cudaPointerGetAttributes (&attr, data) != cudaSuccess) {
    (void) cudaGetLastError ();
    pinned = FALSE;
  } else {
    pinned = attr.type == cudaMemoryTypeHost;
  }
  g_mutex_unlock (&reg_lock);
  /* Memory seen again that no one page-locked is ours to register; the
   * application's own page-locked memory is not queued (its registration
   * would fail, "already registered", and its frames be staged until
   * then). */
  if (again && !pinned)
    queue_registration (context, root);
  return pinned;
}
