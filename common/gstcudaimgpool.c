/* cudaimgproc: buffer pool of GstCudaMemory, GRAY8 included.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GStreamer's CUDA allocator (1.22 and every later release so far) computes
 * plane offsets from a switch over formats and aborts on the ones it does not
 * list, GRAY8 among them.  Every single-plane format is nothing but rows of
 * bytes in one pitched allocation, so for a format the allocator does not
 * know we ask it for a layout-identical one, RGBA of ceil (row bytes / 4)
 * pixels and the same height: the allocator then returns a CuMemAllocPitch
 * buffer whose pitch holds our rows, and which maps (GST_MAP_CUDA), downloads
 * on a plain map and copies (gst_memory_copy) with its own code, since all of
 * those work on (pitch, row bytes, height) alone.  The GstCudaMemory keeps
 * that RGBA description (1.22's memory copy re-allocates from it, and would
 * abort on GRAY8); what describes the frame is the caps and the GstVideoMeta
 * we attach, which say GRAY8 with the real pitch.  docs/gray8-cuda-memory.md
 * has the whole reasoning.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgpool.h"
#include "cip_alloc.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_pool_debug);
#define GST_CAT_DEFAULT gst_cuda_img_pool_debug

struct _GstCudaImgPool
{
  GstBufferPool parent;

  GstCudaContext *context;
  GWeakRef element;             /* told when a buffer cannot be allocated */
  GstVideoInfo info;            /* what the caps say */
  GstVideoInfo alloc_info;      /* what we ask GStreamer's allocator for */
};

#define gst_cuda_img_pool_parent_class parent_class
G_DEFINE_TYPE (GstCudaImgPool, gst_cuda_img_pool, GST_TYPE_BUFFER_POOL);

static gboolean
allocator_knows (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
      return TRUE;
    default:
      return FALSE;
  }
}

/**
 * gst_cuda_img_alloc_info:
 *
 * Fills @alloc_info with what to ask GStreamer's CUDA allocator for so that
 * the memory holds a frame of @info, its planes apart.  Returns FALSE for multi-plane formats
 * the allocator does not know (no layout-identical stand-in exists).
 */
gboolean
gst_cuda_img_alloc_info (const GstVideoInfo * info, GstVideoInfo * alloc_info)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (info);
  guint row_bytes;

  if (allocator_knows (format)) {
    *alloc_info = *info;
    /* 1.22's allocator puts I420's V plane height / 2 rows after U, which
     * for an odd height is one row short: U's last row is V's first.  An
     * even height lays the planes apart; the video meta still says the
     * real height, with these offsets. */
    if ((format == GST_VIDEO_FORMAT_I420 || format == GST_VIDEO_FORMAT_YV12) &&
        GST_VIDEO_INFO_HEIGHT (info) % 2)
      gst_video_info_set_format (alloc_info, format,
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info) + 1);
    return TRUE;
  }
  if (GST_VIDEO_INFO_N_PLANES (info) != 1)
    return FALSE;

  row_bytes = GST_VIDEO_INFO_COMP_WIDTH (info, 0) *
      GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  gst_video_info_set_format (alloc_info, GST_VIDEO_FORMAT_RGBA,
      MAX (1, (row_bytes + 3) / 4), GST_VIDEO_INFO_HEIGHT (info));
  return TRUE;
}

static void
memory_freed (gpointer data, GstMiniObject * mem)
{
  cip_alloc_freed (mem);
}

/**
 * gst_cuda_img_memory_alloc:
 *
 * Allocates one GstCudaMemory able to hold a frame of @info; @out_info gets
 * @info with the allocation's real strides and offsets (what a GstVideoMeta
 * must say).  NULL on failure (out of device memory, unknown layout).
 */
GstMemory *
gst_cuda_img_memory_alloc (GstCudaContext * context, const GstVideoInfo * info,
    GstVideoInfo * out_info)
{
  GstAllocator *allocator;
  GstVideoInfo alloc_info;
  GstCudaMemory *cmem;
  GstMemory *mem;
  guint i;

  if (!gst_cuda_img_alloc_info (info, &alloc_info) ||
      cip_alloc_check ("CUDA memory frame",
          GST_VIDEO_INFO_SIZE (&alloc_info)) != cudaSuccess)
    return NULL;
  gst_cuda_memory_init_once ();
  allocator = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  if (!allocator)
    return NULL;
#if GST_CHECK_VERSION (1, 24, 0)
  /* no stream: our elements order work on the memory with events */
  mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      NULL, &alloc_info);
#else
  mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      &alloc_info);
#endif
  gst_object_unref (allocator);
  if (!mem)
    return NULL;
  /* counted until GStreamer frees it */
  cip_alloc_made (mem, "CUDA memory frame", mem->maxsize);
  gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (mem), memory_freed, NULL);

  cmem = GST_CUDA_MEMORY_CAST (mem);
  *out_info = *info;
  if (allocator_knows (GST_VIDEO_INFO_FORMAT (info))) {
    for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
      out_info->stride[i] = cmem->info.stride[i];
      out_info->offset[i] = cmem->info.offset[i];
    }
  } else {
    out_info->stride[0] = cmem->info.stride[0];
    out_info->offset[0] = 0;
  }
  out_info->size = mem->size;
  return mem;
}

static const gchar **
gst_cuda_img_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };
  return options;
}

static gboolean
gst_cuda_img_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstCudaImgPool *self = GST_CUDA_IMG_POOL (pool);
  GstCaps *caps = NULL;
  guint min, max;
  GstMemory *probe;
  GstVideoInfo out_info;

  if (!gst_buffer_pool_config_get_params (config, &caps, NULL, &min, &max) ||
      !caps || !gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (pool, "invalid caps in config");
    return FALSE;
  }
  if (!gst_cuda_img_alloc_info (&self->info, &self->alloc_info)) {
    GST_WARNING_OBJECT (pool, "no CUDA memory layout for %s",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&self->info)));
    return FALSE;
  }

  /* The pitch is only known after one allocation; the pool's size must be
   * the memory's real size. */
  probe = gst_cuda_img_memory_alloc (self->context, &self->info, &out_info);
  if (!probe) {
    GST_WARNING_OBJECT (pool, "CUDA allocation failed");
    return FALSE;
  }
  gst_buffer_pool_config_set_params (config, caps, probe->size, min, max);
  gst_memory_unref (probe);

  return GST_BUFFER_POOL_CLASS (parent_class)->set_config (pool, config);
}

static GstFlowReturn
gst_cuda_img_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstCudaImgPool *self = GST_CUDA_IMG_POOL (pool);
  GstVideoInfo vinfo;
  GstMemory *mem;
  GstBuffer *buf;

  mem = gst_cuda_img_memory_alloc (self->context, &self->info, &vinfo);
  if (!mem) {
    GstElement *element = g_weak_ref_get (&self->element);

    GST_WARNING_OBJECT (pool, "could not allocate %" G_GSIZE_FORMAT
        " bytes of CUDA memory", GST_VIDEO_INFO_SIZE (&self->info));
    /* While the pool fills, whoever activates it reports; later (the
     * pool growing) the element's base class would not. */
    if (element && gst_buffer_pool_is_active (pool))
      GST_ELEMENT_ERROR (element, RESOURCE, NO_SPACE_LEFT,
          ("Out of GPU memory while allocating an output buffer for %dx%d "
              "%s frames.", GST_VIDEO_INFO_WIDTH (&self->info),
              GST_VIDEO_INFO_HEIGHT (&self->info),
              gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
                  (&self->info))), ("%" G_GSIZE_FORMAT " bytes of CUDA "
              "memory", GST_VIDEO_INFO_SIZE (&self->info)));
    gst_clear_object (&element);
    return GST_FLOW_ERROR;
  }
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&vinfo), GST_VIDEO_INFO_WIDTH (&vinfo),
      GST_VIDEO_INFO_HEIGHT (&vinfo), GST_VIDEO_INFO_N_PLANES (&vinfo),
      vinfo.offset, vinfo.stride);
  *buffer = buf;
  return GST_FLOW_OK;
}

/* GstBufferPool's start keeps the buffers it made when a later one fails,
 * and nothing frees them (1.22): undo it here */
static gboolean
gst_cuda_img_pool_start (GstBufferPool * pool)
{
  if (GST_BUFFER_POOL_CLASS (parent_class)->start (pool))
    return TRUE;
  GST_BUFFER_POOL_CLASS (parent_class)->stop (pool);
  return FALSE;
}

static void
gst_cuda_img_pool_dispose (GObject * object)
{
  GstCudaImgPool *self = GST_CUDA_IMG_POOL (object);

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (parent_class)->dispose (object);
}

static void
gst_cuda_img_pool_finalize (GObject * object)
{
  GstCudaImgPool *self = GST_CUDA_IMG_POOL (object);

  g_weak_ref_clear (&self->element);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_img_pool_class_init (GstCudaImgPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->dispose = gst_cuda_img_pool_dispose;
  gobject_class->finalize = gst_cuda_img_pool_finalize;
  pool_class->start = gst_cuda_img_pool_start;
  pool_class->get_options = gst_cuda_img_pool_get_options;
  pool_class->set_config = gst_cuda_img_pool_set_config;
  pool_class->alloc_buffer = gst_cuda_img_pool_alloc_buffer;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_img_pool_debug, "cudaimgpool", 0,
      "cudaimgproc CUDA buffer pool");
}

static void
gst_cuda_img_pool_init (GstCudaImgPool * self)
{
}

/* @element: told of buffers it cannot allocate once it is active */
GstBufferPool *
gst_cuda_img_pool_new (GstElement * element, GstCudaContext * context)
{
  GstCudaImgPool *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  self = g_object_new (GST_TYPE_CUDA_IMG_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  /* weak: upstream may keep a pool we proposed longer than @element */
  g_weak_ref_init (&self->element, element);
  return GST_BUFFER_POOL_CAST (self);
}
