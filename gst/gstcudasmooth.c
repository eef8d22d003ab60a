/* cudaimgproc: cudasmooth
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudasmooth
 * @title: cudasmooth
 *
 * Noise removal before segmentation, on an NVIDIA GPU: each channel of a
 * GRAY8 or packed RGB frame smoothed on its own, alpha (or the padding
 * byte of RGBx and its kin) copied untouched.  Every method is exact:
 *
 * - `triangular`: the 5-point triangular smooth, weights (1 2 3 2 1) along
 *   x and along y, round (sum / 81) in integers (81 is odd: no ties).
 *   #GstCudaSmooth:ksize does not apply.
 * - `box`: the mean of the ksize x ksize window, rounded; equal to
 *   `cv::blur` bit for bit, ksize 3 to 15.
 * - `gaussian`: equal to `cv::GaussianBlur` on 8-bit frames bit for bit
 *   (its fixed-point path: taps in 1/256, (sum + 2^15) >> 16), ksize 3, 5
 *   or 7, #GstCudaSmooth:sigma 0 meaning OpenCV's default for the size.
 * - `median`: the median of the window, equal to `cv::medianBlur`, ksize 3
 *   or 5 (salt-and-pepper removal before thinning).
 *
 * Pixels outside the frame mirror it without repeating the edge
 * (`reflect-101`, OpenCV's `BORDER_REFLECT_101` and default) or repeat the
 * edge pixel (`replicate`).  `cv::medianBlur` always replicates; with
 * `reflect-101` the median is that of the frame padded by reflection.
 *
 * All properties can change while PLAYING and apply from the next frame,
 * each frame taking one consistent set.  A method and ksize that do not go
 * together (`median` with 7) stop the pipeline with an error before it
 * starts; set while playing, the element warns and keeps the last valid
 * settings until the pair is valid again.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=photo.png ! pngdec ! cudagray ! cudasmooth method=gaussian ksize=5 ! cudaotsu ! cudathin ! pngenc ! filesink location=skeleton.png
 * ]| Otsu's threshold after Gaussian filtering, as OpenCV recommends, then
 * the skeleton, the frame kept on the GPU between the four elements.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! cudasmooth method=median ksize=5 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasmooth.h"
#include "smooth.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_smooth_debug);
#define GST_CAT_DEFAULT gst_cuda_smooth_debug

typedef enum
{
  GST_CUDA_SMOOTH_TRIANGULAR = CIP_SMOOTH_TRIANGULAR,
  GST_CUDA_SMOOTH_BOX = CIP_SMOOTH_BOX,
  GST_CUDA_SMOOTH_GAUSSIAN = CIP_SMOOTH_GAUSSIAN,
  GST_CUDA_SMOOTH_MEDIAN = CIP_SMOOTH_MEDIAN,
} GstCudaSmoothMethod;

#define GST_TYPE_CUDA_SMOOTH_METHOD (gst_cuda_smooth_method_get_type ())
static GType
gst_cuda_smooth_method_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SMOOTH_TRIANGULAR, "5-point triangular smooth, (1 2 3 2 1) "
          "along x and y", "triangular"},
    {GST_CUDA_SMOOTH_BOX, "Mean of the window (cv::blur)", "box"},
    {GST_CUDA_SMOOTH_GAUSSIAN, "Gaussian (cv::GaussianBlur)", "gaussian"},
    {GST_CUDA_SMOOTH_MEDIAN, "Median of the window (cv::medianBlur)",
        "median"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaSmoothMethod", values);
}

#define GST_TYPE_CUDA_SMOOTH_KSIZE (gst_cuda_smooth_ksize_get_type ())
static GType
gst_cuda_smooth_ksize_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {3, "3x3", "3"}, {5, "5x5", "5"}, {7, "7x7", "7"}, {9, "9x9 (box)", "9"},
    {11, "11x11 (box)", "11"}, {13, "13x13 (box)", "13"},
    {15, "15x15 (box)", "15"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaSmoothKsize", values);
}

#define GST_TYPE_CUDA_SMOOTH_BORDER (gst_cuda_smooth_border_get_type ())
static GType
gst_cuda_smooth_border_get_type (void)
{
  static gsize type = 0;
  return gst_cuda_img_register_border_enum (&type, "GstCudaSmoothBorder");
}

#define DEFAULT_METHOD GST_CUDA_SMOOTH_GAUSSIAN
#define DEFAULT_KSIZE 5
#define DEFAULT_SIGMA 0.0
#define DEFAULT_BORDER GST_CUDA_IMG_BORDER_REFLECT_101

enum
{
  PROP_0,
  PROP_METHOD,
  PROP_KSIZE,
  PROP_SIGMA,
  PROP_BORDER,
};

struct _GstCudaSmooth
{
  GstCudaImgFilter parent;

  /* the properties, under the object lock */
  GstCudaSmoothMethod method;
  gint ksize;
  gdouble sigma;
  GstCudaImgBorder border;

  /* streaming thread: the format's layout, and the settings in use */
  gint bpp, keep_off;
  CipSmoothParams active;
  gboolean warned;
};

#define gst_cuda_smooth_parent_class parent_class
G_DEFINE_TYPE (GstCudaSmooth, gst_cuda_smooth, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudasmooth, "cudasmooth", GST_RANK_NONE,
    GST_TYPE_CUDA_SMOOTH);

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_ARGB,
  GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR,
};

static void
gst_cuda_smooth_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaSmooth *self = GST_CUDA_SMOOTH (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      self->method = g_value_get_enum (value);
      break;
    case PROP_KSIZE:
      self->ksize = g_value_get_enum (value);
      break;
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    case PROP_BORDER:
      self->border = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_smooth_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaSmooth *self = GST_CUDA_SMOOTH (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      g_value_set_enum (value, self->method);
      break;
    case PROP_KSIZE:
      g_value_set_enum (value, self->ksize);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->border);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The properties as one set, taken under the lock so that a frame never
 * mixes old and new values. */
static void
gst_cuda_smooth_snapshot (GstCudaSmooth * self, CipSmoothParams * p)
{
  GST_OBJECT_LOCK (self);
  p->method = (CipSmoothMethod) self->method;
  p->ksize = self->ksize;
  p->sigma = self->sigma;
  p->border = self->border == GST_CUDA_IMG_BORDER_REFLECT_101;
  GST_OBJECT_UNLOCK (self);
  p->bpp = self->bpp;
  p->keep_off = self->keep_off;
}

static gboolean
gst_cuda_smooth_set_info (GstCudaImgFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out)
{
  GstCudaSmooth *self = GST_CUDA_SMOOTH (filter);
  const GstVideoFormatInfo *finfo = in->finfo;
  CipSmoothParams p;
  const gchar *why;

  self->bpp = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
  self->keep_off = -1;
  if (self->bpp == 4)           /* alpha or padding: the byte not R, G or B */
    self->keep_off = 6 - GST_VIDEO_FORMAT_INFO_POFFSET (finfo,
        GST_VIDEO_COMP_R) - GST_VIDEO_FORMAT_INFO_POFFSET (finfo,
        GST_VIDEO_COMP_G) - GST_VIDEO_FORMAT_INFO_POFFSET (finfo,
        GST_VIDEO_COMP_B);
  gst_cuda_smooth_snapshot (self, &p);
  why = cip_smooth_check (&p);
  if (why) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("cudasmooth cannot use ksize=%d with method=%s: %s.", p.ksize,
            g_enum_get_value (g_type_class_peek (GST_TYPE_CUDA_SMOOTH_METHOD),
                p.method)->value_nick, why), (NULL));
    return FALSE;
  }
  self->active = p;
  self->warned = FALSE;
  return TRUE;
}

static cudaError_t
gst_cuda_smooth_process (GstCudaImgFilter * filter, const GstCudaImgFrame * in,
    const GstCudaImgFrame * out, cudaStream_t stream)
{
  GstCudaSmooth *self = GST_CUDA_SMOOTH (filter);
  CipSmoothParams p;
  const gchar *why;

  gst_cuda_smooth_snapshot (self, &p);
  why = cip_smooth_check (&p);
  if (!why) {
    self->active = p;
    self->warned = FALSE;
  } else if (!self->warned) {
    /* a pair set one property at a time passes through invalid ones
     * (median ksize=7 on the way from box 7 to median 5) */
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("cudasmooth cannot use ksize=%d with this method (%s); it keeps its "
            "last valid settings until they go together.", p.ksize, why),
        (NULL));
    self->warned = TRUE;
  }
  return cip_smooth (in->data[0], in->stride[0], out->data[0],
      out->stride[0], GST_VIDEO_INFO_WIDTH (in->info),
      GST_VIDEO_INFO_HEIGHT (in->info), &self->active, stream);
}

static void
gst_cuda_smooth_class_init (GstCudaSmoothClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_smooth_set_property;
  gobject_class->get_property = gst_cuda_smooth_get_property;

  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "Smoothing filter",
          GST_TYPE_CUDA_SMOOTH_METHOD, DEFAULT_METHOD, rw_playing));
  g_object_class_install_property (gobject_class, PROP_KSIZE,
      g_param_spec_enum ("ksize", "Kernel size",
          "Window size: box 3 to 15, gaussian 3 to 7, median 3 or 5; "
          "triangular is always 5", GST_TYPE_CUDA_SMOOTH_KSIZE,
          DEFAULT_KSIZE, rw_playing));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Gaussian standard deviation in pixels; 0: OpenCV's default for "
          "ksize (0.3 * ((ksize - 1) * 0.5 - 1) + 0.8)", 0.0, 64.0,
          DEFAULT_SIGMA, rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "What the filters see outside the frame",
          GST_TYPE_CUDA_SMOOTH_BORDER, DEFAULT_BORDER, rw_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA smoothing", "Filter/Effect/Video/Hardware",
      "Triangular, box, Gaussian and median smoothing (OpenCV's, bit for "
      "bit) on an NVIDIA GPU",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  gst_cuda_img_filter_class_set_formats (filter_class, formats,
      G_N_ELEMENTS (formats), formats, G_N_ELEMENTS (formats));
  filter_class->set_info = gst_cuda_smooth_set_info;
  filter_class->process = gst_cuda_smooth_process;
  filter_class->replayable = gst_cuda_img_filter_replay_always;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SMOOTH_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SMOOTH_KSIZE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SMOOTH_BORDER, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_smooth_debug, "cudasmooth", 0,
      "CUDA smoothing");
}

static void
gst_cuda_smooth_init (GstCudaSmooth * self)
{
  self->method = DEFAULT_METHOD;
  self->ksize = DEFAULT_KSIZE;
  self->sigma = DEFAULT_SIGMA;
  self->border = DEFAULT_BORDER;
}
