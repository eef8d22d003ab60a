/* cudaimgproc: base class of every element.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What it does for each element, so that an element only brings kernels and
 * properties:
 *  - one GstCudaContext shared with the pipeline (context query and
 *    set_context, as GStreamer's nvcodec elements do) and a CUDA stream of
 *    the element's own;
 *  - caps in CUDA memory or system memory on both pads, CUDA memory
 *    preferred, so that between two of ours the link is CUDA memory
 *    whatever ends the chain;
 *  - system memory page-locked (a pool of it proposed upstream and used for
 *    our own output), uploaded and downloaded on copy streams of their own
 *    that overlap the kernels, system-memory output pushed by a thread of
 *    its own as soon as it is on the host (gstcudaimgtransfer.c);
 *  - output in GstCudaMemory from our own pool (GRAY8 included, see
 *    gstcudaimgpool.c);
 *  - no host synchronisation between two of our elements in one context
 *    (gstcudaimgsync.c), and two linked directly run on one stream: a
 *    chain of ours is one stream of work in order, with no waits between
 *    streams;
 *  - where a foreign element must get a finished frame (or may write its
 *    input again once released), a thread of the element's waits for the
 *    GPU and pushes (or releases), not the streaming thread, which goes
 *    on to the next frame (gstcudaimgtransfer.c);
 *  - an element whose launches follow from its buffers, caps and
 *    properties has them captured once per pair of buffers and replayed as
 *    a CUDA graph, which costs the host half a launch (gstcudaimgreplay.c);
 *  - values an element's kernels write for its messages are read back
 *    without a wait and posted in frame order (gstcudaimgreadback.c);
 *  - every CUDA failure becomes an element error a person can act on.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgfilter.h"
#include "gstcudaimgelement.h"
#include "gstcudaimghost.h"
#include "gstcudaimgpool.h"
#include "gstcudaimgreplay.h"
#include "gstcudaimgsync.h"
#include "gstcudaimgtransfer.h"
#include "cip_alloc.h"

#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_img_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_img_filter_debug


enum
{
  PROP_0,
  PROP_DEVICE_ID,
};

typedef struct
{
  gint device_id;
  GstCudaContext *context;
  GstCudaImgStream *own_stream;
  /* the stream the kernels run on: our own, or that of the element of ours
   * directly upstream; written under the object lock (the element
   * downstream reads it) */
  GstCudaImgStream *stream;

  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean in_cuda;
  gboolean out_cuda;
  gboolean configured;
  gboolean no_kernels;          /* CUDAIMGPROC_NO_KERNELS: benchmark only */
  gboolean no_graphs;           /* CUDAIMGPROC_NO_GRAPHS: direct launches */
  GstCudaImgReplay replay;      /* streaming thread; context current */
  gint settings_gen;            /* atomic: bumped by each notify */

  GstAllocator *host_allocator; /* page-locked system memory */
  GstCudaImgUploader *uploader; /* input not in our CUDA memory */
  /* output not in our CUDA memory, or in CUDA memory for a foreign
   * element (a downloader of device frames); the pointer under down_lock,
   * which a flush start from another thread takes */
  GstCudaImgDownloader *downloader;
  GMutex down_lock;
  gboolean flushing;
  gboolean pending;             /* this frame's output goes to the downloader */
  gboolean push_direct;         /* ... to release the input, pushed by us */
  gboolean pushed_by_thread;    /* the last frame went to the thread */
  /* klass->message_size bytes a frame, for the messages; per caps */
  GstCudaImgReadback messages;
  /* klass->result_size bytes: the device record, and a page-locked copy
   * of it per frame in flight (the downloader's slots and the one being
   * pushed, and the one being made); per caps */
  gpointer result_device;
  guint8 *result_host;
  guint result_next;
  /* the peer of the source pad when the streaming thread last looked (a
   * ref: its address cannot come back as another pad's), and its element
   * if that is ours (a ref), else NULL: output_waits_on_gpu */
  GstPad *down_peer;
  GstCudaImgFilter *down_ours;
} GstCudaImgFilterPrivate;

#define gst_cuda_img_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCudaImgFilter, gst_cuda_img_filter,
    GST_TYPE_BASE_TRANSFORM);

#define PRIV(self) \
  ((GstCudaImgFilterPrivate *) gst_cuda_img_filter_get_instance_private (self))

/* ------------------------------------------------------------------------ */
/* errors */

void
gst_cuda_img_filter_post_cuda_error (GstCudaImgFilter * self, cudaError_t err,
    const gchar * doing)
{
  gst_cuda_img_post_cuda_error (GST_ELEMENT (self), err, doing);
}

/* ------------------------------------------------------------------------ */
/* properties, context */

static void
gst_cuda_img_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaImgFilterPrivate *priv = PRIV (GST_CUDA_IMG_FILTER (object));

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (object);
      priv->device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_img_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaImgFilterPrivate *priv = PRIV (GST_CUDA_IMG_FILTER (object));

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (object);
      g_value_set_int (value, priv->device_id);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_img_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaImgFilterPrivate *priv = PRIV (GST_CUDA_IMG_FILTER (element));

  gst_cuda_handle_set_context (element, context, priv->device_id,
      &priv->context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/**
 * gst_cuda_img_filter_class_set_messages:
 * @klass: the element's class
 * @size: bytes of the device record a frame's message is made of
 * @build: makes the message of those bytes
 *
 * From class_init, for elements that post a message a frame.
 */
void
gst_cuda_img_filter_class_set_messages (GstCudaImgFilterClass * klass,
    gsize size, GstCudaImgReadbackBuild build)
{
  klass->message_size = size;
  klass->build_message = build;
}

/* The messages' read-back, allocated from before set_info to after
 * release. */
GstCudaImgReadback *
gst_cuda_img_filter_messages (GstCudaImgFilter * self)
{
  return &PRIV (self)->messages;
}

/**
 * gst_cuda_img_register_border_enum:
 * @type: a static location, 0 before the first call
 *
 * Registers the enum type @name of #GstCudaImgBorder's values once (one
 * table for every element with a border property, each under its own
 * type name); returns it.
 */
GType
gst_cuda_img_register_border_enum (gsize * type, const gchar * name)
{
  static const GEnumValue values[] = {
    {GST_CUDA_IMG_BORDER_REPLICATE, "Repeat the edge pixel "
          "(BORDER_REPLICATE)", "replicate"},
    {GST_CUDA_IMG_BORDER_REFLECT_101, "Mirror without the edge pixel "
          "(BORDER_REFLECT_101, OpenCV's default)", "reflect-101"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (type, name, values);
}

/* ------------------------------------------------------------------------ */
/* transfers */

/* The downloader, or NULL, taken from the element (to free it). */
static GstCudaImgDownloader *
take_downloader (GstCudaImgFilter * self)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgDownloader *down;

  g_mutex_lock (&priv->down_lock);
  down = priv->downloader;
  priv->downloader = NULL;
  g_mutex_unlock (&priv->down_lock);
  return down;
}

#define RESULT_COPIES (GST_CUDA_IMG_DOWNLOAD_SLOTS + 2)

static GQuark result_quark;

/* Before the frame is pushed: its message (read back before it) too, and
 * what the element attaches of its result (on the host: the copy was
 * enqueued before the frame's done event, which the thread waited for). */
static void
frame_downloaded (GstElement * element, GstBuffer * buf)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (element);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);
  guint copy;

  gst_cuda_img_readback_post_ready (&priv->messages);
  if (!klass->finish || !priv->result_host)
    return;
  copy = GPOINTER_TO_UINT (gst_mini_object_get_qdata (GST_MINI_OBJECT (buf),
          result_quark));
  if (copy)
    klass->finish (self, buf, priv->result_host + (copy - 1) *
        klass->result_size);
}

/**
 * gst_cuda_img_filter_class_set_results:
 * @klass: the element's class
 * @size: bytes of the device record a frame's result is
 * @finish: attaches it to the output buffer
 *
 * From class_init, for elements whose output carries what the kernels
 * found.
 */
void
gst_cuda_img_filter_class_set_results (GstCudaImgFilterClass * klass,
    gsize size, void (*finish) (GstCudaImgFilter * self, GstBuffer * outbuf,
        gconstpointer result))
{
  klass->result_size = size;
  klass->finish = finish;
}

/* The device record @process writes the frame's result to (per caps). */
gpointer
gst_cuda_img_filter_result (GstCudaImgFilter * self)
{
  return PRIV (self)->result_device;
}

/* Context current.  After @process: the record's copy for this frame. */
static cudaError_t
copy_result (GstCudaImgFilter * self, GstBuffer * outbuf, cudaStream_t stream)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);
  const gsize size = GST_CUDA_IMG_FILTER_GET_CLASS (self)->result_size;
  const guint copy = priv->result_next;

  priv->result_next = (copy + 1) % RESULT_COPIES;
  gst_mini_object_set_qdata (GST_MINI_OBJECT (outbuf), result_quark,
      GUINT_TO_POINTER (copy + 1), NULL);
  return cudaMemcpyAsync (priv->result_host + copy * size,
      priv->result_device, size, cudaMemcpyDeviceToHost, stream);
}

/* Context current.  A downloader of the kind asked for: with @device,
 * for frames that stay on the device.  Made once per caps, again only if
 * the other kind is needed (frames in flight pushed first). */
static cudaError_t
ensure_downloader (GstCudaImgFilter * self, gboolean device)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgDownloader *down;
  cudaError_t err;

  if (priv->downloader &&
      gst_cuda_img_downloader_is_device (priv->downloader) == device)
    return cudaSuccess;
  if (priv->downloader) {
    gst_cuda_img_downloader_drain (priv->downloader);
    gst_cuda_img_downloader_free (take_downloader (self));
  }
  down = gst_cuda_img_downloader_new (GST_ELEMENT (self),
      GST_BASE_TRANSFORM_SRC_PAD (self), priv->context,
      device ? NULL : &priv->out_info, frame_downloaded, &err);
  if (!down)
    return err;
  g_mutex_lock (&priv->down_lock);
  if (priv->flushing)
    gst_cuda_img_downloader_set_flushing (down, TRUE);
  priv->downloader = down;
  g_mutex_unlock (&priv->down_lock);
  return cudaSuccess;
}

/* The stream the kernels run on from now on (taken). */
static void
use_stream (GstCudaImgFilter * self, GstCudaImgStream * stream)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgStream *old;

  GST_OBJECT_LOCK (self);
  old = priv->stream;
  priv->stream = stream;
  GST_OBJECT_UNLOCK (self);
  if (old)
    gst_cuda_img_stream_unref (old);
}

/* @pad's element if it is one of ours (a reference), else NULL */
static GstCudaImgFilter *
filter_of_pad (GstPad * pad)
{
  GstElement *parent = pad ? gst_pad_get_parent_element (pad) : NULL;

  if (parent && !GST_IS_CUDA_IMG_FILTER (parent))
    gst_clear_object (&parent);
  return (GstCudaImgFilter *) parent;
}

/* The element of ours linked directly to @pad in our context, or NULL
 * (a reference). */
static GstCudaImgFilter *
peer_of_ours (GstCudaImgFilter * self, GstPad * pad)
{
  GstPad *peer = gst_pad_get_peer (pad);
  GstCudaImgFilter *ours = filter_of_pad (peer);

  gst_clear_object (&peer);
  if (ours && PRIV (ours)->context != PRIV (self)->context)
    gst_clear_object (&ours);
  return ours;
}

static void
clear_output_peer (GstCudaImgFilter * self)
{
  gst_clear_object (&PRIV (self)->down_peer);
  gst_clear_object (&PRIV (self)->down_ours);
}

/* The stream of the element of ours linked directly upstream in our
 * context, or NULL.  Running on it, our work follows its work in stream
 * order: no event to wait for between the two, on the host or the GPU. */
static GstCudaImgStream *
upstream_stream (GstCudaImgFilter * self)
{
  GstCudaImgFilter *up = peer_of_ours (self, GST_BASE_TRANSFORM_SINK_PAD
      (self));
  GstCudaImgStream *s = NULL;

  if (up) {
    GST_OBJECT_LOCK (up);
    if (PRIV (up)->stream)
      s = gst_cuda_img_stream_ref (PRIV (up)->stream);
    GST_OBJECT_UNLOCK (up);
    gst_object_unref (up);
  }
  return s;
}

/* Context current. */
static void
release_caps_resources (GstCudaImgFilter * self)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);

  /* frames not pushed yet are dropped: set_caps drained them first */
  gst_cuda_img_downloader_free (take_downloader (self));
  /* The stream may be the upstream element's, still streaming in another
   * thread on a stop; that is allowed, since nothing captures graphs on
   * it (gstcudaimgreplay.c). */
  if (priv->stream)
    cudaStreamSynchronize (gst_cuda_img_stream_handle (priv->stream));
  /* the graphs hold the scratch pointers that release frees */
  if (priv->replay.hits || priv->replay.misses)
    GST_DEBUG_OBJECT (self, "graphs replayed %" G_GUINT64_FORMAT " times, "
        "captured %" G_GUINT64_FORMAT "%s", priv->replay.hits,
        priv->replay.misses, priv->replay.broken ? " (then given up)" : "");
  gst_cuda_img_replay_clear (&priv->replay);
  if (priv->configured && klass->release)
    klass->release (self);
  gst_cuda_img_readback_free (&priv->messages);
  g_clear_pointer (&priv->result_device, cip_free);
  g_clear_pointer (&priv->result_host, cip_free_host);
  g_clear_pointer (&priv->uploader, gst_cuda_img_uploader_free);
  priv->configured = FALSE;
}

/* ------------------------------------------------------------------------ */
/* start / stop */

/* The frame's settings (GstCudaImgFilterClass.snapshot), in the streaming
 * thread or before it runs: the only writer.  @idle_only: only where no
 * streaming thread runs (NULL, READY; the state read under the same
 * lock). */
static void
take_snapshot (GstCudaImgFilter * self, gboolean idle_only)
{
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);

  if (!klass->snapshot)
    return;
  GST_OBJECT_LOCK (self);
  if (!idle_only || GST_STATE (self) <= GST_STATE_READY)
    klass->snapshot (self);
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cuda_img_filter_start (GstBaseTransform * trans)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);

  /* The benchmark's "framework cost" runs: everything but the kernels */
  priv->no_kernels = g_getenv ("CUDAIMGPROC_NO_KERNELS") != NULL;
  if (priv->no_kernels)
    GST_WARNING_OBJECT (self, "CUDAIMGPROC_NO_KERNELS is set: frames pass "
        "through without their kernels (output is not computed)");
  /* the benchmark's and tests' other side of the graph replay */
  priv->no_graphs = g_getenv ("CUDAIMGPROC_NO_GRAPHS") != NULL;
  take_snapshot (self, FALSE);

  if (!gst_cuda_img_open (GST_ELEMENT (self), device_id, &priv->context,
          &priv->own_stream, &priv->host_allocator))
    return FALSE;
  use_stream (self, gst_cuda_img_stream_ref (priv->own_stream));
  return TRUE;
}

static gboolean
gst_cuda_img_filter_stop (GstBaseTransform * trans)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);

  if (priv->context && gst_cuda_context_push (priv->context)) {
    release_caps_resources (self);
    gst_cuda_img_replay_free (&priv->replay);
    gst_cuda_context_pop (NULL);
  }
  /* Buffers still downstream keep the stream alive through their fences. */
  use_stream (self, NULL);
  clear_output_peer (self);
  g_clear_pointer (&priv->own_stream, gst_cuda_img_stream_unref);
  gst_clear_object (&priv->host_allocator);
  gst_clear_object (&priv->context);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* caps */

/**
 * gst_cuda_img_filter_class_set_formats:
 *
 * Installs sink and src pad templates, each offering CUDA memory first and
 * system memory second, with the given formats.
 */
void
gst_cuda_img_filter_class_set_formats (GstCudaImgFilterClass * klass,
    const GstVideoFormat * sink_formats, guint n_sink_formats,
    const GstVideoFormat * src_formats, guint n_src_formats)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *caps;

  klass->sink_formats = g_memdup2 (sink_formats,
      n_sink_formats * sizeof (GstVideoFormat));
  klass->n_sink_formats = n_sink_formats;
  klass->only_src_format = n_src_formats == 1 ? src_formats[0] :
      GST_VIDEO_FORMAT_UNKNOWN;

  caps = gst_cuda_img_formats_caps (sink_formats, n_sink_formats);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  caps = gst_cuda_img_formats_caps (src_formats, n_src_formats);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

static gboolean
value_has_format (const GValue * formats, GstVideoFormat format)
{
  const gchar *name = gst_video_format_to_string (format);
  guint i;

  if (!formats)
    return TRUE;
  if (G_VALUE_HOLDS_STRING (formats))
    return g_strcmp0 (g_value_get_string (formats), name) == 0;
  if (GST_VALUE_HOLDS_LIST (formats)) {
    for (i = 0; i < gst_value_list_get_size (formats); i++)
      if (value_has_format (gst_value_list_get_value (formats, i), format))
        return TRUE;
  }
  return FALSE;
}

static void
append_format (GValue * list, GstVideoFormat format)
{
  GValue v = G_VALUE_INIT;
  guint i;

  for (i = 0; i < gst_value_list_get_size (list); i++)
    if (value_has_format (gst_value_list_get_value (list, i), format))
      return;
  g_value_init (&v, G_TYPE_STRING);
  g_value_set_static_string (&v, gst_video_format_to_string (format));
  gst_value_list_append_and_take_value (list, &v);
}

/* Formats on the other side of one caps structure; the size, framerate and
 * aspect ratio pass through (but for an element with output_size: that
 * size out, any size in), colour description only where the format does
 * not change. */
static GstCaps *
gst_cuda_img_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);
  GstCaps *outs = gst_caps_new_empty ();
  GstCaps *result;
  gint out_w = 0, out_h = 0;
  gboolean sized = klass->output_size && klass->output_size (self, &out_w,
      &out_h);
  guint i, j;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    const GValue *formats = gst_structure_get_value (s, "format");
    GValue list = G_VALUE_INIT;
    gboolean same_format = TRUE;
    GstStructure *out;

    g_value_init (&list, GST_TYPE_LIST);
    for (j = 0; j < klass->n_sink_formats; j++) {
      GstVideoFormat in_fmt = klass->sink_formats[j];
      GstVideoFormat out_fmt = klass->output_format ?
          klass->output_format (self, in_fmt) :
          klass->only_src_format != GST_VIDEO_FORMAT_UNKNOWN ?
          klass->only_src_format : in_fmt;

      if (direction == GST_PAD_SINK && value_has_format (formats, in_fmt)) {
        append_format (&list, out_fmt);
        same_format &= in_fmt == out_fmt;
      } else if (direction == GST_PAD_SRC &&
          value_has_format (formats, out_fmt)) {
        append_format (&list, in_fmt);
        same_format &= in_fmt == out_fmt;
      }
    }
    if (gst_value_list_get_size (&list) == 0) {
      g_value_unset (&list);
      continue;
    }

    out = gst_structure_copy (s);
    gst_structure_set_name (out, "video/x-raw");
    if (gst_value_list_get_size (&list) == 1)
      gst_structure_set_value (out, "format",
          gst_value_list_get_value (&list, 0));
    else
      gst_structure_set_value (out, "format", &list);
    g_value_unset (&list);
    if (!same_format)
      gst_structure_remove_fields (out, "colorimetry", "chroma-site", NULL);
    if (sized && direction == GST_PAD_SINK)
      gst_structure_set (out, "width", G_TYPE_INT, out_w, "height",
          G_TYPE_INT, out_h, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
          NULL);
    else if (sized)
      gst_structure_remove_fields (out, "width", "height",
          "pixel-aspect-ratio", NULL);

    outs = gst_caps_merge_structure (outs, out);
  }

  result = gst_cuda_img_in_both_memories (outs, NULL, filter);
  GST_DEBUG_OBJECT (self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

static gboolean
gst_cuda_img_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);
  GstVideoInfo in_info, out_info;
  cudaError_t err = cudaSuccess;
  gboolean ret = TRUE;

  if (!priv->context || !priv->stream) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("caps set before the element was started"));
    return FALSE;
  }
  if (!gst_video_info_from_caps (&in_info, incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("invalid caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps,
            outcaps));
    return FALSE;
  }

  if (!gst_cuda_img_push_context (GST_ELEMENT (self), priv->context))
    return FALSE;
  /* A new size mid-stream: drop the old scratch once in-flight work is done */
  release_caps_resources (self);

  priv->in_info = in_info;
  priv->out_info = out_info;
  priv->in_cuda = gst_cuda_img_caps_are_cuda (incaps);
  priv->out_cuda = gst_cuda_img_caps_are_cuda (outcaps);
  /* The old stream is idle (released above): switching is safe.  The
   * fences keep any pairing of streams correct; one stream is faster. */
  {
    GstCudaImgStream *up = priv->in_cuda ? upstream_stream (self) : NULL;

    use_stream (self, up ? up : gst_cuda_img_stream_ref (priv->own_stream));
    GST_DEBUG_OBJECT (self, "kernels on %s stream", up ? "the upstream "
        "element's" : "our own");
  }

  if (!priv->in_cuda)
    priv->uploader = gst_cuda_img_uploader_new (GST_ELEMENT (self),
        priv->context, &in_info, &err);
  if (err == cudaSuccess && !priv->out_cuda)
    err = ensure_downloader (self, FALSE);
  if (err != cudaSuccess) {
    gchar *what = g_strdup_printf ("allocating transfer buffers for %dx%d "
        "frames",
        GST_VIDEO_INFO_WIDTH (&in_info), GST_VIDEO_INFO_HEIGHT (&in_info));
    gst_cuda_img_filter_post_cuda_error (self, err, what);
    g_free (what);
    ret = FALSE;
  } else if (klass->message_size && (err =
          gst_cuda_img_readback_alloc (&priv->messages, GST_ELEMENT (self),
              klass->message_size, klass->build_message)) != cudaSuccess) {
    gst_cuda_img_filter_post_cuda_error (self, err,
        "allocating the buffers of its messages");
    ret = FALSE;
  } else if (klass->result_size && ((err = cip_malloc (&priv->result_device,
                  klass->result_size, "frame results")) != cudaSuccess ||
          (err = cudaMemset (priv->result_device, 0,
                  klass->result_size)) != cudaSuccess ||
          (err = cip_host_alloc ((void **) &priv->result_host,
                  RESULT_COPIES * klass->result_size, cudaHostAllocDefault,
                  "page-locked frame results")) != cudaSuccess)) {
    gst_cuda_img_filter_post_cuda_error (self, err,
        "allocating the buffers of its results");
    ret = FALSE;
  } else if (klass->set_info) {
    priv->result_next = 0;
    ret = klass->set_info (self, &priv->in_info, &priv->out_info);
  }
  priv->configured = ret;
  if (!ret)
    release_caps_resources (self);
  gst_cuda_context_pop (NULL);

  GST_INFO_OBJECT (self, "%s %s memory -> %s %s memory, %dx%d",
      GST_VIDEO_INFO_NAME (&in_info), priv->in_cuda ? "CUDA" : "system",
      GST_VIDEO_INFO_NAME (&out_info), priv->out_cuda ? "CUDA" : "system",
      GST_VIDEO_INFO_WIDTH (&in_info), GST_VIDEO_INFO_HEIGHT (&in_info));
  return ret;
}

static gboolean
gst_cuda_img_filter_get_unit_size (GstBaseTransform * trans, GstCaps * caps,
    gsize * size)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  *size = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* allocation */

/* ------------------------------------------------------------------------ */
/* allocation */

static gboolean
gst_cuda_img_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaImgFilterPrivate *priv = PRIV (GST_CUDA_IMG_FILTER (trans));

  return gst_cuda_img_propose_allocation (GST_ELEMENT (trans), query,
      priv->context, priv->host_allocator);
}

static gboolean
gst_cuda_img_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgFilter *down = peer_of_ours (self, GST_BASE_TRANSFORM_SRC_PAD
      (self));
  GstCaps *caps = NULL;
  guint own;

  /* Device frames to one of ours: the one being written and the one it
   * reads.  Otherwise the frame being written, every slot of the
   * downloader's ring, the frame its thread pushes and the one before,
   * which a sink keeps as its last sample until the next replaces it (no
   * sink counts that in the allocation query). */
  gst_query_parse_allocation (query, &caps, NULL);
  own = down && caps && gst_cuda_img_caps_are_cuda (caps) ? 2 :
      GST_CUDA_IMG_DOWNLOAD_SLOTS + 3;
  gst_clear_object (&down);
  return gst_cuda_img_decide_allocation (GST_ELEMENT (trans), query,
      priv->context, priv->host_allocator, own) &&
      GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
}

/* ------------------------------------------------------------------------ */
/* events and queries around frames in flight */

/* Nothing serialized may overtake the frames the downloader still has. */
static void
drain (GstCudaImgFilter * self)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);

  if (priv->downloader)
    gst_cuda_img_downloader_drain (priv->downloader);
}

static gboolean
gst_cuda_img_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgDownloader *down;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      /* any thread: wakes a streaming thread waiting for a free slot */
      g_mutex_lock (&priv->down_lock);
      priv->flushing = TRUE;
      if (priv->downloader)
        gst_cuda_img_downloader_set_flushing (priv->downloader, TRUE);
      g_mutex_unlock (&priv->down_lock);
      break;
    case GST_EVENT_FLUSH_STOP:
      g_mutex_lock (&priv->down_lock);
      priv->flushing = FALSE;
      down = priv->downloader;
      g_mutex_unlock (&priv->down_lock);
      /* only this (the streaming) thread frees the downloader */
      if (down)
        gst_cuda_img_downloader_set_flushing (down, FALSE);
      break;
    case GST_EVENT_EOS:
      /* every frame's message before EOS reaches the application */
      gst_cuda_img_readback_drain (&priv->messages, priv->context);
      drain (self);
      break;
    case GST_EVENT_CAPS:
      /* the caps follow the settings as they are now */
      drain (self);
      take_snapshot (self, FALSE);
      break;
    default:
      if (GST_EVENT_IS_SERIALIZED (event))
        drain (self);
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* A renegotiation (new output caps or pool) happens in there. */
static GstFlowReturn
gst_cuda_img_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  if (gst_pad_needs_reconfigure (GST_BASE_TRANSFORM_SRC_PAD (trans)))
    drain (GST_CUDA_IMG_FILTER (trans));
  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);
}

/* Is the element our buffer goes to one of ours, in our context, taking CUDA
 * memory?  Then it waits for our event on the GPU and we need not sync. */
static gboolean
downstream_waits_on_gpu (GstCudaImgFilter * self)
{
  GstCudaImgFilter *down = peer_of_ours (self, GST_BASE_TRANSFORM_SRC_PAD
      (self));
  gboolean ours = down && PRIV (down)->in_cuda;

  gst_clear_object (&down);
  return ours;
}

/* The same for each frame's output in CUDA memory, in the streaming thread:
 * the link's caps are ours to read (CUDA memory), and the peer's element is
 * looked up only when the peer pad changed since the last frame (the pad's
 * peer, its parent and their refs cost about 0.3 us an element a frame on
 * the lent hosts).  An element's context is set while it starts, so it is
 * read each time. */
static gboolean
output_waits_on_gpu (GstCudaImgFilter * self)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstPad *src = GST_BASE_TRANSFORM_SRC_PAD (self);
  GstPad *peer;

  GST_OBJECT_LOCK (src);
  peer = GST_PAD_PEER (src);
  if (peer == priv->down_peer && peer) {
    GST_OBJECT_UNLOCK (src);
  } else {
    GST_OBJECT_UNLOCK (src);
    gst_clear_object (&priv->down_peer);
    gst_clear_object (&priv->down_ours);
    priv->down_peer = gst_pad_get_peer (src);
    priv->down_ours = filter_of_pad (priv->down_peer);
  }
  return priv->down_ours && priv->out_cuda &&
      PRIV (priv->down_ours)->context == priv->context;
}

/* After output_waits_on_gpu said yes: does the element of ours downstream
 * run on our stream? */
static gboolean
output_shares_stream (GstCudaImgFilter * self)
{
  GstCudaImgFilter *down = PRIV (self)->down_ours;
  gboolean shares;

  GST_OBJECT_LOCK (down);
  shares = PRIV (down)->stream == PRIV (self)->stream;
  GST_OBJECT_UNLOCK (down);
  return shares;
}

static gboolean
gst_cuda_img_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  gboolean ret;

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gst_cuda_handle_context_query (GST_ELEMENT (trans), query,
              priv->context))
        return TRUE;
      break;
    case GST_QUERY_DRAIN:
      /* upstream wants its buffers back (a pool about to go) */
      if (direction == GST_PAD_SINK) {
        drain (self);
        if (priv->uploader && gst_cuda_context_push (priv->context)) {
          gst_cuda_img_uploader_release (priv->uploader);
          gst_cuda_context_pop (NULL);
        }
      }
      break;
    case GST_QUERY_LATENCY:
      ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
          query);
      /* Frames are pushed as soon as they are on the host or done (no
       * minimum added), but up to GST_CUDA_IMG_DOWNLOAD_SLOTS wait to be
       * pushed. */
      if (ret && direction == GST_PAD_SRC && priv->configured &&
          (!priv->out_cuda || !downstream_waits_on_gpu (self)) &&
          priv->out_info.fps_n > 0) {
        GstClockTime min, max;
        gboolean live;

        gst_query_parse_latency (query, &live, &min, &max);
        if (GST_CLOCK_TIME_IS_VALID (max))
          max += gst_util_uint64_scale_int (GST_SECOND *
              GST_CUDA_IMG_DOWNLOAD_SLOTS, priv->out_info.fps_d,
              priv->out_info.fps_n);
        gst_query_set_latency (query, live, min, max);
      }
      return ret;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/* ------------------------------------------------------------------------ */
/* the frame */

/* After the frame's event is recorded: can our producer wait for our work
 * on @inbuf before reusing it?  (We register as its reader.)  FALSE for a
 * foreign producer, which may overwrite its buffer once we release it: the
 * caller keeps it until our work is done. */
static gboolean
input_fenced (GstCudaImgFilter * self, GstBuffer * inbuf, gboolean writer_ours)
{
  return writer_ours && gst_cuda_img_fence_add_reader (PRIV (self)->stream,
      gst_buffer_peek_memory (inbuf, 0));
}

typedef struct
{
  GstCudaImgFilter *self;
  const GstCudaImgFrame *in, *out;
} ProcessArgs;

static cudaError_t
process_launch (gpointer data, cudaStream_t stream)
{
  ProcessArgs *a = data;

  return GST_CUDA_IMG_FILTER_GET_CLASS (a->self)->process (a->self, a->in,
      a->out, stream);
}

/* The frame's kernels: as a replayed graph where the element allows it. */
static cudaError_t
run_kernels (GstCudaImgFilter * self, const GstCudaImgFrame * in,
    const GstCudaImgFrame * out, cudaStream_t stream)
{
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);
  ProcessArgs args = { self, in, out };
  GstCudaImgReplayKey key;

  if (priv->no_graphs || !klass->replayable || (guint64)
      GST_VIDEO_INFO_WIDTH (in->info) * GST_VIDEO_INFO_HEIGHT (in->info) >
      GST_CUDA_IMG_REPLAY_MAX_PIXELS || !klass->replayable (self))
    return klass->process (self, in, out, stream);
  memset (&key, 0, sizeof (key));
  memcpy (key.in, in->data, sizeof (key.in));
  memcpy (key.in_stride, in->stride, sizeof (key.in_stride));
  memcpy (key.out, out->data, sizeof (key.out));
  memcpy (key.out_stride, out->stride, sizeof (key.out_stride));
  key.gen = g_atomic_int_get (&priv->settings_gen);
  return gst_cuda_img_replay_run (&priv->replay, GST_OBJECT (self), &key,
      &priv->settings_gen, process_launch, &args, stream);
}

/**
 * gst_cuda_img_filter_replay_always:
 *
 * A #GstCudaImgFilterClass.replayable for elements whose @process only
 * enqueues launches that follow from the frame's planes, the caps and the
 * properties.
 */
gboolean
gst_cuda_img_filter_replay_always (GstCudaImgFilter * self)
{
  return TRUE;
}

static GstFlowReturn
gst_cuda_img_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);
  GstMapInfo in_map, out_map;
  gboolean in_mapped = FALSE, out_mapped = FALSE, acquired = FALSE;
  gboolean in_device, out_device, writer_ours = FALSE, need_sync = FALSE;
  gboolean hold_input = FALSE, timing_only, push_direct = FALSE, record;
  gboolean gated = FALSE;
  GstCudaImgWriter writer = GST_CUDA_IMG_WRITER_NOT_OURS;
  GstCudaImgFrame in, out;
  cudaStream_t stream;
  cudaError_t err = cudaSuccess;
  const gchar *doing = "processing a frame", *unmappable = "input";
  GstFlowReturn ret = GST_FLOW_OK;

  if (!priv->configured) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("buffer before caps were configured"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_cuda_img_push_context (GST_ELEMENT (self), priv->context))
    return GST_FLOW_ERROR;
  stream = gst_cuda_img_stream_handle (priv->stream);

  /* Input: device memory of our context as is; anything else copied up;
   * none for a gathering element's emitted frame. */
  timing_only = klass->gather && gst_buffer_n_memory (inbuf) == 0;
  in_device = timing_only || (priv->in_cuda
      && gst_cuda_img_is_our_memory (priv->context, inbuf));
  if (timing_only) {
    memset (&in, 0, sizeof in);
    in.info = &priv->in_info;
  } else if (in_device) {
    if (!gst_cuda_img_map_device (inbuf, &priv->in_info, GST_MAP_READ, &in,
            &in_map))
      goto map_failed;
    in_mapped = TRUE;
    err = gst_cuda_img_fence_wait_writer (priv->stream,
        gst_buffer_peek_memory (inbuf, 0), &writer);
    doing = "waiting for the upstream element";
  } else {
    if (!priv->uploader) {
      /* CUDA memory of another context: rare, allocate once */
      priv->uploader = gst_cuda_img_uploader_new (GST_ELEMENT (self),
          priv->context, &priv->in_info, &err);
      doing = "allocating upload buffers";
    }
    if (priv->uploader) {
      if (!gst_cuda_img_uploader_upload (priv->uploader, inbuf, stream, &in,
              &err))
        goto map_failed;
      doing = "uploading a frame";
    }
  }
  if (err != cudaSuccess)
    goto cuda_error;
  writer_ours = writer != GST_CUDA_IMG_WRITER_NOT_OURS;

  if (klass->gather && !timing_only) {
    err = klass->gather (self, inbuf, &in, stream);
    doing = "gathering a frame";
    if (err == cudaSuccess && !in_device)
      err = gst_cuda_img_uploader_consumed (priv->uploader, stream);
    if (err == cudaSuccess)
      err = gst_cuda_img_stream_end_frame (priv->stream, TRUE);
    /* nothing to hold the input with: wait instead */
    if (err == cudaSuccess && in_device && !input_fenced (self, inbuf,
            writer_ours))
      err = cudaStreamSynchronize (stream);
    if (err != cudaSuccess)
      goto cuda_error;
    ret = GST_BASE_TRANSFORM_FLOW_DROPPED;
    goto done;
  }

  /* Output: our pool's device memory, or a downloader's slot.  Device
   * output waits in a slot too where the GPU must be done before the
   * frame may go on: the element downstream is not ours (it gets a
   * finished frame), or a foreign producer wrote the input (it may write
   * it again once we release it); the downloader's thread waits for that,
   * not this one.  Between two of ours nothing waits. */
  unmappable = "output";
  out_device = priv->out_cuda
      && gst_cuda_img_is_our_memory (priv->context, outbuf);
  if (out_device) {
    if (!gst_cuda_img_map_device (outbuf, &priv->out_info, GST_MAP_WRITE,
            &out, &out_map))
      goto map_failed;
    out_mapped = TRUE;
    err = gst_cuda_img_fence_wait_readers (priv->stream,
        gst_buffer_peek_memory (outbuf, 0));
    doing = "waiting for downstream readers";
    /* a frame that carries a result goes through the thread, which
     * attaches it once the GPU is done */
    push_direct = output_waits_on_gpu (self) && !klass->result_size;
    /* frames the thread still has go first */
    if (push_direct && priv->pushed_by_thread && priv->downloader)
      gst_cuda_img_downloader_drain (priv->downloader);
    priv->pushed_by_thread = !push_direct;
    if (err == cudaSuccess && (!push_direct || (in_device && !timing_only
                && !writer_ours))) {
      err = ensure_downloader (self, TRUE);
      doing = "starting the thread that waits for the GPU";
      if (err == cudaSuccess) {
        ret = gst_cuda_img_downloader_acquire (priv->downloader, NULL);
        if (ret != GST_FLOW_OK)
          goto done;
        acquired = TRUE;
      }
    }
  } else {
    priv->pushed_by_thread = TRUE;
    err = ensure_downloader (self, FALSE);
    doing = "allocating download buffers";
    if (err == cudaSuccess) {
      /* waits while every slot is in flight */
      ret = gst_cuda_img_downloader_acquire (priv->downloader, &out);
      if (ret != GST_FLOW_OK)
        goto done;
      acquired = TRUE;
    }
  }
  if (err != cudaSuccess)
    goto cuda_error;

  /* the frame's work enqueued from here to its download (gated: a
   * registration of host memory pauses it, gstcudaimghost.c) */
  gst_cuda_img_host_submit_begin ();
  gated = TRUE;
  /* no message for this frame unless process enqueues one */
  gst_cuda_img_readback_skip (&priv->messages);
  err = priv->no_kernels ? cudaSuccess : run_kernels (self, &in, &out, stream);
  doing = "running the kernels";
  if (err == cudaSuccess && klass->result_size)
    err = copy_result (self, outbuf, stream);
  if (err == cudaSuccess && !in_device)
    err = gst_cuda_img_uploader_consumed (priv->uploader, stream);
  if (err != cudaSuccess)
    goto cuda_error;

  /* Another stream waits for this frame where the output goes elsewhere
   * than to one of ours on this stream, or where the input's writer, on
   * another stream, waits for our reads before writing it again.  (Any
   * other waiter records the event itself: gstcudaimgsync.c.) */
  record = writer == GST_CUDA_IMG_WRITER_OTHER_STREAM || (out_device &&
      !(push_direct && output_shares_stream (self)));
  err = gst_cuda_img_stream_end_frame (priv->stream, record);
  doing = "recording the frame's event";
  if (err != cudaSuccess)
    goto cuda_error;

  if (out_device)
    gst_cuda_img_fence_set_writer (priv->stream,
        gst_buffer_peek_memory (outbuf, 0));
  if (in_device && !timing_only && !input_fenced (self, inbuf, writer_ours)) {
    /* a slot holds it until our reads are done, or we wait here (a tee to
     * more of ours than a fence has reader slots) */
    if (acquired)
      hold_input = TRUE;
    else
      need_sync = TRUE;
  }
  if (acquired) {
    if (out_device) {
      err = gst_cuda_img_downloader_await (priv->downloader,
          hold_input ? inbuf : NULL, stream);
      doing = "recording the frame's event";
    } else {
      if (!gst_cuda_img_downloader_download (priv->downloader, outbuf,
              hold_input ? inbuf : NULL, stream, &err))
        goto map_failed;
      doing = "downloading a frame";
    }
    if (err != cudaSuccess)
      goto cuda_error;
    /* generate_output hands it to the downloader's thread */
    acquired = FALSE;
    priv->pending = TRUE;
    priv->push_direct = out_device && push_direct;
  }
  gst_cuda_img_host_submit_end ();
  gated = FALSE;
  if (need_sync) {
    err = cudaStreamSynchronize (stream);
    doing = "waiting for the GPU";
    if (err != cudaSuccess)
      goto cuda_error;
  }
  gst_cuda_img_readback_after (&priv->messages, outbuf);

done:
  if (gated)
    gst_cuda_img_host_submit_end ();
  if (acquired)
    gst_cuda_img_downloader_abort (priv->downloader);
  if (in_mapped)
    gst_cuda_img_unmap_device (inbuf, &in_map);
  if (out_mapped)
    gst_cuda_img_unmap_device (outbuf, &out_map);
  gst_cuda_context_pop (NULL);
  return ret;

map_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Could not map a buffer."),
      ("%s buffer could not be mapped", unmappable));
  ret = GST_FLOW_ERROR;
  goto done;

cuda_error:
  if (err != GST_CUDA_IMG_ERROR_POSTED)
    gst_cuda_img_filter_post_cuda_error (self, err, doing);
  ret = GST_FLOW_ERROR;
  goto done;
}

/* A system-memory frame leaves through the downloader's thread once it is
 * on the host, not from here. */
static GstFlowReturn
gst_cuda_img_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaImgFilterPrivate *priv = PRIV (GST_CUDA_IMG_FILTER (trans));
  GstFlowReturn ret;

  priv->pending = FALSE;
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans,
      outbuf);
  if (!priv->pending)
    return ret;
  priv->pending = FALSE;
  if (ret == GST_FLOW_OK && *outbuf && priv->push_direct) {
    /* the thread only releases the input; the frame goes on from here */
    ret = gst_cuda_img_downloader_commit (priv->downloader, NULL);
    if (ret != GST_FLOW_OK)
      gst_clear_buffer (outbuf);
  } else if (ret == GST_FLOW_OK && *outbuf) {
    ret = gst_cuda_img_downloader_commit (priv->downloader, *outbuf);
    *outbuf = NULL;
  } else {
    gst_cuda_img_downloader_abort (priv->downloader);
  }
  return ret;
}

GstFlowReturn
gst_cuda_img_filter_emit (GstCudaImgFilter * self, GstBuffer * timing)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBuffer *out = NULL;
  GstFlowReturn ret;

  g_return_val_if_fail (gst_buffer_n_memory (timing) == 0, GST_FLOW_ERROR);
  /* what GstBaseTransform's chain does with a buffer, through this class's
   * own steps (not a subclass's overrides, which call this) */
  ret = gst_cuda_img_filter_submit_input_buffer (trans, FALSE, timing);
  if (ret != GST_FLOW_OK)
    return ret;
  ret = gst_cuda_img_filter_generate_output (trans, &out);
  if (ret == GST_FLOW_OK && out)
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (trans), out);
  else if (out)
    gst_buffer_unref (out);
  return ret;
}

/* ------------------------------------------------------------------------ */

/* Any property set may change what the launches are: graphs captured
 * before no longer serve (gstcudaimgreplay.c).  After the values are
 * stored, so a generation read before a capture never outlives them.
 * Where no streaming thread runs (NULL, READY), the frame's settings
 * follow at once: caps queried before start (a link) see them. */
static void
gst_cuda_img_filter_dispatch_properties_changed (GObject * object,
    guint n_pspecs, GParamSpec ** pspecs)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (object);

  g_atomic_int_inc (&PRIV (self)->settings_gen);
  take_snapshot (self, TRUE);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

/* The frame's settings start as the properties' defaults (every
 * instance_init has run). */
static void
gst_cuda_img_filter_constructed (GObject * object)
{
  G_OBJECT_CLASS (parent_class)->constructed (object);
  take_snapshot (GST_CUDA_IMG_FILTER (object), FALSE);
}

static void
gst_cuda_img_filter_finalize (GObject * object)
{
  clear_output_peer (GST_CUDA_IMG_FILTER (object));
  g_mutex_clear (&PRIV (GST_CUDA_IMG_FILTER (object))->down_lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Properties marked GST_PARAM_CONTROLLABLE take the value their control
 * binding gives at this frame's stream time (a GstController animating
 * cudaotsu's threshold, say), before the frame's settings are taken.
 * Where the output's format or size follows them (output_format,
 * output_size) and they no longer give the negotiated output, the source
 * pad renegotiates for this very frame (GstBaseTransform does before it
 * makes the frame's output), from the same settings. */
static void
gst_cuda_img_filter_before_transform (GstBaseTransform * trans, GstBuffer * buf)
{
  GstCudaImgFilter *self = GST_CUDA_IMG_FILTER (trans);
  GstCudaImgFilterPrivate *priv = PRIV (self);
  GstCudaImgFilterClass *klass = GST_CUDA_IMG_FILTER_GET_CLASS (self);
  const GstClockTime ts = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_TIMESTAMP (buf));

  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (trans), ts);
  take_snapshot (self, FALSE);
  if (priv->configured && (klass->output_format || klass->output_size)) {
    const GstVideoInfo *in = &priv->in_info, *out = &priv->out_info;
    GstVideoFormat format = klass->output_format ?
        klass->output_format (self, GST_VIDEO_INFO_FORMAT (in)) :
        GST_VIDEO_INFO_FORMAT (out);
    gint w = GST_VIDEO_INFO_WIDTH (in), h = GST_VIDEO_INFO_HEIGHT (in);
    gint sw, sh;

    if (klass->output_size && klass->output_size (self, &sw, &sh)) {
      w = sw;
      h = sh;
    }
    if (format != GST_VIDEO_INFO_FORMAT (out) ||
        w != GST_VIDEO_INFO_WIDTH (out) || h != GST_VIDEO_INFO_HEIGHT (out))
      gst_base_transform_reconfigure_src (trans);
  }
}

static void
gst_cuda_img_filter_class_init (GstCudaImgFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  result_quark = g_quark_from_static_string ("GstCudaImgFilterResult");
  gobject_class->set_property = gst_cuda_img_filter_set_property;
  gobject_class->get_property = gst_cuda_img_filter_get_property;
  gobject_class->finalize = gst_cuda_img_filter_finalize;
  gobject_class->constructed = gst_cuda_img_filter_constructed;
  gobject_class->dispatch_properties_changed =
      gst_cuda_img_filter_dispatch_properties_changed;

  /**
   * GstCudaImgFilter:cuda-device-id:
   *
   * CUDA device to run on, -1 for any (then a context already in the
   * pipeline, or device 0).  Read when the element starts.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      gst_cuda_img_device_id_pspec ());

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_img_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_img_filter_stop);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_img_filter_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_transform_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_img_filter_set_caps);
  trans_class->get_unit_size =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_get_unit_size);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_img_filter_transform);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_generate_output);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_img_filter_submit_input_buffer);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_img_filter_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_IMG_FILTER, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_img_filter_debug, "cudaimgfilter", 0,
      "cudaimgproc base class");
}

static void
gst_cuda_img_filter_init (GstCudaImgFilter * self)
{
  PRIV (self)->device_id = GST_CUDA_IMG_DEFAULT_DEVICE_ID;
  g_mutex_init (&PRIV (self)->down_lock);
  /* basetransform would answer a caps query on our sink pad with the
   * downstream peer's own caps first ("prefer passthrough").  Behind a
   * system-memory capsfilter, encoder or sink, every element of a chain of
   * ours would then put system memory first and each link between two of
   * ours would download and upload again.  Our transform_caps already
   * keeps the peer's order within each memory kind and puts CUDA memory
   * first; a system-only neighbour still gets system memory. */
  gst_base_transform_set_prefer_passthrough (GST_BASE_TRANSFORM (self), FALSE);
}
