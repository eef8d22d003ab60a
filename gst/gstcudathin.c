/* cudaimgproc: cudathin
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudathin
 * @title: cudathin
 *
 * Thins the foreground of a binary frame (any non-zero pixel; the output of
 * #cudaotsu, say) to a one-pixel-wide skeleton on an NVIDIA GPU: output is
 * 255 on the skeleton, 0 elsewhere.  Passes run until one removes nothing
 * (or #GstCudaThin:max-iterations of them); every decision of a pass is
 * taken on the image the pass started from.  Pixels outside the frame are
 * background.
 *
 * #GstCudaThin:method:
 *
 * * `hilditch` (default): one-pass parallel Hilditch thinning.  With P2..P9
 *   the neighbours north, north-west, west, south-west, south, south-east,
 *   east, north-east, NZ(P) the foreground neighbours and TR(P) the
 *   background-to-foreground transitions in P2, P3, ..., P9, P2, a
 *   foreground pixel is removed when 2 <= NZ <= 6, TR = 1, (P2.P4.P8 = 0 or
 *   TR(P2) != 1) and (P2.P4.P6 = 0 or TR(P4) != 1).  In this parallel form
 *   parts two pixels thick can vanish (a 2x2 square does, in one pass).
 * * `zhang-suen` and `guo-hall`: the two-sub-iteration algorithms of
 *   OpenCV's `cv::ximgproc::thinning` (THINNING_ZHANGSUEN, THINNING_GUOHALL),
 *   bit for bit (on binary frames; OpenCV takes only values >= 128 as
 *   foreground, cudathin any non-zero value) with #GstCudaThin:border
 *   `opencv`, and with the default border wherever the foreground does not
 *   touch the frame's outermost rows and columns.
 *
 * #GstCudaThin:border says what happens at the frame's edge:
 *
 * * `background` (default): every pixel is thinned alike, pixels outside
 *   the frame counting as background.
 * * `opencv`: the outermost rows and columns are never removed and are
 *   read as they are, as `cv::ximgproc::thinning` does (it skips them); a
 *   frame narrower or shorter than 3 pixels comes out as it went in.
 *
 * All passes of a frame run in one kernel launch: the frame is packed to 32
 * pixels a word, tiles run 8 passes at a time in shared memory, the GPU
 * decides convergence, and tiles whose surroundings did not change are
 * skipped.  The host never waits for a pass.
 *
 * With #GstCudaThin:post-messages, each frame posts an element message
 * `cudathin` with `passes` (guint: passes that removed pixels),
 * `converged` (gboolean: a further pass removed nothing; FALSE when
 * #GstCudaThin:max-iterations stopped it first) and `timestamp` (the
 * buffer's PTS, guint64), read back asynchronously as #cudaotsu does.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! cudagray ! cudaotsu ! cudathin ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 filesrc location=text.png ! pngdec ! cudagray ! cudaotsu invert=true ! cudathin method=zhang-suen ! pngenc ! filesink location=skeleton.png
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudathin.h"
#include "gstcudaimgreadback.h"
#include "thin.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_thin_debug);
#define GST_CAT_DEFAULT gst_cuda_thin_debug

#define GST_TYPE_CUDA_THIN_METHOD (gst_cuda_thin_method_get_type ())
static GType
gst_cuda_thin_method_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CIP_THIN_HILDITCH, "One-pass parallel Hilditch thinning", "hilditch"},
    {CIP_THIN_ZHANG_SUEN, "Zhang-Suen, as OpenCV's THINNING_ZHANGSUEN",
        "zhang-suen"},
    {CIP_THIN_GUO_HALL, "Guo-Hall, as OpenCV's THINNING_GUOHALL",
        "guo-hall"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaThinMethod", values);
}

#define GST_TYPE_CUDA_THIN_BORDER (gst_cuda_thin_border_get_type ())
static GType
gst_cuda_thin_border_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CIP_THIN_BORDER_BACKGROUND, "Outside the frame is background; every "
          "pixel thinned alike", "background"},
    {CIP_THIN_BORDER_OPENCV, "The outermost rows and columns are kept, as "
          "OpenCV's ximgproc thinning keeps them", "opencv"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaThinBorder", values);
}

#define DEFAULT_METHOD CIP_THIN_HILDITCH
#define DEFAULT_BORDER CIP_THIN_BORDER_BACKGROUND
#define DEFAULT_MAX_ITERATIONS 0
#define DEFAULT_POST_MESSAGES FALSE

enum
{
  PROP_0,
  PROP_METHOD,
  PROP_BORDER,
  PROP_MAX_ITERATIONS,
  PROP_POST_MESSAGES,
};

struct _GstCudaThin
{
  GstCudaImgFilter parent;

  /* properties, under the object lock */
  CipThinMethod method;
  CipThinBorder border;
  guint max_iterations;
  gboolean post_messages;

  /* per caps */
  CipThin *thin;
};

#define gst_cuda_thin_parent_class parent_class
G_DEFINE_TYPE (GstCudaThin, gst_cuda_thin, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudathin, "cudathin", GST_RANK_NONE,
    GST_TYPE_CUDA_THIN);

static void
gst_cuda_thin_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaThin *self = GST_CUDA_THIN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      self->method = g_value_get_enum (value);
      break;
    case PROP_BORDER:
      self->border = g_value_get_enum (value);
      break;
    case PROP_MAX_ITERATIONS:
      self->max_iterations = g_value_get_uint (value);
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
gst_cuda_thin_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaThin *self = GST_CUDA_THIN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      g_value_set_enum (value, self->method);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->border);
      break;
    case PROP_MAX_ITERATIONS:
      g_value_set_uint (value, self->max_iterations);
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

static GstStructure *
build_message (GstElement * element, gconstpointer data, GstClockTime pts,
    guint flags)
{
  const CipThinResult *r = data;

  return gst_structure_new ("cudathin", "passes", G_TYPE_UINT, r->passes,
      "converged", G_TYPE_BOOLEAN, (gboolean) r->converged, "timestamp",
      G_TYPE_UINT64, pts, NULL);
}

static void
gst_cuda_thin_release (GstCudaImgFilter * filter)
{
  GstCudaThin *self = GST_CUDA_THIN (filter);

  g_clear_pointer (&self->thin, cip_thin_destroy);
}

static gboolean
gst_cuda_thin_set_info (GstCudaImgFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out)
{
  GstCudaThin *self = GST_CUDA_THIN (filter);
  cudaError_t err;

  err = cip_thin_create (&self->thin, GST_VIDEO_INFO_WIDTH (in),
      GST_VIDEO_INFO_HEIGHT (in));
  if (err != cudaSuccess) {
    gst_cuda_img_filter_post_cuda_error (filter, err,
        "allocating the thinning scratch");
    return FALSE;
  }
  return TRUE;
}

static cudaError_t
gst_cuda_thin_process (GstCudaImgFilter * filter, const GstCudaImgFrame * in,
    const GstCudaImgFrame * out, cudaStream_t stream)
{
  GstCudaThin *self = GST_CUDA_THIN (filter);
  GstCudaImgReadback *messages = gst_cuda_img_filter_messages (filter);
  CipThinMethod method;
  CipThinBorder border;
  guint max_iterations;
  gboolean post;
  cudaError_t err;

  GST_OBJECT_LOCK (self);
  method = self->method;
  border = self->border;
  max_iterations = self->max_iterations;
  post = self->post_messages;
  GST_OBJECT_UNLOCK (self);

  err = cip_thin (self->thin, in->data[0], in->stride[0], out->data[0],
      out->stride[0], method, border, max_iterations, messages->device, stream);
  if (err == cudaSuccess && post)
    err = gst_cuda_img_readback_enqueue (messages, 0, stream);
  return err;
}

static void
gst_cuda_thin_class_init (GstCudaThinClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8 };
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_thin_set_property;
  gobject_class->get_property = gst_cuda_thin_get_property;

  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "Thinning algorithm",
          GST_TYPE_CUDA_THIN_METHOD, DEFAULT_METHOD, rw_playing));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "What the frame's outermost rows and columns are: thinned with "
          "the outside as background, or kept as OpenCV's thinning keeps "
          "them", GST_TYPE_CUDA_THIN_BORDER, DEFAULT_BORDER, rw_playing));
  g_object_class_install_property (gobject_class, PROP_MAX_ITERATIONS,
      g_param_spec_uint ("max-iterations", "Maximum iterations",
          "Passes at most per frame (a Zhang-Suen or Guo-Hall pass is both "
          "sub-iterations); 0 = until a pass removes nothing", 0, G_MAXINT,
          DEFAULT_MAX_ITERATIONS, rw_playing));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a 'cudathin' element message per frame with the passes used",
          DEFAULT_POST_MESSAGES, rw_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA thinning", "Filter/Effect/Video/Hardware",
      "Thins binary frames to one-pixel skeletons (Hilditch, Zhang-Suen, "
      "Guo-Hall) on an NVIDIA GPU",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  gst_cuda_img_filter_class_set_formats (filter_class, formats,
      G_N_ELEMENTS (formats), formats, G_N_ELEMENTS (formats));
  gst_cuda_img_filter_class_set_messages (filter_class,
      sizeof (CipThinResult), build_message);
  filter_class->set_info = gst_cuda_thin_set_info;
  filter_class->release = gst_cuda_thin_release;
  filter_class->process = gst_cuda_thin_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_THIN_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_THIN_BORDER, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_thin_debug, "cudathin", 0, "CUDA thinning");
}

static void
gst_cuda_thin_init (GstCudaThin * self)
{
  self->method = DEFAULT_METHOD;
  self->border = DEFAULT_BORDER;
  self->max_iterations = DEFAULT_MAX_ITERATIONS;
  self->post_messages = DEFAULT_POST_MESSAGES;
}
