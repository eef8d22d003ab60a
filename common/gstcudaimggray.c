/* cudaimgproc: any of cudagray's input formats to GRAY8 on the GPU.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimggray.h"
#include "gstcudaimgelement.h"
#include "cip_alloc.h"
#include "gray.h"

#include <math.h>

const GstVideoFormat gst_cuda_img_gray_formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
  GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGB,
  GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_GRAY8,
};

const guint gst_cuda_img_n_gray_formats =
G_N_ELEMENTS (gst_cuda_img_gray_formats);

GType
gst_cuda_img_matrix_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_IMG_MATRIX_BT601,
        "ITU-R BT.601 weights (0.299, 0.587, 0.114), as OpenCV's "
          "COLOR_RGB2GRAY", "bt601"},
    {GST_CUDA_IMG_MATRIX_BT709,
        "ITU-R BT.709 weights (0.2126, 0.7152, 0.0722)", "bt709"},
    {0, NULL, NULL},
  };

  return gst_cuda_img_register_enum (&type, "GstCudaImgMatrix", values);
}

/* Q16 fixed point of the scale; 65536 is exactly 1.0. */
static gint
scale_q16 (gdouble scale)
{
  return (gint) lround (CLAMP (scale, 0.0, 16.0) * CIP_GRAY_SCALE_ONE);
}

/**
 * gst_cuda_img_to_gray:
 *
 * Enqueues on @stream the conversion of @in to GRAY8 at @dst.  Packed RGB
 * formats are weighted by @matrix; YUV formats and GRAY8 give their luma
 * plane (a plain copy at scale 1.0).
 */
cudaError_t
gst_cuda_img_to_gray (const GstCudaImgFrame * in, guint8 * dst, gint dst_pitch,
    GstCudaImgMatrix matrix, gdouble scale, cudaStream_t stream)
{
  const GstVideoFormatInfo *finfo = in->info->finfo;
  gint w = GST_VIDEO_INFO_WIDTH (in->info);
  gint h = GST_VIDEO_INFO_HEIGHT (in->info);
  CipGrayParams p;

  p.scale_q16 = scale_q16 (scale);
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) ||
      GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo))
    return cip_gray_luma (in->data[0], in->stride[0], dst, dst_pitch, w, h,
        p.scale_q16, stream);

  if (matrix == GST_CUDA_IMG_MATRIX_BT709) {
    p.cr = CIP_GRAY_BT709_R;
    p.cg = CIP_GRAY_BT709_G;
    p.cb = CIP_GRAY_BT709_B;
  } else {
    p.cr = CIP_GRAY_BT601_R;
    p.cg = CIP_GRAY_BT601_G;
    p.cb = CIP_GRAY_BT601_B;
  }
  return cip_gray_packed (in->data[0], in->stride[0],
      GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, GST_VIDEO_COMP_R),
      GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_R),
      GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_G),
      GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_B), dst, dst_pitch,
      w, h, &p, stream);
}

/* Context current.  Allocates only for input that is not GRAY8. */
cudaError_t
gst_cuda_img_luma_alloc (GstCudaImgLuma * luma, const GstVideoInfo * in_info)
{
  size_t pitch = 0;
  cudaError_t err;

  luma->scratch = NULL;
  luma->pitch = 0;
  if (GST_VIDEO_INFO_FORMAT (in_info) == GST_VIDEO_FORMAT_GRAY8)
    return cudaSuccess;
  err = cip_malloc_pitch ((void **) &luma->scratch, &pitch,
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      "GRAY8 scratch frame");
  luma->pitch = (gint) pitch;
  return err;
}

void
gst_cuda_img_luma_free (GstCudaImgLuma * luma)
{
  if (luma->scratch)
    cip_free (luma->scratch);
  luma->scratch = NULL;
}

/* Enqueues the conversion if needed; @data, @pitch: the GRAY8 plane. */
cudaError_t
gst_cuda_img_luma_get (GstCudaImgLuma * luma, const GstCudaImgFrame * in,
    cudaStream_t stream, const guint8 ** data, gint * pitch)
{
  if (!luma->scratch) {
    *data = in->data[0];
    *pitch = in->stride[0];
    return cudaSuccess;
  }
  *data = luma->scratch;
  *pitch = luma->pitch;
  return gst_cuda_img_to_gray (in, luma->scratch, luma->pitch,
      GST_CUDA_IMG_MATRIX_BT601, 1.0, stream);
}
