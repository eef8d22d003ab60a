/* cudaimgproc: cudasobel
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudasobel
 * @title: cudasobel
 *
 * Sobel gradient magnitude (edges) on an NVIDIA GPU, GRAY8 in and out.
 *
 * gx and gy are OpenCV's `cv::Sobel` derivatives (dx = 1 and dy = 1) with
 * the coefficients of `cv::getDerivKernels` for #GstCudaSobel:ksize 3, 5 or
 * 7, computed in integers, so exactly.  Pixels outside the frame repeat the
 * edge pixel (`BORDER_REPLICATE`) or, with #GstCudaSobel:border=reflect-101,
 * mirror without repeating it (`BORDER_REFLECT_101`, OpenCV's default);
 * frames one pixel wide or high work like any other.
 *
 * The output is `l2`: sqrt (gx² + gy²) in single precision, or `l1`:
 * |gx| + |gy|; times #GstCudaSobel:scale, rounded to nearest (half to even)
 * and saturated to 0..255.  With #GstCudaSobel:threshold above 0 it is
 * instead 255 where that value is above the threshold, else 0: an edge mask
 * from the same kernel.  Colour input (the formats #cudagray takes) is
 * converted to BT.601 luma first, inside the element.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! cudasobel ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 filesrc location=photo.png ! pngdec ! cudagray ! cudasobel ksize=5 norm=l1 scale=0.25 ! pngenc ! filesink location=edges.png
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasobel.h"
#include "gstcudaimggray.h"
#include "sobel.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_sobel_debug);
#define GST_CAT_DEFAULT gst_cuda_sobel_debug

typedef enum
{
  GST_CUDA_SOBEL_KSIZE_3 = 3,
  GST_CUDA_SOBEL_KSIZE_5 = 5,
  GST_CUDA_SOBEL_KSIZE_7 = 7,
} GstCudaSobelKsize;

typedef enum
{
  GST_CUDA_SOBEL_NORM_L2,
  GST_CUDA_SOBEL_NORM_L1,
} GstCudaSobelNorm;

#define GST_TYPE_CUDA_SOBEL_KSIZE (gst_cuda_sobel_ksize_get_type ())
static GType
gst_cuda_sobel_ksize_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SOBEL_KSIZE_3, "3x3", "3"},
    {GST_CUDA_SOBEL_KSIZE_5, "5x5", "5"},
    {GST_CUDA_SOBEL_KSIZE_7, "7x7", "7"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaSobelKsize", values);
}

#define GST_TYPE_CUDA_SOBEL_BORDER (gst_cuda_sobel_border_get_type ())
static GType
gst_cuda_sobel_border_get_type (void)
{
  static gsize type = 0;
  return gst_cuda_img_register_border_enum (&type, "GstCudaSobelBorder");
}

#define GST_TYPE_CUDA_SOBEL_NORM (gst_cuda_sobel_norm_get_type ())
static GType
gst_cuda_sobel_norm_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SOBEL_NORM_L2, "sqrt (gx^2 + gy^2)", "l2"},
    {GST_CUDA_SOBEL_NORM_L1, "|gx| + |gy|", "l1"},
    {0, NULL, NULL},
  };
  return gst_cuda_img_register_enum (&type, "GstCudaSobelNorm", values);
}

#define DEFAULT_KSIZE GST_CUDA_SOBEL_KSIZE_3
#define DEFAULT_BORDER GST_CUDA_IMG_BORDER_REPLICATE
#define DEFAULT_NORM GST_CUDA_SOBEL_NORM_L2
#define DEFAULT_SCALE 1.0
#define DEFAULT_THRESHOLD 0

enum
{
  PROP_0,
  PROP_KSIZE,
  PROP_BORDER,
  PROP_NORM,
  PROP_SCALE,
  PROP_THRESHOLD,
};

struct _GstCudaSobel
{
  GstCudaImgFilter parent;

  GstCudaSobelKsize ksize;
  GstCudaImgBorder border;
  GstCudaSobelNorm norm;
  gdouble scale;
  guint threshold;

  GstCudaImgLuma luma;
};

#define gst_cuda_sobel_parent_class parent_class
G_DEFINE_TYPE (GstCudaSobel, gst_cuda_sobel, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudasobel, "cudasobel", GST_RANK_NONE,
    GST_TYPE_CUDA_SOBEL);

static void
gst_cuda_sobel_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KSIZE:
      self->ksize = g_value_get_enum (value);
      break;
    case PROP_BORDER:
      self->border = g_value_get_enum (value);
      break;
    case PROP_NORM:
      self->norm = g_value_get_enum (value);
      break;
    case PROP_SCALE:
      self->scale = g_value_get_double (value);
      break;
    case PROP_THRESHOLD:
      self->threshold = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_sobel_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KSIZE:
      g_value_set_enum (value, self->ksize);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->border);
      break;
    case PROP_NORM:
      g_value_set_enum (value, self->norm);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->scale);
      break;
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cuda_sobel_set_info (GstCudaImgFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (filter);
  cudaError_t err = gst_cuda_img_luma_alloc (&self->luma, in);

  if (err != cudaSuccess) {
    gst_cuda_img_filter_post_cuda_error (filter, err,
        "allocating the luma scratch");
    return FALSE;
  }
  return TRUE;
}

static void
gst_cuda_sobel_release (GstCudaImgFilter * filter)
{
  gst_cuda_img_luma_free (&GST_CUDA_SOBEL (filter)->luma);
}

static cudaError_t
gst_cuda_sobel_process (GstCudaImgFilter * filter, const GstCudaImgFrame * in,
    const GstCudaImgFrame * out, cudaStream_t stream)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (filter);
  const guint8 *gray;
  gint pitch;
  CipSobelParams p;
  cudaError_t err;

  GST_OBJECT_LOCK (self);
  p.ksize = self->ksize;
  p.border = self->border == GST_CUDA_IMG_BORDER_REFLECT_101;
  p.l1 = self->norm == GST_CUDA_SOBEL_NORM_L1;
  p.scale = (float) self->scale;
  p.threshold = (int) self->threshold;
  GST_OBJECT_UNLOCK (self);

  err = gst_cuda_img_luma_get (&self->luma, in, stream, &gray, &pitch);
  if (err != cudaSuccess)
    return err;
  return cip_sobel (gray, pitch, out->data[0], out->stride[0],
      GST_VIDEO_INFO_WIDTH (in->info), GST_VIDEO_INFO_HEIGHT (in->info), &p,
      stream);
}

static void
gst_cuda_sobel_class_init (GstCudaSobelClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  static const GstVideoFormat src_formats[] = { GST_VIDEO_FORMAT_GRAY8 };
  const GParamFlags rw_playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_sobel_set_property;
  gobject_class->get_property = gst_cuda_sobel_get_property;

  g_object_class_install_property (gobject_class, PROP_KSIZE,
      g_param_spec_enum ("ksize", "Kernel size",
          "Size of OpenCV's Sobel kernels", GST_TYPE_CUDA_SOBEL_KSIZE,
          DEFAULT_KSIZE, rw_playing));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "What the kernels see outside the frame",
          GST_TYPE_CUDA_SOBEL_BORDER, DEFAULT_BORDER, rw_playing));
  g_object_class_install_property (gobject_class, PROP_NORM,
      g_param_spec_enum ("norm", "Norm",
          "Magnitude of the gradient (gx, gy)", GST_TYPE_CUDA_SOBEL_NORM,
          DEFAULT_NORM, rw_playing));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale",
          "Factor applied to the magnitude before rounding and saturation",
          0.0, 64.0, DEFAULT_SCALE, rw_playing | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "If above 0: output 255 where the scaled magnitude is above it, "
          "else 0 (an edge mask)", 0, 255, DEFAULT_THRESHOLD,
          rw_playing | GST_PARAM_CONTROLLABLE));

  gst_element_class_set_static_metadata (element_class,
      "CUDA Sobel edges", "Filter/Effect/Video/Hardware",
      "Sobel gradient magnitude (OpenCV's kernels, 3x3 to 7x7) on an NVIDIA "
      "GPU", "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  gst_cuda_img_filter_class_set_formats (filter_class,
      gst_cuda_img_gray_formats, gst_cuda_img_n_gray_formats, src_formats,
      G_N_ELEMENTS (src_formats));
  filter_class->set_info = gst_cuda_sobel_set_info;
  filter_class->release = gst_cuda_sobel_release;
  filter_class->process = gst_cuda_sobel_process;
  filter_class->replayable = gst_cuda_img_filter_replay_always;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SOBEL_KSIZE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SOBEL_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SOBEL_NORM, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_sobel_debug, "cudasobel", 0,
      "CUDA Sobel edges");
}

static void
gst_cuda_sobel_init (GstCudaSobel * self)
{
  self->ksize = DEFAULT_KSIZE;
  self->border = DEFAULT_BORDER;
  self->norm = DEFAULT_NORM;
  self->scale = DEFAULT_SCALE;
  self->threshold = DEFAULT_THRESHOLD;
}
