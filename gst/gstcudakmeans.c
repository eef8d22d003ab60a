/* cudaimgproc: cudakmeans
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudakmeans
 * @title: cudakmeans
 *
 * Per-frame k-means colour segmentation on an NVIDIA GPU.  Each frame's
 * pixels are clustered by colour (R, G, B, and with
 * #GstCudaKmeans:spatial-weight above 0 also x and y scaled to the colour
 * range) with Lloyd's algorithm; the output is the frame with every pixel
 * replaced by its cluster's mean colour (`output=color`, same format, other
 * bytes such as alpha copied), or GRAY8 cluster labels (`output=labels`,
 * label i written as i, or spread over 0..255 with
 * #GstCudaKmeans:spread-labels).  Set while playing, #GstCudaKmeans:output
 * renegotiates the output caps from the next frame on, so downstream must
 * take both formats then (a videoconvert, or caps of both).
 *
 * I420 and NV12 are clustered on the R'G'B' their caps' colorimetry
 * (matrix and range) gives, each pixel with its own chroma sample, so the
 * clusters are those of the same frame in RGB.  Their colour output keeps
 * the format: Y is the cluster's luma, and each chroma sample the rounded
 * mean of the cluster chroma of the 2x2 pixels it covers.
 *
 * Centres start from k-means++ on a fixed 64x64 subsample of the frame (its
 * draws from #GstCudaKmeans:seed), or from evenly spaced samples
 * (`init=uniform`); with #GstCudaKmeans:warm-start (default) each frame
 * starts from the previous frame's centres instead, so live video converges
 * in an iteration or two and colours do not flicker.  Iterations stop after
 * #GstCudaKmeans:max-iterations or when no centre moved more than
 * #GstCudaKmeans:epsilon.  A cluster left empty moves to the pixel
 * farthest from its centre.
 *
 * The result is deterministic: sums are exact integers, so the same frames
 * and properties give the same bits on every run and GPU.  All iterations
 * of a frame run in one kernel launch, with no host round trip.
 *
 * One start can land in a poor local minimum: with #GstCudaKmeans:attempts
 * above 1, each frame whose centres start afresh runs that many starts
 * (k-means++ or uniform, then Lloyd's iterations), the first from
 * #GstCudaKmeans:seed and the others from seeds derived from it, one after
 * another on the GPU, and keeps the one of the lowest inertia (the sum of
 * the pixels' squared distances to their centres), the earliest of equals,
 * as cv2.kmeans does with its attempts.  With warm start that is the first
 * frame and the frames after a restart (a caps change, a seek, a new k).
 *
 * With #GstCudaKmeans:post-messages, each frame posts an element message
 * `cudakmeans` with `iterations` (guint: of the kept start), `k` (guint),
 * `inertia` (gdouble, the kept result's, in squared feature units),
 * `centres`
 * (GstValueArray of k GstValueArray of 3, or 5 with spatial-weight, gdouble:
 * R, G, B[, x, y] in pixels), `counts` (GstValueArray of k guint: pixels of
 * each cluster) and `timestamp`, read back without stalling the stream.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=smpte ! cudakmeans k=6 ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 filesrc location=photo.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA ! cudakmeans k=8 output=labels spread-labels=true ! pngenc ! filesink location=labels.png
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudakmeans.h"
#include "gstcudaimgreadback.h"
#include "kmeans.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_kmeans_debug);
#define GST_CAT_DEFAULT gst_cuda_kmeans_debug

typedef enum
{
  GST_CUDA_KMEANS_INIT_PLUSPLUS,
  GST_CUDA_KMEANS_INIT_UNIFORM,
} GstCudaKmeansInit;

typedef enum
{
  GST_CUDA_KMEANS_OUTPUT_COLOR,
  GST_CUDA_KMEANS_OUTPUT_LABELS,
} GstCudaKmeansOutput;

#define GST_TYPE_CUDA_KMEANS_INIT (gst_cuda_kmeans_init_get_type ())
static GType
gst_cuda_kmeans_init_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_KMEANS_INIT_PLUSPLUS, "k-means++ on a 64x64 subsample",
        "kmeans++"},
    {GST_CUDA_KMEANS_INIT_UNIFORM, "Evenly spaced samples of the subsample",
        "uniform"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaKmeansInit", values);
}

#define GST_TYPE_CUDA_KMEANS_OUTPUT (gst_cuda_kmeans_output_get_type ())
static GType
gst_cuda_kmeans_output_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_KMEANS_OUTPUT_COLOR, "Each pixel its cluster's mean colour "
          "(same format)", "color"},
    {GST_CUDA_KMEANS_OUTPUT_LABELS, "GRAY8 cluster labels", "labels"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaKmeansOutput", values);
}

#define DEFAULT_K 4
#define DEFAULT_MAX_ITERATIONS 10
#define DEFAULT_EPSILON 1.0
#define DEFAULT_INIT GST_CUDA_KMEANS_INIT_PLUSPLUS
#define DEFAULT_SEED 0
#define DEFAULT_WARM_START TRUE
#define DEFAULT_SPATIAL_WEIGHT 0.0
#define DEFAULT_OUTPUT GST_CUDA_KMEANS_OUTPUT_COLOR
#define DEFAULT_SPREAD_LABELS FALSE
#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_ATTEMPTS 1

enum
{
  PROP_0,
  PROP_K,
  PROP_MAX_ITERATIONS,
  PROP_EPSILON,
  PROP_INIT,
  PROP_SEED,
  PROP_WARM_START,
  PROP_SPATIAL_WEIGHT,
  PROP_OUTPUT,
  PROP_SPREAD_LABELS,
  PROP_POST_MESSAGES,
  PROP_ATTEMPTS,
};

struct _GstCudaKmeans
{
  GstCudaImgFilter parent;

  /* properties, under the object lock */
  guint k;
  guint max_iterations;
  gdouble epsilon;
  GstCudaKmeansInit init;
  guint seed;
  gboolean warm_start;
  gdouble spatial_weight;
  GstCudaKmeansOutput output;
  gboolean spread_labels;
  gboolean post_messages;
  guint attempts;
  guint reinit;                 /* bumped when centres must start afresh */

  /* streaming thread: the settings of the frame at hand, taken as it
   * arrives, before its caps are negotiated; the reinit it has seen */
  CipKmeansParams frame;
  GstCudaKmeansOutput frame_output;
  gboolean frame_post;
  guint frame_reinit, done_reinit;

  /* per caps */
  CipKmeans *km;
  CipKmeansFormat format;
};

#define gst_cuda_kmeans_parent_class parent_class
G_DEFINE_TYPE (GstCudaKmeans, gst_cuda_kmeans, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudakmeans, "cudakmeans", GST_RANK_NONE,
    GST_TYPE_CUDA_KMEANS);

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_RGB,
  GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12,
};

static void
gst_cuda_kmeans_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_K:
      self->k = g_value_get_uint (value);
      self->reinit++;
      break;
    case PROP_MAX_ITERATIONS:
      self->max_iterations = g_value_get_uint (value);
      break;
    case PROP_EPSILON:
      self->epsilon = g_value_get_double (value);
      break;
    case PROP_INIT:
      self->init = g_value_get_enum (value);
      self->reinit++;
      break;
    case PROP_SEED:
      self->seed = g_value_get_uint (value);
      self->reinit++;
      break;
    case PROP_WARM_START:
      self->warm_start = g_value_get_boolean (value);
      break;
    case PROP_SPATIAL_WEIGHT:
      self->spatial_weight = g_value_get_double (value);
      self->reinit++;
      break;
    case PROP_OUTPUT:
      /* streaming, the next frame renegotiates (the base class) */
      self->output = g_value_get_enum (value);
      break;
    case PROP_SPREAD_LABELS:
      self->spread_labels = g_value_get_boolean (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_ATTEMPTS:
      self->attempts = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_kmeans_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_K:
      g_value_set_uint (value, self->k);
      break;
    case PROP_MAX_ITERATIONS:
      g_value_set_uint (value, self->max_iterations);
      break;
    case PROP_EPSILON:
      g_value_set_double (value, self->epsilon);
      break;
    case PROP_INIT:
      g_value_set_enum (value, self->init);
      break;
    case PROP_SEED:
      g_value_set_uint (value, self->seed);
      break;
    case PROP_WARM_START:
      g_value_set_boolean (value, self->warm_start);
      break;
    case PROP_SPATIAL_WEIGHT:
      g_value_set_double (value, self->spatial_weight);
      break;
    case PROP_OUTPUT:
      g_value_set_enum (value, self->output);
      break;
    case PROP_SPREAD_LABELS:
      g_value_set_boolean (value, self->spread_labels);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_ATTEMPTS:
      g_value_set_uint (value, self->attempts);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static GstVideoFormat
gst_cuda_kmeans_output_format (GstCudaImgFilter * filter, GstVideoFormat in)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (filter);
  GstCudaKmeansOutput output;

  GST_OBJECT_LOCK (self);
  output = self->frame_output;
  GST_OBJECT_UNLOCK (self);
  return output == GST_CUDA_KMEANS_OUTPUT_LABELS ? GST_VIDEO_FORMAT_GRAY8 : in;
}

/* All of a frame's settings in one snapshot (the object lock held; the
 * base class takes it before the frame's caps are negotiated: a new
 * output, colour or labels, renegotiates for this very frame), so that the
 * frame never mixes one setting with the rest of another. */
static void
gst_cuda_kmeans_snapshot (GstCudaImgFilter * filter)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (filter);
  CipKmeansParams *p = &self->frame;

  p->k = (int) self->k;
  p->max_iterations = (int) self->max_iterations;
  p->epsilon = (float) self->epsilon;
  p->spatial_weight = (float) self->spatial_weight;
  p->init = self->init == GST_CUDA_KMEANS_INIT_UNIFORM;
  p->seed = self->seed;
  p->attempts = (int) self->attempts;
  self->frame_reinit = self->reinit;
  p->reinit = self->reinit != self->done_reinit || !self->warm_start;
  p->output = self->spread_labels ? 2 : 1;
  self->frame_output = self->output;
  self->frame_post = self->post_messages;
}

static GstStructure *
build_message (GstElement * element, gconstpointer data, GstClockTime pts,
    guint spatial)
{
  const CipKmeansResult *r = data;
  GValue centres = G_VALUE_INIT, counts = G_VALUE_INIT;
  GstStructure *s;
  guint j, i;

  g_value_init (&centres, GST_TYPE_ARRAY);
  g_value_init (&counts, GST_TYPE_ARRAY);
  for (j = 0; j < r->k; j++) {
    GValue c = G_VALUE_INIT, v = G_VALUE_INIT;

    g_value_init (&c, GST_TYPE_ARRAY);
    for (i = 0; i < (spatial ? 5u : 3u); i++) {
      g_value_init (&v, G_TYPE_DOUBLE);
      g_value_set_double (&v, r->centres[j][i]);
      gst_value_array_append_and_take_value (&c, &v);
    }
    gst_value_array_append_and_take_value (&centres, &c);
    g_value_init (&v, G_TYPE_UINT);
    g_value_set_uint (&v, r->counts[j]);
    gst_value_array_append_and_take_value (&counts, &v);
  }
  s = gst_structure_new ("cudakmeans", "iterations", G_TYPE_UINT,
      r->iterations, "k", G_TYPE_UINT, r->k, "inertia", G_TYPE_DOUBLE,
      (gdouble) r->inertia / CIP_KMEANS_INERTIA_SCALE, "timestamp",
      G_TYPE_UINT64, pts, NULL);
  gst_structure_take_value (s, "centres", &centres);
  gst_structure_take_value (s, "counts", &counts);
  return s;
}

static void
gst_cuda_kmeans_release (GstCudaImgFilter * filter)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (filter);

  g_clear_pointer (&self->km, cip_kmeans_destroy);
}

static gboolean
gst_cuda_kmeans_set_info (GstCudaImgFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (filter);
  const GstVideoFormatInfo *finfo = in->finfo;
  CipKmeansFormat *f = &self->format;
  cudaError_t err;

  memset (f, 0, sizeof (*f));
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo)) {
    gdouble kr, kb;

    /* clustered on R'G'B', as the same frame in RGB would be */
    f->layout = GST_VIDEO_INFO_FORMAT (in) == GST_VIDEO_FORMAT_NV12 ?
        CIP_KMEANS_NV12 : CIP_KMEANS_I420;
    if (!gst_video_color_matrix_get_Kr_Kb (in->colorimetry.matrix, &kr, &kb)) {
      GST_WARNING_OBJECT (self, "no YUV matrix in the caps; using BT.601");
      gst_video_color_matrix_get_Kr_Kb (GST_VIDEO_COLOR_MATRIX_BT601, &kr, &kb);
    }
    cip_yuv_matrix_init (&f->yuv, kr, kb,
        in->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255);
  } else {
    f->layout = CIP_KMEANS_PACKED;
    f->bpp = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
    f->r_off = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_R);
    f->g_off = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_G);
    f->b_off = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_B);
  }
  err = cip_kmeans_create (&self->km, GST_VIDEO_INFO_WIDTH (in),
      GST_VIDEO_INFO_HEIGHT (in));
  if (err != cudaSuccess) {
    gst_cuda_img_filter_post_cuda_error (filter, err,
        "allocating the k-means state");
    return FALSE;
  }
  return TRUE;
}

static cudaError_t
gst_cuda_kmeans_process (GstCudaImgFilter * filter,
    const GstCudaImgFrame * in, const GstCudaImgFrame * out,
    cudaStream_t stream)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (filter);
  GstCudaImgReadback *messages = gst_cuda_img_filter_messages (filter);
  CipKmeansParams p = self->frame;
  const gboolean post = self->frame_post;
  CipKmeansPlanes src, dst;
  cudaError_t err;
  gint i;

  /* the snapshot's output is the caps' (before_transform); labels carry
   * the spread setting */
  if (GST_VIDEO_INFO_FORMAT (out->info) != GST_VIDEO_FORMAT_GRAY8)
    p.output = 0;
  /* a frame dropped after its snapshot (QoS) leaves the restart pending */
  self->done_reinit = self->frame_reinit;

  for (i = 0; i < 3; i++) {
    src.data[i] = in->data[i];
    src.pitch[i] = in->stride[i];
    dst.data[i] = out->data[i];
    dst.pitch[i] = out->stride[i];
  }
  /* the result only for a message: its inertia costs time */
  err = cip_kmeans (self->km, &self->format, &src, &dst, &p,
      post ? messages->device : NULL, stream);
  if (err == cudaSuccess && post)
    err = gst_cuda_img_readback_enqueue (messages, p.spatial_weight > 0.0f,
        stream);
  return err;
}

static gboolean
gst_cuda_kmeans_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaKmeans *self = GST_CUDA_KMEANS (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    /* a seek: the next frame need not look like the last one */
    GST_OBJECT_LOCK (self);
    self->reinit++;
    GST_OBJECT_UNLOCK (self);
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static void
gst_cuda_kmeans_class_init (GstCudaKmeansClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  GstVideoFormat src_formats[G_N_ELEMENTS (formats) + 1];
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_kmeans_set_property;
  gobject_class->get_property = gst_cuda_kmeans_get_property;

  g_object_class_install_property (gobject_class, PROP_K,
      g_param_spec_uint ("k", "k", "Number of clusters", 2,
          CIP_KMEANS_MAX_K, DEFAULT_K, rw_playing));
  g_object_class_install_property (gobject_class, PROP_MAX_ITERATIONS,
      g_param_spec_uint ("max-iterations", "Maximum iterations",
          "Lloyd iterations at most per frame (0: only assign pixels to the "
          "current centres)", 0, 1000, DEFAULT_MAX_ITERATIONS, rw_playing));
  g_object_class_install_property (gobject_class, PROP_EPSILON,
      g_param_spec_double ("epsilon", "Epsilon",
          "Stop when no centre moved more than this (colour units)", 0.0,
          255.0, DEFAULT_EPSILON, rw_playing));
  g_object_class_install_property (gobject_class, PROP_INIT,
      g_param_spec_enum ("init", "Initialisation",
          "Where the centres start (first frame, or every frame without "
          "warm-start)", GST_TYPE_CUDA_KMEANS_INIT, DEFAULT_INIT, rw_playing));
  g_object_class_install_property (gobject_class, PROP_SEED,
      g_param_spec_uint ("seed", "Seed", "Seed of k-means++'s draws", 0,
          G_MAXUINT, DEFAULT_SEED, rw_playing));
  g_object_class_install_property (gobject_class, PROP_WARM_START,
      g_param_spec_boolean ("warm-start", "Warm start",
          "Start each frame from the previous frame's centres",
          DEFAULT_WARM_START, rw_playing));
  g_object_class_install_property (gobject_class, PROP_SPATIAL_WEIGHT,
      g_param_spec_double ("spatial-weight", "Spatial weight",
          "Weight of the pixel's position (x, y scaled to 0..255 across the "
          "frame) beside its colour; 0 = colour only", 0.0, 10.0,
          DEFAULT_SPATIAL_WEIGHT, rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "Mean colours in the input's format, or GRAY8 labels",
          GST_TYPE_CUDA_KMEANS_OUTPUT, DEFAULT_OUTPUT, rw_playing));
  g_object_class_install_property (gobject_class, PROP_SPREAD_LABELS,
      g_param_spec_boolean ("spread-labels", "Spread labels",
          "output=labels: write label i as i * 255 / (k - 1), not i",
          DEFAULT_SPREAD_LABELS, rw_playing));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a 'cudakmeans' element message per frame with the centres "
          "and iterations", DEFAULT_POST_MESSAGES, rw_playing));
  g_object_class_install_property (gobject_class, PROP_ATTEMPTS,
      g_param_spec_uint ("attempts", "Attempts",
          "Starts from different seeds where the centres start afresh (the "
          "first frame, or every frame without warm-start); the one with "
          "the lowest inertia is kept, as cv2.kmeans' attempts", 1,
          CIP_KMEANS_MAX_ATTEMPTS, DEFAULT_ATTEMPTS, rw_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA k-means segmentation", "Filter/Effect/Video/Hardware",
      "Per-frame k-means colour segmentation on an NVIDIA GPU",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  memcpy (src_formats, formats, sizeof (formats));
  src_formats[G_N_ELEMENTS (formats)] = GST_VIDEO_FORMAT_GRAY8;
  gst_cuda_img_filter_class_set_formats (filter_class, formats,
      G_N_ELEMENTS (formats), src_formats, G_N_ELEMENTS (src_formats));
  trans_class->sink_event = gst_cuda_kmeans_sink_event;
  gst_cuda_img_filter_class_set_messages (filter_class,
      sizeof (CipKmeansResult), build_message);
  filter_class->output_format = gst_cuda_kmeans_output_format;
  filter_class->snapshot = gst_cuda_kmeans_snapshot;
  filter_class->set_info = gst_cuda_kmeans_set_info;
  filter_class->release = gst_cuda_kmeans_release;
  filter_class->process = gst_cuda_kmeans_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_KMEANS_INIT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_KMEANS_OUTPUT, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_kmeans_debug, "cudakmeans", 0,
      "CUDA k-means segmentation");
}

static void
gst_cuda_kmeans_init (GstCudaKmeans * self)
{
  self->k = DEFAULT_K;
  self->max_iterations = DEFAULT_MAX_ITERATIONS;
  self->epsilon = DEFAULT_EPSILON;
  self->init = DEFAULT_INIT;
  self->seed = DEFAULT_SEED;
  self->warm_start = DEFAULT_WARM_START;
  self->spatial_weight = DEFAULT_SPATIAL_WEIGHT;
  self->output = self->frame_output = DEFAULT_OUTPUT;
  self->spread_labels = DEFAULT_SPREAD_LABELS;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->attempts = DEFAULT_ATTEMPTS;
  self->reinit = 1;             /* done_reinit 0: the first frame starts afresh */
}
