/* cudaimgproc: cudablobs
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudablobs
 * @title: cudablobs
 *
 * Finds the objects of a binary mask (GRAY8, non-zero is foreground) as
 * connected components, on the GPU, with their area, bounding box and
 * centroid, and attaches them to the frame as metadata.
 *
 * Components are #GstCudaBlobs:connectivity 8- or 4-connected and numbered
 * as OpenCV's `cv2.connectedComponentsWithStats (mask, connectivity,
 * cv2.CV_32S)` numbers them (default algorithm), with the same statistics:
 * at 4-connectivity in the raster order of each component's first pixel,
 * at 8-connectivity in the order of OpenCV's 2x2-block scan (rows two at a
 * time, blocks left to right, in a block top-left, top-right, bottom-left,
 * bottom-right).  The centroid is the mean of the component's x and y, in
 * double precision, as OpenCV gives it.
 *
 * Of those, the frame's blobs are the components of at least
 * #GstCudaBlobs:min-area pixels, and of them the #GstCudaBlobs:max-blobs
 * largest (ties: the first in that order); they are numbered again 1, 2, …
 * in the same order.  Only the first 65 535 components of a frame are
 * considered (a frame of more is noise, not objects); the first 1024 blobs
 * are described in metadata and messages.
 *
 * Each frame leaves with one #GstVideoRegionOfInterestMeta per blob
 * (type "blob", id its number, a "cudablobs" parameter structure with
 * `area`, `centroid-x` and `centroid-y`) and, where the plugin was built
 * against GStreamer 1.24 or later, a #GstAnalyticsRelationMeta with one
 * object detection (#GstAnalyticsODMtd, type "blob", confidence 1.0) per
 * blob, which `objectdetectionoverlay` draws.  The GPU's results reach the
 * host asynchronously: a thread of the element waits for them and pushes
 * the frame, never the streaming thread.
 *
 * #GstCudaBlobs:output=mask passes the mask through; output=labels gives a
 * GRAY16_LE map of the blobs: each pixel its blob's number, 0 for the
 * background and for components not kept, and 65535 for a component past
 * the 65 535th.
 *
 * With #GstCudaBlobs:post-messages, an element message `cudablobs` per
 * frame, posted before the frame is pushed: `timestamp` (guint64),
 * `components` (all of the frame's, guint), `count` (blobs, guint) and
 * `blobs`, a #GstValueArray of `blob` structures with `id`, `area`, `x`,
 * `y`, `width`, `height` (guint) and `centroid-x`, `centroid-y` (gdouble).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! cudagray ! cudaotsu ! cudablobs post-messages=true ! fakesink
 * ]|
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudagray ! cudaotsu ! cudablobs min-area=50 max-blobs=16 output=labels ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudablobs.h"
#include "cip_alloc.h"
#include "blobs.h"

#if HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_blobs_debug);
#define GST_CAT_DEFAULT gst_cuda_blobs_debug

typedef enum
{
  GST_CUDA_BLOBS_OUTPUT_MASK,
  GST_CUDA_BLOBS_OUTPUT_LABELS,
} GstCudaBlobsOutput;

#define GST_TYPE_CUDA_BLOBS_OUTPUT (gst_cuda_blobs_output_get_type ())
static GType
gst_cuda_blobs_output_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_BLOBS_OUTPUT_MASK, "The input mask, unchanged", "mask"},
    {GST_CUDA_BLOBS_OUTPUT_LABELS, "GRAY16_LE map of the blobs' numbers",
        "labels"},
    {0, NULL, NULL},
  };

  return gst_cuda_img_register_enum (&type, "GstCudaBlobsOutput", values);
}

typedef enum
{
  GST_CUDA_BLOBS_CONNECTIVITY_8 = 8,
  GST_CUDA_BLOBS_CONNECTIVITY_4 = 4,
} GstCudaBlobsConnectivity;

#define GST_TYPE_CUDA_BLOBS_CONNECTIVITY \
  (gst_cuda_blobs_connectivity_get_type ())
static GType
gst_cuda_blobs_connectivity_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_BLOBS_CONNECTIVITY_8, "8-connected (diagonals join)", "8"},
    {GST_CUDA_BLOBS_CONNECTIVITY_4, "4-connected", "4"},
    {0, NULL, NULL},
  };

  return gst_cuda_img_register_enum (&type, "GstCudaBlobsConnectivity", values);
}

#define DEFAULT_OUTPUT GST_CUDA_BLOBS_OUTPUT_MASK
#define DEFAULT_CONNECTIVITY GST_CUDA_BLOBS_CONNECTIVITY_8
#define DEFAULT_MIN_AREA 0
#define DEFAULT_MAX_BLOBS 0
#define DEFAULT_POST_MESSAGES FALSE

enum
{
  PROP_0,
  PROP_OUTPUT,
  PROP_CONNECTIVITY,
  PROP_MIN_AREA,
  PROP_MAX_BLOBS,
  PROP_POST_MESSAGES,
};

struct _GstCudaBlobs
{
  GstCudaImgFilter parent;

  /* properties, under the object lock */
  GstCudaBlobsOutput output;
  GstCudaBlobsConnectivity connectivity;
  guint min_area;
  guint max_blobs;
  gboolean post_messages;

  /* the frame's settings (snapshot): the streaming thread writes them */
  GstCudaBlobsOutput frame_output;
  gint frame_connectivity;
  guint frame_min_area, frame_max_blobs;

  /* per caps: one allocation */
  guint8 *state;
  int32_t *labels;
  gint labels_pitch;
  uint32_t *count;
  CipBlobStats *stats;
  uint16_t *newid;
  void *scratch;
  gsize scratch_size;
  void *select_scratch;
  gsize select_scratch_size;
};

#define gst_cuda_blobs_parent_class parent_class
G_DEFINE_TYPE (GstCudaBlobs, gst_cuda_blobs, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudablobs, "cudablobs", GST_RANK_NONE,
    GST_TYPE_CUDA_BLOBS);

static void
gst_cuda_blobs_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_OUTPUT:
      self->output = g_value_get_enum (value);
      break;
    case PROP_CONNECTIVITY:
      self->connectivity = g_value_get_enum (value);
      break;
    case PROP_MIN_AREA:
      self->min_area = g_value_get_uint (value);
      break;
    case PROP_MAX_BLOBS:
      self->max_blobs = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_blobs_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_OUTPUT:
      g_value_set_enum (value, self->output);
      break;
    case PROP_CONNECTIVITY:
      g_value_set_enum (value, self->connectivity);
      break;
    case PROP_MIN_AREA:
      g_value_set_uint (value, self->min_area);
      break;
    case PROP_MAX_BLOBS:
      g_value_set_uint (value, self->max_blobs);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The object lock held: the frame's caps and kernels follow one state. */
static void
gst_cuda_blobs_snapshot (GstCudaImgFilter * filter)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (filter);

  self->frame_output = self->output;
  self->frame_connectivity = (gint) self->connectivity;
  self->frame_min_area = self->min_area;
  self->frame_max_blobs = self->max_blobs;
}

static GstVideoFormat
gst_cuda_blobs_output_format (GstCudaImgFilter * filter, GstVideoFormat in)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (filter);
  GstCudaBlobsOutput output;

  GST_OBJECT_LOCK (self);
  output = self->frame_output;
  GST_OBJECT_UNLOCK (self);
  return output == GST_CUDA_BLOBS_OUTPUT_LABELS ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_GRAY8;
}

/* ------------------------------------------------------------------------ */
/* results */

static GstStructure *
blob_structure (guint id, const CipBlobStats * b)
{
  return gst_structure_new ("blob", "id", G_TYPE_UINT, id, "area",
      G_TYPE_UINT, b->area, "x", G_TYPE_UINT, (guint) b->left, "y",
      G_TYPE_UINT, (guint) b->top, "width", G_TYPE_UINT,
      (guint) (b->right - b->left + 1), "height", G_TYPE_UINT,
      (guint) (b->bottom - b->top + 1), "centroid-x", G_TYPE_DOUBLE,
      (gdouble) b->sum_x / b->area, "centroid-y", G_TYPE_DOUBLE,
      (gdouble) b->sum_y / b->area, NULL);
}

static void
post_message (GstCudaBlobs * self, GstBuffer * buf, const CipBlobsRecord * r)
{
  GValue arr = G_VALUE_INIT, v = G_VALUE_INIT;
  GstStructure *s;
  guint i;

  g_value_init (&arr, GST_TYPE_ARRAY);
  for (i = 0; i < r->described; i++) {
    g_value_init (&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&v, blob_structure (i + 1, &r->blob[i]));
    gst_value_array_append_and_take_value (&arr, &v);
  }
  s = gst_structure_new ("cudablobs", "timestamp", G_TYPE_UINT64,
      GST_BUFFER_PTS (buf), "components", G_TYPE_UINT, r->total, "count",
      G_TYPE_UINT, r->kept, NULL);
  gst_structure_take_value (s, "blobs", &arr);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* In the element's pushing thread, the frame done: its blobs as metadata
 * (and its message). */
static void
gst_cuda_blobs_finish (GstCudaImgFilter * filter, GstBuffer * buf,
    gconstpointer result)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (filter);
  const CipBlobsRecord *r = result;
  const GQuark blob = g_quark_from_static_string ("blob");
  gboolean post;
  guint i;
#if HAVE_GST_ANALYTICS
  GstAnalyticsRelationMeta *rmeta = NULL;
#endif

  GST_OBJECT_LOCK (self);
  post = self->post_messages;
  GST_OBJECT_UNLOCK (self);
  if (post)
    post_message (self, buf, r);
  if (!gst_buffer_is_writable (buf)) {
    GST_WARNING_OBJECT (self, "output buffer not writable: no metadata");
    return;
  }
#if HAVE_GST_ANALYTICS
  if (r->described)
    rmeta = gst_buffer_add_analytics_relation_meta (buf);
#endif
  for (i = 0; i < r->described; i++) {
    const CipBlobStats *b = &r->blob[i];
    const guint w = (guint) (b->right - b->left + 1),
        h = (guint) (b->bottom - b->top + 1);
    GstVideoRegionOfInterestMeta *roi;

    roi = gst_buffer_add_video_region_of_interest_meta_id (buf, blob,
        (guint) b->left, (guint) b->top, w, h);
    roi->id = (gint) i + 1;
    gst_video_region_of_interest_meta_add_param (roi,
        gst_structure_new ("cudablobs", "area", G_TYPE_UINT, b->area,
            "centroid-x", G_TYPE_DOUBLE, (gdouble) b->sum_x / b->area,
            "centroid-y", G_TYPE_DOUBLE, (gdouble) b->sum_y / b->area, NULL));
#if HAVE_GST_ANALYTICS
    if (rmeta) {
      GstAnalyticsODMtd od;

      gst_analytics_relation_meta_add_od_mtd (rmeta, blob, b->left, b->top,
          (gint) w, (gint) h, 1.0f, &od);
    }
#endif
  }
}

/* ------------------------------------------------------------------------ */

static void
gst_cuda_blobs_release (GstCudaImgFilter * filter)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (filter);

  g_clear_pointer (&self->state, cip_free);
}

static gsize
place (gsize * off, gsize bytes)
{
  const gsize at = *off;

  *off = GST_ROUND_UP_N (at + bytes, 256);
  return at;
}

static gboolean
gst_cuda_blobs_set_info (GstCudaImgFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (filter);
  const gint w = GST_VIDEO_INFO_WIDTH (in), h = GST_VIDEO_INFO_HEIGHT (in);
  gsize off = 0, labels, count, stats, newid, scratch, select;
  cudaError_t err;

  self->scratch_size = cip_blobs_scratch_size (w, h);
  self->select_scratch_size = cip_blobs_select_scratch_size ();
  if (!self->scratch_size || !self->select_scratch_size) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%dx%d frames are too large "
            "to label (at most 2^30 pixels).", w, h), (NULL));
    return FALSE;
  }
  self->labels_pitch = w * 4;
  labels = place (&off, (gsize) self->labels_pitch * h);
  count = place (&off, sizeof (uint32_t));
  stats = place (&off, sizeof (CipBlobStats) * (CIP_BLOBS_LABEL_MAX + 1));
  newid = place (&off, sizeof (uint16_t) * (CIP_BLOBS_LABEL_MAX + 1));
  scratch = place (&off, self->scratch_size);
  select = place (&off, self->select_scratch_size);
  err = cip_malloc ((void **) &self->state, off, "cudablobs state");
  if (err != cudaSuccess) {
    self->state = NULL;
    gst_cuda_img_filter_post_cuda_error (filter, err, "allocating the "
        "labels and statistics");
    return FALSE;
  }
  self->labels = (int32_t *) (self->state + labels);
  self->count = (uint32_t *) (self->state + count);
  self->stats = (CipBlobStats *) (self->state + stats);
  self->newid = (uint16_t *) (self->state + newid);
  self->scratch = self->state + scratch;
  self->select_scratch = self->state + select;
  return TRUE;
}

static cudaError_t
gst_cuda_blobs_process (GstCudaImgFilter * filter, const GstCudaImgFrame * in,
    const GstCudaImgFrame * out, cudaStream_t stream)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (filter);
  const gint w = GST_VIDEO_INFO_WIDTH (in->info),
      h = GST_VIDEO_INFO_HEIGHT (in->info);
  cudaError_t err;

  err = cip_blobs_label (in->data[0], in->stride[0], w, h,
      self->frame_connectivity, self->labels, self->labels_pitch, self->count,
      self->stats, CIP_BLOBS_LABEL_MAX, self->scratch, self->scratch_size,
      stream);
  if (err == cudaSuccess)
    err = cip_blobs_select (self->stats, self->count, self->frame_min_area,
        self->frame_max_blobs, self->newid, gst_cuda_img_filter_result (filter),
        self->select_scratch, self->select_scratch_size, stream);
  if (err != cudaSuccess)
    return err;
  if (GST_VIDEO_INFO_FORMAT (out->info) == GST_VIDEO_FORMAT_GRAY16_LE)
    return cip_blobs_relabel (self->labels, self->labels_pitch, w, h,
        self->newid, (uint16_t *) out->data[0], out->stride[0], stream);
  return cudaMemcpy2DAsync (out->data[0], out->stride[0], in->data[0],
      in->stride[0], w, h, cudaMemcpyDeviceToDevice, stream);
}

static void
gst_cuda_blobs_class_init (GstCudaBlobsClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  static const GstVideoFormat sink_formats[] = { GST_VIDEO_FORMAT_GRAY8 };
  static const GstVideoFormat src_formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE
  };
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_blobs_set_property;
  gobject_class->get_property = gst_cuda_blobs_get_property;

  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "The mask passed through (GRAY8), or the blobs' numbers "
          "(GRAY16_LE)", GST_TYPE_CUDA_BLOBS_OUTPUT, DEFAULT_OUTPUT,
          rw_playing));
  g_object_class_install_property (gobject_class, PROP_CONNECTIVITY,
      g_param_spec_enum ("connectivity", "Connectivity",
          "Pixels that touch only by a corner join (8) or not (4)",
          GST_TYPE_CUDA_BLOBS_CONNECTIVITY, DEFAULT_CONNECTIVITY, rw_playing));
  g_object_class_install_property (gobject_class, PROP_MIN_AREA,
      g_param_spec_uint ("min-area", "Minimum area",
          "Components of fewer pixels are not blobs (0: all are)", 0,
          G_MAXINT, DEFAULT_MIN_AREA, rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_MAX_BLOBS,
      g_param_spec_uint ("max-blobs", "Maximum blobs",
          "Keep the largest N blobs, ties to the first (0: no limit)", 0,
          CIP_BLOBS_LABEL_MAX, DEFAULT_MAX_BLOBS,
          rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post each frame's blobs as a 'cudablobs' element message",
          DEFAULT_POST_MESSAGES, rw_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA blobs", "Filter/Analyzer/Video/Hardware",
      "Connected components of a binary mask on an NVIDIA GPU, numbered as "
      "OpenCV's connectedComponentsWithStats, attached as region-of-interest "
      "and object-detection metadata",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  gst_cuda_img_filter_class_set_formats (filter_class, sink_formats,
      G_N_ELEMENTS (sink_formats), src_formats, G_N_ELEMENTS (src_formats));
  gst_cuda_img_filter_class_set_results (filter_class,
      sizeof (CipBlobsRecord), gst_cuda_blobs_finish);
  filter_class->output_format = gst_cuda_blobs_output_format;
  filter_class->snapshot = gst_cuda_blobs_snapshot;
  filter_class->set_info = gst_cuda_blobs_set_info;
  filter_class->release = gst_cuda_blobs_release;
  filter_class->process = gst_cuda_blobs_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BLOBS_OUTPUT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BLOBS_CONNECTIVITY, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_blobs_debug, "cudablobs", 0,
      "CUDA connected components");
}

static void
gst_cuda_blobs_init (GstCudaBlobs * self)
{
  self->output = DEFAULT_OUTPUT;
  self->connectivity = DEFAULT_CONNECTIVITY;
  self->min_area = DEFAULT_MIN_AREA;
  self->max_blobs = DEFAULT_MAX_BLOBS;
  self->post_messages = DEFAULT_POST_MESSAGES;
}
