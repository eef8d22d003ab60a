/* cudaimgproc: cudaotsu
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudaotsu
 * @title: cudaotsu
 *
 * Binarizes each frame at Otsu's threshold, chosen per frame on the GPU:
 * output is 255 where the input is above the threshold t, else 0.
 *
 * t is the one OpenCV's `cv::threshold (src, dst, 0, 255, THRESH_BINARY |
 * THRESH_OTSU)` chooses, on every 8-bit frame: the same double-precision
 * recurrence, in the same order, first maximum of the between-class
 * variance.  On a frame of one single value no threshold separates two
 * classes; t is then 0, as in OpenCV, so the output is 255 wherever the
 * value is above 0.  On a frame of two values a < b every t in [a, b)
 * separates them equally well; OpenCV, and so cudaotsu, pick a.
 *
 * Histogram, threshold choice and binarization run in one kernel launch,
 * all on the GPU: no value crosses to the host in the frame path.
 *
 * Colour input (the formats #cudagray takes) is converted to BT.601 luma
 * first, inside the element.  #GstCudaOtsu:threshold-offset is added to the
 * chosen t (then clamped to 0..255), #GstCudaOtsu:smoothing averages t over
 * frames so that live video does not flicker, and #GstCudaOtsu:mode=fixed
 * applies #GstCudaOtsu:threshold instead.
 *
 * With #GstCudaOtsu:post-messages, each frame's threshold is posted as an
 * element message `cudaotsu` with fields `threshold` (the t applied, guint),
 * `otsu-threshold` (Otsu's t before smoothing and offset, guint),
 * `timestamp` (the buffer's PTS, guint64) and, in Otsu mode, `histogram`
 * (GstValueArray of 256 guint).  The values are copied to the host
 * asynchronously and posted when they arrive, at the latest while the next
 * frame is processed (or at EOS); the stream is never synchronized for them.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! cudaotsu ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudagray ! cudaotsu smoothing=0.8 post-messages=true ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaotsu.h"
#include "gstcudaimggray.h"
#include "gstcudaimgreadback.h"
#include "cip_alloc.h"
#include "otsu.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_otsu_debug);
#define GST_CAT_DEFAULT gst_cuda_otsu_debug

typedef enum
{
  GST_CUDA_OTSU_MODE_OTSU,
  GST_CUDA_OTSU_MODE_FIXED,
} GstCudaOtsuMode;

#define GST_TYPE_CUDA_OTSU_MODE (gst_cuda_otsu_mode_get_type ())
static GType
gst_cuda_otsu_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_OTSU_MODE_OTSU, "Otsu's threshold of each frame", "otsu"},
    {GST_CUDA_OTSU_MODE_FIXED, "The threshold property", "fixed"},
    {0, NULL, NULL},
  };

  return gst_cuda_img_register_enum (&type, "GstCudaOtsuMode", values);
}

#define DEFAULT_MODE GST_CUDA_OTSU_MODE_OTSU
#define DEFAULT_THRESHOLD 128
#define DEFAULT_OFFSET 0
#define DEFAULT_SMOOTHING 0.0
#define DEFAULT_INVERT FALSE
#define DEFAULT_POST_MESSAGES FALSE

enum
{
  PROP_0,
  PROP_MODE,
  PROP_THRESHOLD,
  PROP_OFFSET,
  PROP_SMOOTHING,
  PROP_INVERT,
  PROP_POST_MESSAGES,
};

struct _GstCudaOtsu
{
  GstCudaImgFilter parent;

  /* properties, under the object lock */
  GstCudaOtsuMode mode;
  guint threshold;
  gint offset;
  gdouble smoothing;
  gboolean invert;
  gboolean post_messages;
  gboolean reset_smoothing;

  /* per caps */
  GstCudaImgLuma luma;
  guint8 *state;                /* histogram, result, EMA: one allocation */
  uint32_t *hist;
  unsigned *sync;               /* blocks finished, frames chosen */
  CipOtsuResult *result;        /* the messages' device record: what
                                 * binarize reads */
  float *ema;
};

#define gst_cuda_otsu_parent_class parent_class
G_DEFINE_TYPE (GstCudaOtsu, gst_cuda_otsu, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaotsu, "cudaotsu", GST_RANK_NONE,
    GST_TYPE_CUDA_OTSU);

static void
gst_cuda_otsu_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      self->reset_smoothing = TRUE;
      break;
    case PROP_THRESHOLD:
      self->threshold = g_value_get_uint (value);
      break;
    case PROP_OFFSET:
      self->offset = g_value_get_int (value);
      break;
    case PROP_SMOOTHING:
      /* Turned on mid-stream: start from the next frame's threshold */
      if (self->smoothing == 0.0)
        self->reset_smoothing = TRUE;
      self->smoothing = g_value_get_double (value);
      break;
    case PROP_INVERT:
      self->invert = g_value_get_boolean (value);
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
gst_cuda_otsu_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    case PROP_OFFSET:
      g_value_set_int (value, self->offset);
      break;
    case PROP_SMOOTHING:
      g_value_set_double (value, self->smoothing);
      break;
    case PROP_INVERT:
      g_value_set_boolean (value, self->invert);
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

/* ------------------------------------------------------------------------ */
/* messages */

/* The message of a frame whose CipOtsuResult reached the host. */
static GstStructure *
build_message (GstElement * element, gconstpointer data, GstClockTime pts,
    guint fixed)
{
  const CipOtsuResult *r = data;
  GstStructure *s;

  s = gst_structure_new ("cudaotsu", "threshold", G_TYPE_UINT, r->threshold,
      "otsu-threshold", G_TYPE_UINT, r->otsu, "timestamp", G_TYPE_UINT64,
      pts, NULL);
  if (!fixed) {
    GValue arr = G_VALUE_INIT, v = G_VALUE_INIT;
    guint b;

    g_value_init (&arr, GST_TYPE_ARRAY);
    for (b = 0; b < 256; b++) {
      g_value_init (&v, G_TYPE_UINT);
      g_value_set_uint (&v, r->hist[b]);
      gst_value_array_append_and_take_value (&arr, &v);
    }
    gst_structure_take_value (s, "histogram", &arr);
  }
  return s;
}

/* ------------------------------------------------------------------------ */

static void
gst_cuda_otsu_release (GstCudaImgFilter * filter)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (filter);

  if (self->state)
    cip_free (self->state);
  gst_cuda_img_luma_free (&self->luma);
  self->state = NULL;
}

static gboolean
gst_cuda_otsu_set_info (GstCudaImgFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (filter);
  const gsize hist_bytes = CIP_OTSU_STATE_WORDS * sizeof (uint32_t);
  const gsize ema_off = GST_ROUND_UP_16 (hist_bytes);
  const float no_ema = -1.0f;
  const gchar *doing = "allocating a GRAY8 frame for the input";
  cudaError_t err;

  err = gst_cuda_img_luma_alloc (&self->luma, in);
  if (err == cudaSuccess && (doing = "allocating the histogram and "
          "threshold state"))
    err = cip_malloc ((void **) &self->state, ema_off + sizeof (float),
        "cudaotsu state");
  if (err == cudaSuccess)
    err = cudaMemset (self->state, 0, ema_off);
  if (err == cudaSuccess)
    err = cudaMemcpy (self->state + ema_off, &no_ema, sizeof (float),
        cudaMemcpyHostToDevice);
  if (err != cudaSuccess) {
    gst_cuda_img_filter_post_cuda_error (filter, err, doing);
    gst_cuda_otsu_release (filter);
    return FALSE;
  }
  self->hist = (uint32_t *) self->state;
  self->sync = (unsigned *) (self->state +
      CIP_OTSU_HIST_WORDS * sizeof (uint32_t));
  self->result = gst_cuda_img_filter_messages (filter)->device;
  self->ema = (float *) (self->state + ema_off);
  return TRUE;
}

static gboolean
stream_capturing (cudaStream_t stream)
{
  enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;

  return cudaStreamIsCapturing (stream, &status) == cudaSuccess &&
      status != cudaStreamCaptureStatusNone;
}

/* A frame that posts its threshold or restarts the smoothing does more than
 * launch: it runs its process. */
static gboolean
gst_cuda_otsu_replayable (GstCudaImgFilter * filter)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (filter);
  gboolean pure;

  GST_OBJECT_LOCK (self);
  pure = !self->post_messages && !self->reset_smoothing;
  GST_OBJECT_UNLOCK (self);
  return pure;
}

static cudaError_t
gst_cuda_otsu_process (GstCudaImgFilter * filter, const GstCudaImgFrame * in,
    const GstCudaImgFrame * out, cudaStream_t stream)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (filter);
  GstCudaImgReadback *messages = gst_cuda_img_filter_messages (filter);
  gint w = GST_VIDEO_INFO_WIDTH (in->info), h =
      GST_VIDEO_INFO_HEIGHT (in->info);
  const guint8 *gray;
  gint gray_pitch;
  CipOtsuParams p = { 0 };
  gboolean invert, post;
  cudaError_t err;

  GST_OBJECT_LOCK (self);
  p.fixed = self->mode == GST_CUDA_OTSU_MODE_FIXED;
  p.fixed_threshold = (int) self->threshold;
  p.offset = self->offset;
  p.smoothing = (float) self->smoothing;
  p.reset = self->reset_smoothing;
  invert = self->invert;
  post = self->post_messages;
  /* being captured for replay (gst_cuda_otsu_replayable said yes before
   * one of these was set): this frame is the old settings' */
  if ((p.reset || post) && stream_capturing (stream))
    p.reset = post = FALSE;
  if (p.reset)
    self->reset_smoothing = FALSE;
  GST_OBJECT_UNLOCK (self);

  err = gst_cuda_img_luma_get (&self->luma, in, stream, &gray, &gray_pitch);
  /* Otsu: histogram, threshold and binarize in one launch; fixed: no
   * histogram */
  if (err == cudaSuccess && !p.fixed) {
    err = cip_otsu_frame (gray, gray_pitch, out->data[0], out->stride[0], w,
        h, self->hist, self->sync, &p, invert, self->result, self->ema, stream);
  } else if (err == cudaSuccess) {
    err = cip_otsu_threshold (self->hist, (uint64_t) w * h, &p, self->result,
        self->ema, stream);
    if (err == cudaSuccess)
      err = cip_otsu_binarize (gray, gray_pitch, out->data[0],
          out->stride[0], w, h, &self->result->threshold, invert, stream);
  }
  if (err == cudaSuccess && post)
    err = gst_cuda_img_readback_enqueue (messages, p.fixed, stream);
  return err;
}

static gboolean
gst_cuda_otsu_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    GST_OBJECT_LOCK (self);
    self->reset_smoothing = TRUE;
    GST_OBJECT_UNLOCK (self);
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static void
gst_cuda_otsu_class_init (GstCudaOtsuClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  static const GstVideoFormat src_formats[] = { GST_VIDEO_FORMAT_GRAY8 };
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_otsu_set_property;
  gobject_class->get_property = gst_cuda_otsu_get_property;

  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "Where the threshold comes from", GST_TYPE_CUDA_OTSU_MODE,
          DEFAULT_MODE, rw_playing));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "Threshold of mode=fixed: output is 255 where input > threshold",
          0, 255, DEFAULT_THRESHOLD, rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_OFFSET,
      g_param_spec_int ("threshold-offset", "Threshold offset",
          "Added to the chosen threshold, the sum clamped to 0..255",
          -255, 255, DEFAULT_OFFSET, rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_SMOOTHING,
      g_param_spec_double ("smoothing", "Smoothing",
          "Exponential moving average of Otsu's threshold over frames: weight "
          "of the past (0 = off, each frame its own threshold; 0.9 = slow)",
          0.0, 0.99, DEFAULT_SMOOTHING, rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_INVERT,
      g_param_spec_boolean ("invert", "Invert",
          "Output 0 above the threshold and 255 at or below it",
          DEFAULT_INVERT, rw_playing));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post each frame's threshold (and histogram) as a 'cudaotsu' "
          "element message", DEFAULT_POST_MESSAGES, rw_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA Otsu binarization", "Filter/Effect/Video/Hardware",
      "Binarizes video at each frame's Otsu threshold, chosen on an NVIDIA "
      "GPU exactly as OpenCV's THRESH_OTSU",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  gst_cuda_img_filter_class_set_formats (filter_class,
      gst_cuda_img_gray_formats, gst_cuda_img_n_gray_formats, src_formats,
      G_N_ELEMENTS (src_formats));
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_otsu_sink_event);
  gst_cuda_img_filter_class_set_messages (filter_class,
      sizeof (CipOtsuResult), build_message);
  filter_class->set_info = gst_cuda_otsu_set_info;
  filter_class->release = gst_cuda_otsu_release;
  filter_class->process = gst_cuda_otsu_process;
  filter_class->replayable = gst_cuda_otsu_replayable;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_OTSU_MODE, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_otsu_debug, "cudaotsu", 0,
      "CUDA Otsu binarization");
}

static void
gst_cuda_otsu_init (GstCudaOtsu * self)
{
  self->mode = DEFAULT_MODE;
  self->threshold = DEFAULT_THRESHOLD;
  self->offset = DEFAULT_OFFSET;
  self->smoothing = DEFAULT_SMOOTHING;
  self->invert = DEFAULT_INVERT;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->reset_smoothing = TRUE;
}
