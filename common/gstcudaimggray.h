/* cudaimgproc: any of cudagray's input formats to GRAY8 on the GPU, shared
 * by every element that takes colour input and works on luma.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstcudaimgframe.h"

G_BEGIN_DECLS

typedef enum
{
  GST_CUDA_IMG_MATRIX_BT601,
  GST_CUDA_IMG_MATRIX_BT709,
} GstCudaImgMatrix;

#define GST_TYPE_CUDA_IMG_MATRIX (gst_cuda_img_matrix_get_type ())
GType gst_cuda_img_matrix_get_type (void);

/* What cudagray takes: packed RGB family, luma of YUV, and GRAY8 itself. */
extern const GstVideoFormat gst_cuda_img_gray_formats[];
extern const guint gst_cuda_img_n_gray_formats;

cudaError_t gst_cuda_img_to_gray (const GstCudaImgFrame * in, guint8 * dst,
    gint dst_pitch, GstCudaImgMatrix matrix, gdouble scale,
    cudaStream_t stream);

/* The luma of an element's input: the input itself when it is GRAY8, else
 * a conversion into scratch allocated at caps time. */
typedef struct
{
  guint8 *scratch;
  gint pitch;
} GstCudaImgLuma;

cudaError_t gst_cuda_img_luma_alloc (GstCudaImgLuma * luma,
    const GstVideoInfo * in_info);
void gst_cuda_img_luma_free (GstCudaImgLuma * luma);
cudaError_t gst_cuda_img_luma_get (GstCudaImgLuma * luma,
    const GstCudaImgFrame * in, cudaStream_t stream, const guint8 ** data,
    gint * pitch);

G_END_DECLS
