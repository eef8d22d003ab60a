/* cudaimgproc: real-time image segmentation on NVIDIA GPUs.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudaimgalloc.h"
#include "gstcudablobs.h"
#include "gstcudahistogram.h"
#include "gstcudagray.h"
#include "gstcudakmeans.h"
#include "gstcudaotsu.h"
#include "gstcudaoverlay.h"
#include "gstcudasmooth.h"
#include "gstcudasobel.h"
#include "gstcudathin.h"
#include "gstcudathin3d.h"

/* Registration needs no GPU and no driver: the elements look for one when
 * they start, so gst-inspect-1.0 documents them on any machine. */
static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  gst_cuda_img_alloc_init ();
  ret |= GST_ELEMENT_REGISTER (cudagray, plugin);
  ret |= GST_ELEMENT_REGISTER (cudaotsu, plugin);
  ret |= GST_ELEMENT_REGISTER (cudasmooth, plugin);
  ret |= GST_ELEMENT_REGISTER (cudasobel, plugin);
  ret |= GST_ELEMENT_REGISTER (cudathin, plugin);
  ret |= GST_ELEMENT_REGISTER (cudathin3d, plugin);
  ret |= GST_ELEMENT_REGISTER (cudakmeans, plugin);
  ret |= GST_ELEMENT_REGISTER (cudaoverlay, plugin);
  ret |= GST_ELEMENT_REGISTER (cudablobs, plugin);
  ret |= GST_ELEMENT_REGISTER (cudahistogram, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudaimgproc,
    "Real-time image segmentation on NVIDIA GPUs (CUDA)",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
