/* cudaimgproc: what every element does whatever its GStreamer base class.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgelement.h"
#include "gstcudaimghost.h"
#include "gstcudaimgpool.h"
#include "gstcudaimgtransfer.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/cuda-gst.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_context_debug);
#define GST_CAT_DEFAULT gst_cuda_img_context_debug

/* ------------------------------------------------------------------------ */
/* device, context */

/* Every element's `cuda-device-id`: CUDA device to run on, -1 for any (then
 * a context already in the pipeline, or device 0).  Read when the element
 * starts. */
GParamSpec *
gst_cuda_img_device_id_pspec (void)
{
  return g_param_spec_int ("cuda-device-id", "CUDA device ID",
      "CUDA device to run on (-1 = any: the pipeline's context, or "
      "device 0); read at start", -1, G_MAXINT, GST_CUDA_IMG_DEFAULT_DEVICE_ID,
      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);
}

/* Says, in words a person can act on, why no CUDA device can be used. */
gboolean
gst_cuda_img_check_device (GstElement * self, gint device_id)
{
  const gchar *name = NULL, *text = NULL;
  CUresult res;
  gint count = 0;

  if (!gst_cuda_load_library ()) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No CUDA driver found: libcuda.so.1 could not be loaded."),
        ("cudaimgproc elements run on an NVIDIA GPU; install the NVIDIA "
            "driver, or run on a machine that has one."));
    return FALSE;
  }
  res = CuInit (0);
  if (res == CUDA_SUCCESS)
    res = CuDeviceGetCount (&count);
  if (res != CUDA_SUCCESS || count == 0) {
    if (res != CUDA_SUCCESS) {
      CuGetErrorName (res, &name);
      CuGetErrorString (res, &text);
    }
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No usable CUDA GPU found."),
        ("The CUDA driver loaded but reports %s (%s). Check that the GPU is "
            "visible (nvidia-smi, CUDA_VISIBLE_DEVICES).",
            name ? name : "no devices", text ? text : "device count is 0"));
    return FALSE;
  }
  if (device_id >= count) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("CUDA device %d does not exist.", device_id),
        ("This machine has %d CUDA device(s), numbered from 0; set "
            "cuda-device-id to one of them, or to -1 for any.", count));
    return FALSE;
  }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* one context per device per process */

#define MAX_SHARED_DEVICES 64

typedef CUresult (*PrimaryCtxRetainFunc) (CUcontext * ctx, CUdevice dev);

static GMutex shared_lock;
static GstCudaContext *shared[MAX_SHARED_DEVICES];

static void
init_context_debug (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_img_context_debug, "cudaimgcontext", 0,
        "cudaimgproc CUDA contexts");
    g_once_init_leave (&once, 1);
  }
}

/**
 * gst_cuda_img_shared_context:
 *
 * The context every element of ours on device @device_id uses when neither
 * the pipeline nor the application gives one: the device's primary context
 * (the CUDA runtime's own, so an application's CUDA code shares its memory
 * and streams), wrapped once and kept for the life of the process.  A
 * hundred pipelines thus make one context, not a hundred (each about 130
 * MB of GPU memory and a driver thread; the driver refused the 127th).
 * Returns a new reference, or NULL.
 */
GstCudaContext *
gst_cuda_img_shared_context (gint device_id)
{
  /* the runtime's own context, which GStreamer's loader cannot retain */
  PrimaryCtxRetainFunc retain = (PrimaryCtxRetainFunc)
      gst_cuda_img_driver_symbol ("cuDevicePrimaryCtxRetain");
  GstCudaContext *ctx = NULL;
  CUdevice dev;
  CUcontext handle;

  init_context_debug ();
  if (device_id < 0 || device_id >= MAX_SHARED_DEVICES)
    return NULL;
  g_mutex_lock (&shared_lock);
  if (!shared[device_id] && retain &&
      CuDeviceGet (&dev, device_id) == CUDA_SUCCESS &&
      retain (&handle, dev) == CUDA_SUCCESS) {
    /* never released: the wrapper lives as long as the process */
    shared[device_id] = gst_cuda_context_new_wrapped (handle, dev);
    GST_INFO ("device %d: the primary context %p, shared by every pipeline "
        "that brings none", device_id, handle);
  }
  if (shared[device_id])
    ctx = gst_object_ref (shared[device_id]);
  g_mutex_unlock (&shared_lock);
  return ctx;
}

static gboolean
peer_query (const GValue * item, GValue * value, gpointer query)
{
  GstPad *pad = g_value_get_object (item);

  if (!gst_pad_peer_query (pad, query))
    return TRUE;
  g_value_set_boolean (value, TRUE);
  return FALSE;                 /* found: stop */
}

/* Asks the pads' peers in @direction for a CUDA context; sets what comes
 * back on @self (its set_context takes it where the device fits). */
static void
query_context (GstElement * self, GstQuery * query, GstPadDirection direction)
{
  GstIterator *it = direction == GST_PAD_SRC ?
      gst_element_iterate_src_pads (self) :
      gst_element_iterate_sink_pads (self);
  GValue found = G_VALUE_INIT;
  GstContext *ctx = NULL;

  g_value_init (&found, G_TYPE_BOOLEAN);
  while (gst_iterator_fold (it, peer_query, &found, query) ==
      GST_ITERATOR_RESYNC)
    gst_iterator_resync (it);
  gst_iterator_free (it);
  if (g_value_get_boolean (&found)) {
    gst_query_parse_context (query, &ctx);
    if (ctx)
      gst_element_set_context (self, ctx);
  }
}

/* gst_cuda_ensure_element_context () as nvcodec's elements use it, with
 * one difference: where nothing answers, the process's shared context of
 * the device instead of a new one.  In order: a context already set on
 * @self (the application's, through the bin), downstream's, upstream's,
 * one set in answer to need-context; else the shared one, which is then
 * set on @self and posted (have-context), so that the rest of the
 * pipeline, nvcodec's elements included, finds it. */
static gboolean
ensure_context (GstElement * self, gint device_id, GstCudaContext ** context)
{
  GstQuery *query;
  GstCudaContext *ctx;
  GstContext *gctx;

  if (*context)
    return TRUE;
  query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  query_context (self, query, GST_PAD_SRC);
  if (!*context)
    query_context (self, query, GST_PAD_SINK);
  gst_query_unref (query);
  if (!*context)
    gst_element_post_message (self,
        gst_message_new_need_context (GST_OBJECT (self),
            GST_CUDA_CONTEXT_TYPE));
  if (*context) {
    GST_DEBUG_OBJECT (self, "using the pipeline's CUDA context %"
        GST_PTR_FORMAT, *context);
    return TRUE;
  }

  ctx = gst_cuda_img_shared_context (MAX (device_id, 0));
  if (!ctx)
    return FALSE;
  gctx = gst_context_new_cuda_context (ctx);
  gst_element_set_context (self, gctx);
  if (!*context)                /* set_context refused it: cannot happen */
    *context = gst_object_ref (ctx);
  gst_object_unref (ctx);
  GST_DEBUG_OBJECT (self, "using the process's shared CUDA context %"
      GST_PTR_FORMAT, *context);
  /* the message takes the context */
  gst_element_post_message (self,
      gst_message_new_have_context (GST_OBJECT (self), gctx));
  return TRUE;
}

/**
 * gst_cuda_img_open:
 *
 * What an element does when it starts: checks that device @device_id can be
 * used, takes the pipeline's CUDA context (or the process's shared one)
 * into @context, and makes the element's stream and page-locked allocator.
 * Posts an element error and returns FALSE where it cannot.
 */
gboolean
gst_cuda_img_open (GstElement * self, gint device_id,
    GstCudaContext ** context, GstCudaImgStream ** stream,
    GstAllocator ** host_allocator)
{
  cudaError_t err;

  init_context_debug ();
  if (!gst_cuda_img_check_device (self, device_id))
    return FALSE;
  if (!ensure_context (self, device_id, context)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not create a CUDA context on device %d.", MAX (device_id, 0)),
        ("The device's primary context could not be retained; run with "
            "GST_DEBUG=cuda*:5 for the driver's reason."));
    return FALSE;
  }
  if (!gst_cuda_img_push_context (self, *context))
    return FALSE;
  *stream = gst_cuda_img_stream_new (*context, &err);
  gst_cuda_context_pop (NULL);
  if (!*stream) {
    gst_cuda_img_post_cuda_error (self, err, "creating a CUDA stream");
    return FALSE;
  }
  *host_allocator = gst_cuda_img_host_allocator_new (self, *context);
  return TRUE;
}

/* Makes @context current, or says why not. */
gboolean
gst_cuda_img_push_context (GstElement * self, GstCudaContext * context)
{
  if (context && gst_cuda_context_push (context))
    return TRUE;
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* frames */

/* Is @buf one GstCudaMemory of @context, which our kernels read in place? */
gboolean
gst_cuda_img_is_our_memory (GstCudaContext * context, GstBuffer * buf)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  return gst_is_cuda_memory (mem) &&
      GST_CUDA_MEMORY_CAST (mem)->context == context;
}

/**
 * gst_cuda_img_map_device:
 * @buf: one GstCudaMemory (gst_cuda_img_is_our_memory)
 * @info: the caps' video info
 * @flags: GST_MAP_READ or GST_MAP_WRITE (GST_MAP_CUDA is added)
 * @f: (out): the planes for the kernels
 * @map: (out): for gst_cuda_img_unmap_device ()
 *
 * The planes gst_video_frame_map (GST_MAP_CUDA) gives for such a buffer
 * (where its video meta puts them, or else @info), from the memory's map
 * alone: the frame's own bookkeeping (a buffer ref, the info copied, the
 * memory looked up again) cost a chain's streaming thread about 0.15 us a
 * map on the lent hosts, two maps an element a frame.  FALSE where the map
 * fails or the meta does not fit @info.
 */
gboolean
gst_cuda_img_map_device (GstBuffer * buf, const GstVideoInfo * info,
    GstMapFlags flags, GstCudaImgFrame * f, GstMapInfo * map)
{
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  const guint n = GST_VIDEO_INFO_N_PLANES (info);
  guint p;

  /* what gst_video_frame_map requires of a meta */
  if (meta && (meta->format != GST_VIDEO_INFO_FORMAT (info) ||
          meta->n_planes != n
          || meta->width < (guint) GST_VIDEO_INFO_WIDTH (info)
          || meta->height < (guint) GST_VIDEO_INFO_HEIGHT (info)))
    return FALSE;
  if (!gst_memory_map (mem, map, flags | GST_MAP_CUDA))
    return FALSE;
  if (!meta && map->size < GST_VIDEO_INFO_SIZE (info)) {
    gst_memory_unmap (mem, map);
    return FALSE;
  }
  f->info = info;
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    f->data[p] = p < n ? map->data + (meta ? meta->offset[p] :
        GST_VIDEO_INFO_PLANE_OFFSET (info, p)) : NULL;
    f->stride[p] = p < n ? (meta ? meta->stride[p] :
        GST_VIDEO_INFO_PLANE_STRIDE (info, p)) : 0;
  }
  return TRUE;
}

void
gst_cuda_img_unmap_device (GstBuffer * buf, GstMapInfo * map)
{
  gst_memory_unmap (gst_buffer_peek_memory (buf, 0), map);
}

/* ------------------------------------------------------------------------ */
/* properties */

/**
 * gst_cuda_img_register_enum:
 * @type: a static location, 0 before the first call
 *
 * Registers the enum type @name of @values once; returns it.
 */
GType
gst_cuda_img_register_enum (gsize * type, const gchar * name,
    const GEnumValue * values)
{
  if (g_once_init_enter (type)) {
    GType t = g_enum_register_static (name, values);
    g_once_init_leave (type, t);
  }
  return (GType) * type;
}

/* ------------------------------------------------------------------------ */
/* caps */

/* video/x-raw of @formats, any size and rate, in CUDA memory then in system
 * memory. */
GstCaps *
gst_cuda_img_formats_caps (const GstVideoFormat * formats, guint n)
{
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  GstCaps *caps, *cuda;
  guint i;

  caps = gst_caps_new_simple ("video/x-raw",
      "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
      "height", GST_TYPE_INT_RANGE, 1, G_MAXINT,
      "framerate", GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1, NULL);
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < n; i++) {
    g_value_init (&v, G_TYPE_STRING);
    g_value_set_static_string (&v, gst_video_format_to_string (formats[i]));
    gst_value_list_append_and_take_value (&list, &v);
  }
  gst_caps_set_value (caps, "format", &list);
  g_value_unset (&list);

  cuda = gst_caps_copy (caps);
  gst_caps_set_features_simple (cuda,
      gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY));
  return gst_caps_merge (cuda, caps);
}

gboolean
gst_cuda_img_caps_are_cuda (GstCaps * caps)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, 0);
  return f && gst_caps_features_contains (f,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

/* @cuda_caps then @sys_caps (both taken), each intersected with @filter:
 * CUDA memory first, so that a chain of our elements stays on the GPU, and
 * a system-memory peer still negotiates the second choice.  The filter's
 * order is kept within each kind of memory, but not across them: a
 * neighbour that can give or take either (cudaupload and nvcodec's elements
 * put system memory first, for passthrough) then links to us in CUDA memory
 * and does the copy itself. */
static GstCaps *
cuda_first (GstCaps * cuda_caps, GstCaps * sys_caps, GstCaps * filter)
{
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, cuda_caps,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (cuda_caps);
    cuda_caps = tmp;
    tmp = gst_caps_intersect_full (filter, sys_caps, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (sys_caps);
    sys_caps = tmp;
  }
  return gst_caps_merge (cuda_caps, sys_caps);
}

static GstCaps *
intersect_within (GstCaps * caps, GstCaps * within)
{
  GstCaps *tmp;

  if (!within)
    return caps;
  tmp = gst_caps_intersect_full (caps, within, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return tmp;
}

/**
 * gst_cuda_img_in_both_memories:
 * @caps: (transfer full): structures, whatever memory their features say
 * @within: (nullable): caps (a pad template) the result must fit
 *
 * Each structure of @caps in CUDA memory, then each in system memory, both
 * kept @within, and filtered by @filter as cuda_first () says.
 */
GstCaps *
gst_cuda_img_in_both_memories (GstCaps * caps, GstCaps * within,
    GstCaps * filter)
{
  GstCaps *cuda = gst_caps_new_empty (), *sys = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);

    cuda = gst_caps_merge_structure_full (cuda, gst_structure_copy (s),
        gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY));
    sys = gst_caps_merge_structure_full (sys, gst_structure_copy (s),
        gst_caps_features_new_empty ());
  }
  gst_caps_unref (caps);
  return cuda_first (intersect_within (cuda, within),
      intersect_within (sys, within), filter);
}

/* ------------------------------------------------------------------------ */
/* allocation */

static GstBufferPool *
make_pool (GstElement * self, GstCudaContext * context,
    GstAllocator * host_allocator, GstCaps * caps, gboolean cuda, guint min,
    guint max)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!cuda)
    return gst_cuda_img_host_pool_new (host_allocator, caps, min, max);
  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_cuda_img_pool_new (self, context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/**
 * gst_cuda_img_propose_allocation:
 *
 * Upstream gets our pool: for system memory, page-locked memory it writes
 * into and we copy from at full speed (videotestsrc, decoders, appsrc
 * applications that ask).
 */
gboolean
gst_cuda_img_propose_allocation (GstElement * self, GstQuery * query,
    GstCudaContext * context, GstAllocator * host_allocator)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps;
  gboolean cuda;
  guint size, min;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !context)
    return TRUE;
  cuda = gst_cuda_img_caps_are_cuda (caps);
  if (!cuda) {
    GstAllocationParams params;

    gst_allocation_params_init (&params);
    gst_query_add_allocation_param (query, host_allocator, &params);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    return TRUE;

  /* system memory: the upload ring keeps a frame until its copy is done,
   * one per slot, and upstream fills the next; all made at the start */
  min = cuda ? 0 : GST_CUDA_IMG_UPLOAD_SLOTS + 1;
  pool = make_pool (self, context, host_allocator, caps, cuda, min, 0);
  if (!pool) {
    /* upstream then allocates its own buffers: slower, not wrong */
    GST_ELEMENT_WARNING (self, RESOURCE, NO_SPACE_LEFT,
        ("Could not allocate %s buffers to offer upstream; upstream "
            "allocates its own.", cuda ? "GPU" : "page-locked"),
        ("buffer pool configuration failed for %" GST_PTR_FORMAT, caps));
    return TRUE;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  gst_query_add_allocation_pool (query, pool, size, min, 0);
  gst_object_unref (pool);
  return TRUE;
}

/* A downstream pool of its own kind of memory (a display sink's shared
 * memory, dmabuf, ours): used, since the sink would otherwise copy.  A
 * plain system-memory pool we replace by our page-locked one. */
static gboolean
pool_has_own_memory (GstBufferPool * pool)
{
  GstStructure *config;
  GstAllocator *allocator = NULL;
  gboolean own;

  if (G_OBJECT_TYPE (pool) != GST_TYPE_VIDEO_BUFFER_POOL &&
      G_OBJECT_TYPE (pool) != GST_TYPE_BUFFER_POOL)
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  own = allocator && g_strcmp0 (allocator->mem_type, GST_ALLOCATOR_SYSMEM);
  gst_structure_free (config);
  return own;
}

/* The base classes configure a pool with the query's first allocator:
 * make it ours, or our system memory would be pageable. */
static void
set_host_allocator (GstQuery * query, GstAllocator * host_allocator)
{
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, host_allocator, &params);
  else
    gst_query_add_allocation_param (query, host_allocator, &params);
}

/**
 * gst_cuda_img_decide_allocation:
 *
 * @own: how many output buffers the element itself may have out at once,
 *   besides those downstream keeps
 *
 * Puts the output pool first in @query.  CUDA output always comes from our
 * own pool: it alone allocates GRAY8, and its memory is in our context.
 * System memory from our page-locked pool, unless downstream's has memory
 * of its own kind.  Posts an element error and returns FALSE where no pool
 * can be made.
 */
gboolean
gst_cuda_img_decide_allocation (GstElement * self, GstQuery * query,
    GstCudaContext * context, GstAllocator * host_allocator, guint own)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0;
  gboolean cuda;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;
  cuda = gst_cuda_img_caps_are_cuda (caps);

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (pool && (cuda || !pool_has_own_memory (pool)))
    gst_clear_object (&pool);
  if (pool) {
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
  if (!pool) {
    if (!cuda)
      set_host_allocator (query, host_allocator);
    /* All that can be out at once, made now: a pool that grew to it later,
     * when the timing first let it, would add a frame to the memory in use
     * mid-stream */
    pool = make_pool (self, context, host_allocator, caps, cuda, min + own,
        max ? MAX (max, min + own) : 0);
  }
  /* Activated here, not at the first frame by the base class, so that
   * running out of memory for the first buffers is our error, one that
   * says so */
  if (!pool || !gst_buffer_pool_set_active (pool, TRUE)) {
    GstVideoInfo info;

    if (!gst_video_info_from_caps (&info, caps))
      gst_video_info_init (&info);
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Out of %s memory while allocating output buffers for %dx%d %s "
            "frames.", cuda ? "GPU" : "system", GST_VIDEO_INFO_WIDTH (&info),
            GST_VIDEO_INFO_HEIGHT (&info),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info))),
        ("could not %s the buffer pool for %" GST_PTR_FORMAT, pool ?
            "fill" : "configure", caps));
    gst_clear_object (&pool);
    return FALSE;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, &min, &max);
  gst_structure_free (config);

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
