/* cudaimgproc: cudagray
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudagray
 * @title: cudagray
 *
 * Converts video to 8-bit luma (GRAY8) on an NVIDIA GPU.
 *
 * Packed RGB input (RGBA, BGRA, RGBx, BGRx, xRGB, xBGR, ARGB, ABGR, RGB,
 * BGR) is weighted with integer BT.601 weights by default,
 * `Y = (R * 9798 + G * 19235 + B * 3735 + 16384) >> 15`, which is bit for
 * bit OpenCV's `cvtColor (src, dst, COLOR_RGB2GRAY)` on 8-bit frames (all
 * 2^24 colours checked); BT.709 weights (6966, 23436, 2366) are an option.  YUV input (I420, NV12, Y444)
 * and GRAY8 give their luma plane as is.  The #GstCudaGray:scale property
 * multiplies the result: `out = min (255, (Y * round (scale * 65536) +
 * 32768) >> 16)`, so 1.0 changes nothing.
 *
 * Both pads take `video/x-raw(memory:CUDAMemory)` and system memory; CUDA
 * memory is preferred, and system memory is uploaded and downloaded inside
 * the element.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=300 ! cudagray ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 filesrc location=photo.png ! pngdec ! cudagray matrix=bt709 ! pngenc ! filesink location=gray.png
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudagray.h"
#include "gstcudaimggray.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_gray_debug);
#define GST_CAT_DEFAULT gst_cuda_gray_debug

#define DEFAULT_MATRIX GST_CUDA_IMG_MATRIX_BT601
#define DEFAULT_SCALE 1.0

enum
{
  PROP_0,
  PROP_MATRIX,
  PROP_SCALE,
};

struct _GstCudaGray
{
  GstCudaImgFilter parent;

  GstCudaImgMatrix matrix;
  gdouble scale;
};

#define gst_cuda_gray_parent_class parent_class
G_DEFINE_TYPE (GstCudaGray, gst_cuda_gray, GST_TYPE_CUDA_IMG_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudagray, "cudagray", GST_RANK_NONE,
    GST_TYPE_CUDA_GRAY);

static void
gst_cuda_gray_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaGray *self = GST_CUDA_GRAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MATRIX:
      self->matrix = g_value_get_enum (value);
      break;
    case PROP_SCALE:
      self->scale = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_gray_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaGray *self = GST_CUDA_GRAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MATRIX:
      g_value_set_enum (value, self->matrix);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->scale);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static cudaError_t
gst_cuda_gray_process (GstCudaImgFilter * filter, const GstCudaImgFrame * in,
    const GstCudaImgFrame * out, cudaStream_t stream)
{
  GstCudaGray *self = GST_CUDA_GRAY (filter);
  GstCudaImgMatrix matrix;
  gdouble scale;

  /* Properties may change while playing; each frame takes one snapshot. */
  GST_OBJECT_LOCK (self);
  matrix = self->matrix;
  scale = self->scale;
  GST_OBJECT_UNLOCK (self);

  return gst_cuda_img_to_gray (in, out->data[0], out->stride[0], matrix, scale,
      stream);
}

static void
gst_cuda_gray_class_init (GstCudaGrayClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgFilterClass *filter_class = GST_CUDA_IMG_FILTER_CLASS (klass);
  static const GstVideoFormat src_formats[] = { GST_VIDEO_FORMAT_GRAY8 };

  gobject_class->set_property = gst_cuda_gray_set_property;
  gobject_class->get_property = gst_cuda_gray_get_property;

  g_object_class_install_property (gobject_class, PROP_MATRIX,
      g_param_spec_enum ("matrix", "Matrix",
          "Weights of R, G and B in the luma of packed RGB input (YUV input "
          "keeps its own luma)", GST_TYPE_CUDA_IMG_MATRIX, DEFAULT_MATRIX,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale",
          "Factor applied to the luma, rounded and saturated to 0..255 "
          "(below 1 darkens; 1.0 leaves it exact)", 0.0, 16.0, DEFAULT_SCALE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  gst_element_class_set_static_metadata (element_class,
      "CUDA gray", "Filter/Converter/Video/Hardware",
      "Converts RGB or YUV video to 8-bit luma (GRAY8) on an NVIDIA GPU, "
      "bit-exact with OpenCV's RGB2GRAY",
      "cudaimgproc developers <cudaimgproc@lists.freedesktop.org>");

  gst_cuda_img_filter_class_set_formats (filter_class,
      gst_cuda_img_gray_formats, gst_cuda_img_n_gray_formats, src_formats,
      G_N_ELEMENTS (src_formats));
  filter_class->process = gst_cuda_gray_process;
  filter_class->replayable = gst_cuda_img_filter_replay_always;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_IMG_MATRIX, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_gray_debug, "cudagray", 0,
      "CUDA luma conversion");
}

static void
gst_cuda_gray_init (GstCudaGray * self)
{
  self->matrix = DEFAULT_MATRIX;
  self->scale = DEFAULT_SCALE;
}
