/* cudaimgproc: a frame's planes on the device, and CUDA errors as element
 * errors: what the base class, the transfers, the read-back and every
 * element share, below all of them.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgframe.h"

/**
 * gst_cuda_img_post_cuda_error:
 *
 * Posts @err, which happened while @doing, as an element error a person can
 * act on.
 */
void
gst_cuda_img_post_cuda_error (GstElement * self, cudaError_t err,
    const gchar * doing)
{
  /* Reported here; a non-sticky error must not resurface at a later call. */
  (void) cudaGetLastError ();
  if (err == cudaErrorNotSupported) {
    /* what our one-launch-per-frame elements return on such a device */
    GstElementFactory *f = gst_element_get_factory (self);
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("This GPU cannot run %s: it does not support cooperative kernel "
            "launches.", f ? GST_OBJECT_NAME (f) : G_OBJECT_TYPE_NAME (self)),
        ("cudaDevAttrCooperativeLaunch is 0 (while %s); some virtual GPUs "
            "lack it.", doing));
  } else if (err == cudaErrorMemoryAllocation) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Out of GPU memory while %s.", doing),
        ("%s: %s. Lower the resolution or free GPU memory used by other "
            "processes.", cudaGetErrorName (err), cudaGetErrorString (err)));
  } else {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA error while %s: %s.", doing, cudaGetErrorString (err)),
        ("%s (%d)", cudaGetErrorName (err), (gint) err));
  }
}

void
gst_cuda_img_frame_from_video_frame (GstCudaImgFrame * f,
    const GstVideoInfo * info, const GstVideoFrame * vf)
{
  guint p;

  f->info = info;
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    f->data[p] = p < GST_VIDEO_FRAME_N_PLANES (vf) ?
        GST_VIDEO_FRAME_PLANE_DATA (vf, p) : NULL;
    f->stride[p] = p < GST_VIDEO_FRAME_N_PLANES (vf) ?
        GST_VIDEO_FRAME_PLANE_STRIDE (vf, p) : 0;
  }
}

/* Bytes of a row of plane @p of @info, and its rows. */
void
gst_cuda_img_plane_extent (const GstVideoInfo * info, guint p, gsize * row,
    gint * rows)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, p, comp);
  *row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
      GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
  *rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
}
