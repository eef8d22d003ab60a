/* cudaimgproc: cudahistogram
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudahistogram
 * @title: cudahistogram
 *
 * Counts each frame's gray levels on the GPU (256 bins) and draws the
 * histogram as a picture, live, as a video scope shows it.
 *
 * With #GstCudaHistogram:channels=luma (the default) the input, GRAY8 or
 * any format #cudagray takes, is counted as #cudagray's BT.601 luma: GRAY8
 * and YUV's luma plane with cudaotsu's histogram kernel, packed RGB with
 * its luma made on the way (the frame read once); with
 * channels=rgb, packed RGB input (RGBA, BGRx, RGB, …) gets one histogram a
 * channel.
 *
 * #GstCudaHistogram:output=picture (the default) gives a
 * #GstCudaHistogram:width × #GstCudaHistogram:height picture, GRAY8 for
 * luma and RGBA for rgb (each channel drawn in its own colour): column x
 * shows bins x · 256 / width onwards (the largest of those it covers), as
 * tall as its count over the frame's largest bin (#GstCudaHistogram:scale
 * linear), or as log (1 + count) over log (1 + largest) (scale=log, the
 * logarithm in 16.16 fixed point, so that the picture is the same on every
 * GPU and in the CPU reference).  output=passthrough gives the video
 * unchanged, the histogram in the message only.
 *
 * With #GstCudaHistogram:post-messages, an element message `cudahistogram`
 * per frame, read back asynchronously as cudaotsu's are: `timestamp`
 * (guint64) and `histogram` (GstValueArray of 256 guint), or with
 * channels=rgb `red`, `green` and `blue`.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! cudahistogram ! videoconvert ! autovideosink
 * ]| the histogram of the test pattern's luma, 256 × 128.
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=RGBx ! tee name=t ! queue ! cudaoverlay name=o mode=picture x=16 y=16 alpha=0.8 ! videoconvert ! autovideosink t. ! queue ! cudahistogram scale=log ! o.mask
 * ]| the camera with its histogram in the top left corner.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudahistogram.h"
#include "gstcudaimggray.h"
#include "gstcudaimgreadback.h"
#include "cip_alloc.h"
#include "histogram.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_histogram_debug);
#define GST_CAT_DEFAULT gst_cuda_histogram_debug

typedef enum
{
  GST_CUDA_HISTOGRAM_CHANNELS_LUMA,
  GST_CUDA_HISTOGRAM_CHANNELS_RGB,
} GstCudaHistogramChannels;

typedef enum
{
  GST_CUDA_HISTOGRAM_OUTPUT_PICTURE,
  GST_CUDA_HISTOGRAM_OUTPUT_PASSTHROUGH,
} GstCudaHistogramOutput;

typedef enum
{
  GST_CUDA_HISTOGRAM_SCALE_LINEAR,
  GST_CUDA_HISTOGRAM_SCALE_LOG,
} GstCudaHistogramScale;

#define GST_TYPE_CUDA_HISTOGRAM_CHANNELS \
  (gst_cuda_histogram_channels_get_type ())
static GType
gst_cuda_histogram_channels_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_HISTOGRAM_CHANNELS_LUMA, "The BT.601 luma", "luma"},
    {GST_CUDA_HISTOGRAM_CHANNELS_RGB, "Red, green and blue apart (packed "
          "RGB input)", "rgb"},
    {0, NULL, NULL},
  };

  return gst_cuda_img_register_enum (&type, "GstCudaHistogramChannels", values);
}

#define GST_TYPE_CUDA_HISTOGRAM_OUTPUT (gst_cuda_histogram_output_get_type ())
static GType
gst_cuda_histogram_output_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_HISTOGRAM_OUTPUT_PICTURE, "The histogram drawn (GRAY8, or "
          "RGBA for rgb)", "picture"},
    {GST_CUDA_HISTOGRAM_OUTPUT_PASSTHROUGH, "The video unchanged",
        "passthrough"},
    {0, NULL, NULL},
  };

  return gst_cuda_img_register_enum (&type, "GstCudaHistogramOutput", values);
}

#define GST_TYPE_CUDA_HISTOGRAM_SCALE (gst_cuda_histogram_scale_get_type ())
static GType
gst_cuda_histogram_scale_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_HISTOGRAM_SCALE_LINEAR, "Count over the largest", "linear"},
    {GST_CUDA_HISTOGRAM_SCALE_LOG, "log (1 + count) over log (1 + largest)",
        "log"},
    {0, NULL, NULL},
  };

  return gst_cuda_img_register_enum (&type, "GstCudaHistogramScale", values);
}

#define DEFAULT_CHANNELS GST_CUDA_HISTOGRAM_CHANNELS_LUMA
#define DEFAULT_OUTPUT GST_CUDA_HISTOGRAM_OUTPUT_PICTURE
#define DEFAULT_SCALE GST_CUDA_HISTOGRAM_SCALE_LINEAR
#define DEFAULT_WIDTH 256
#define DEFAULT_HEIGHT 128
#define DEFAULT_POST_MESSAGES FALSE

enum
{
  PROP_0,
  PROP_CHANNELS,
  PROP_OUTPUT,
  PROP_SCALE,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_POST_MESSAGES,
};

/* What the caps follow: channels, output and picture size. */
typedef struct
{
  GstCudaHistogramChannels channels;
  GstCudaHistogramOutput output;
  gint width, height;
} Shape;

struct _GstCudaHistogram
{
  GstCudaImgFilter parent;

  /* properties, under the object lock */
  Shape shape;
  GstCudaHistogramScale scale;
  gboolean post_messages;

  /* the frame's settings (snapshot): the streaming thread writes them */
  Shape frame;
  gboolean frame_log, frame_post;

  /* per caps */
  GstCudaImgLuma luma;
  uint32_t *state;
  gboolean picture;             /* drawing, not passing through */
  gboolean picture_rgb;         /* ... three histograms, into RGBA */
  gboolean packed;              /* the input is packed RGB: */
  gint bpp, offset[3];          /* its pixel's bytes, R, G, B's places */
};

#define gst_cuda_histogram_parent_class parent_class
G_DEFINE_TYPE (GstCudaHistogram, gst_cuda_histogram, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudahistogram, "cudahistogram", GST_RANK_NONE,
    GST_TYPE_CUDA_HISTOGRAM);

static void
gst_cuda_histogram_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CHANNELS:
      self->shape.channels = g_value_get_enum (value);
      break;
    case PROP_OUTPUT:
      self->shape.output = g_value_get_enum (value);
      break;
    case PROP_SCALE:
      self->scale = g_value_get_enum (value);
      break;
    case PROP_WIDTH:
      self->shape.width = g_value_get_int (value);
      break;
    case PROP_HEIGHT:
      self->shape.height = g_value_get_int (value);
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
gst_cuda_histogram_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CHANNELS:
      g_value_set_enum (value, self->shape.channels);
      break;
    case PROP_OUTPUT:
      g_value_set_enum (value, self->shape.output);
      break;
    case PROP_SCALE:
      g_value_set_enum (value, self->scale);
      break;
    case PROP_WIDTH:
      g_value_set_int (value, self->shape.width);
      break;
    case PROP_HEIGHT:
      g_value_set_int (value, self->shape.height);
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
/* caps */

/* The object lock held: the frame's caps and kernels follow one state. */
static void
gst_cuda_histogram_snapshot (GstCudaImgFilter * filter)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (filter);

  self->frame = self->shape;
  self->frame_log = self->scale == GST_CUDA_HISTOGRAM_SCALE_LOG;
  self->frame_post = self->post_messages;
}

static GstVideoFormat
gst_cuda_histogram_output_format (GstCudaImgFilter * filter, GstVideoFormat in)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (filter);
  Shape s;

  GST_OBJECT_LOCK (self);
  s = self->frame;
  GST_OBJECT_UNLOCK (self);
  if (s.output == GST_CUDA_HISTOGRAM_OUTPUT_PASSTHROUGH)
    return in;
  return s.channels == GST_CUDA_HISTOGRAM_CHANNELS_RGB ?
      GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8;
}

static gboolean
gst_cuda_histogram_output_size (GstCudaImgFilter * filter, gint * width,
    gint * height)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (filter);
  Shape s;

  GST_OBJECT_LOCK (self);
  s = self->frame;
  GST_OBJECT_UNLOCK (self);
  *width = s.width;
  *height = s.height;
  return s.output == GST_CUDA_HISTOGRAM_OUTPUT_PICTURE;
}

/* ------------------------------------------------------------------------ */
/* messages */

static void
take_counts (GstStructure * s, const gchar * field, const uint32_t * counts)
{
  GValue arr = G_VALUE_INIT, v = G_VALUE_INIT;
  guint b;

  g_value_init (&arr, GST_TYPE_ARRAY);
  for (b = 0; b < 256; b++) {
    g_value_init (&v, G_TYPE_UINT);
    g_value_set_uint (&v, counts[b]);
    gst_value_array_append_and_take_value (&arr, &v);
  }
  gst_structure_take_value (s, field, &arr);
}

static GstStructure *
build_message (GstElement * element, gconstpointer data, GstClockTime pts,
    guint flags)
{
  const CipHistResult *r = data;
  GstStructure *s = gst_structure_new ("cudahistogram", "timestamp",
      G_TYPE_UINT64, pts, NULL);

  if (r->channels == 3) {
    take_counts (s, "red", r->hist[0]);
    take_counts (s, "green", r->hist[1]);
    take_counts (s, "blue", r->hist[2]);
  } else {
    take_counts (s, "histogram", r->hist[0]);
  }
  return s;
}

/* ------------------------------------------------------------------------ */

static void
gst_cuda_histogram_release (GstCudaImgFilter * filter)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (filter);

  g_clear_pointer (&self->state, cip_free);
  gst_cuda_img_luma_free (&self->luma);
}

static void
refuse_rgb (GstCudaHistogram * self, const GstVideoInfo * in)
{
  GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("channels=rgb needs packed RGB "
          "input (RGBA, BGRx, RGB, ...), not %s.", GST_VIDEO_INFO_NAME (in)),
      ("use channels=luma, or videoconvert to RGBx first"));
}

static gboolean
gst_cuda_histogram_set_info (GstCudaImgFilter * filter,
    const GstVideoInfo * in, const GstVideoInfo * out)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (filter);
  const GstVideoFormatInfo *finfo = in->finfo;
  cudaError_t err;

  gboolean rgb;

  /* the output the caps were just made for (the frame's settings); in
   * passthrough the channels may change without new caps, so the counting
   * follows the frame (process) and both ways are ready */
  self->picture = self->frame.output == GST_CUDA_HISTOGRAM_OUTPUT_PICTURE;
  rgb = self->frame.channels == GST_CUDA_HISTOGRAM_CHANNELS_RGB;
  self->picture_rgb = self->picture &&
      GST_VIDEO_INFO_FORMAT (out) == GST_VIDEO_FORMAT_RGBA;
  self->packed = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) &&
      GST_VIDEO_FORMAT_INFO_N_PLANES (finfo) == 1 &&
      GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0) >= 3;
  if (rgb && !self->packed) {
    refuse_rgb (self, in);
    return FALSE;
  }
  if (self->packed) {
    self->bpp = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
    self->offset[0] = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_R);
    self->offset[1] = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_G);
    self->offset[2] = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_B);
  }
  /* packed RGB counts its luma without a GRAY8 plane */
  err = self->packed ? cudaSuccess : gst_cuda_img_luma_alloc (&self->luma, in);
  if (err == cudaSuccess)
    err = cip_malloc ((void **) &self->state, CIP_HIST_STATE_WORDS *
        sizeof (uint32_t), "cudahistogram state");
  if (err == cudaSuccess)
    err = cudaMemset (self->state, 0, CIP_HIST_STATE_WORDS * sizeof (uint32_t));
  if (err != cudaSuccess) {
    gst_cuda_img_filter_post_cuda_error (filter, err, "allocating the "
        "histogram's state");
    gst_cuda_histogram_release (filter);
    return FALSE;
  }
  return TRUE;
}

/* A frame that posts its histogram does more than launch. */
static gboolean
gst_cuda_histogram_replayable (GstCudaImgFilter * filter)
{
  return !GST_CUDA_HISTOGRAM (filter)->frame_post;
}

static cudaError_t
gst_cuda_histogram_process (GstCudaImgFilter * filter,
    const GstCudaImgFrame * in, const GstCudaImgFrame * out,
    cudaStream_t stream)
{
  GstCudaHistogram *self = GST_CUDA_HISTOGRAM (filter);
  GstCudaImgReadback *messages = gst_cuda_img_filter_messages (filter);
  CipHistResult *res = messages->device;
  const gint w = GST_VIDEO_INFO_WIDTH (in->info),
      h = GST_VIDEO_INFO_HEIGHT (in->info);
  enum cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  gboolean log_scale, post, rgb;
  cudaError_t err;
  guint p;

  log_scale = self->frame_log;
  post = self->frame_post;
  rgb = self->picture ? self->picture_rgb :
      self->frame.channels == GST_CUDA_HISTOGRAM_CHANNELS_RGB;
  if (rgb && !self->packed) {
    refuse_rgb (self, in->info);
    return GST_CUDA_IMG_ERROR_POSTED;
  }
  /* being captured for replay: no read-back in the graph */
  if (post && cudaStreamIsCapturing (stream, &capturing) == cudaSuccess &&
      capturing != cudaStreamCaptureStatusNone)
    post = FALSE;

  if (rgb) {
    err = cip_hist_rgb (in->data[0], in->stride[0], w, h, self->bpp,
        self->offset[0], self->offset[1], self->offset[2], res, stream);
  } else if (self->packed) {
    /* the luma made on the way: the frame read once */
    err = cip_hist_luma_packed (in->data[0], in->stride[0], w, h, self->bpp,
        self->offset[0], self->offset[1], self->offset[2], self->state, res,
        stream);
  } else {
    const guint8 *gray;
    gint gray_pitch;

    err = gst_cuda_img_luma_get (&self->luma, in, stream, &gray, &gray_pitch);
    if (err == cudaSuccess)
      err = cip_hist_gray (gray, gray_pitch, w, h, self->state, res, stream);
  }
  if (err != cudaSuccess)
    return err;

  if (self->picture) {
    err = cip_hist_picture (res, rgb ? 3 : 1, log_scale, out->data[0],
        out->stride[0], GST_VIDEO_INFO_WIDTH (out->info),
        GST_VIDEO_INFO_HEIGHT (out->info), stream);
  } else {
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (in->info) && err == cudaSuccess;
        p++) {
      gsize row;
      gint rows;

      gst_cuda_img_plane_extent (in->info, p, &row, &rows);
      err = cudaMemcpy2DAsync (out->data[p], out->stride[p], in->data[p],
          in->stride[p], row, rows, cudaMemcpyDeviceToDevice, stream);
    }
  }
  if (err == cudaSuccess && post)
    err = gst_cuda_img_readback_enqueue (messages, 0, stream);
  return err;
}

static void
gst_cuda_histogram_class_init (GstCudaHistogramClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_histogram_set_property;
  gobject_class->get_property = gst_cuda_histogram_get_property;

  g_object_class_install_property (gobject_class, PROP_CHANNELS,
      g_param_spec_enum ("channels", "Channels",
          "The luma's histogram, or red, green and blue's (packed RGB input)",
          GST_TYPE_CUDA_HISTOGRAM_CHANNELS, DEFAULT_CHANNELS, rw_playing));
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "The histogram drawn, or the video unchanged (messages only)",
          GST_TYPE_CUDA_HISTOGRAM_OUTPUT, DEFAULT_OUTPUT, rw_playing));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_enum ("scale", "Scale",
          "Column heights: count over the largest, or log (1 + count) over "
          "log (1 + largest)", GST_TYPE_CUDA_HISTOGRAM_SCALE, DEFAULT_SCALE,
          rw_playing));
  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width", "The picture's width", 16, 4096,
          DEFAULT_WIDTH, rw_playing));
  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height", "The picture's height", 16, 4096,
          DEFAULT_HEIGHT, rw_playing));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post each frame's counts as a 'cudahistogram' element message",
          DEFAULT_POST_MESSAGES, rw_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA histogram", "Filter/Analyzer/Video/Hardware",
      "Each frame's histogram on an NVIDIA GPU, drawn as a picture (a "
      "video scope) or posted as messages",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  /* the output: a picture (GRAY8, RGBA, both among them) or the input's
   * format */
  gst_cuda_img_filter_class_set_formats (filter_class,
      gst_cuda_img_gray_formats, gst_cuda_img_n_gray_formats,
      gst_cuda_img_gray_formats, gst_cuda_img_n_gray_formats);
  gst_cuda_img_filter_class_set_messages (filter_class,
      sizeof (CipHistResult), build_message);
  filter_class->output_format = gst_cuda_histogram_output_format;
  filter_class->output_size = gst_cuda_histogram_output_size;
  filter_class->snapshot = gst_cuda_histogram_snapshot;
  filter_class->set_info = gst_cuda_histogram_set_info;
  filter_class->release = gst_cuda_histogram_release;
  filter_class->process = gst_cuda_histogram_process;
  filter_class->replayable = gst_cuda_histogram_replayable;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_HISTOGRAM_CHANNELS, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_HISTOGRAM_OUTPUT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_HISTOGRAM_SCALE, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_histogram_debug, "cudahistogram", 0,
      "CUDA histogram picture");
}

static void
gst_cuda_histogram_init (GstCudaHistogram * self)
{
  self->shape.channels = DEFAULT_CHANNELS;
  self->shape.output = DEFAULT_OUTPUT;
  self->shape.width = DEFAULT_WIDTH;
  self->shape.height = DEFAULT_HEIGHT;
  self->scale = DEFAULT_SCALE;
  self->post_messages = DEFAULT_POST_MESSAGES;
}
