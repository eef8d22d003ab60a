/* cudaimgproc pipeline benchmarks: what cudaimgproc-pipeline-bench and
 * cudaimgproc-streams-bench share (input frames, the PCIe rates, medians).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "gstbench.h"
#include "content.h"
#include "gstcudaimgpool.h"
#include <cuda_runtime_api.h>

int
bench_cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
bench_median (double *v, gint n)
{
  qsort (v, n, sizeof (double), bench_cmp_double);
  return v[n / 2];
}

/* Page-locked copy bandwidth each way, bytes a second, in the context
 * current (or the runtime's primary context). */
gboolean
bench_measure_pcie (double *h2d_bps, double *d2h_bps)
{
  const size_t size = 64 << 20;
  void *host = NULL, *dev = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  cudaStream_t st = NULL;
  double t[2][12];
  cudaError_t err;
  gint d, i;

  err = cudaMallocHost (&host, size);
  if (err == cudaSuccess)
    err = cudaMalloc (&dev, size);
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags (&st, cudaStreamNonBlocking);
  if (err == cudaSuccess)
    err = cudaEventCreate (&e0);
  if (err == cudaSuccess)
    err = cudaEventCreate (&e1);
  if (err == cudaSuccess)
    memset (host, 0x5a, size);
  for (d = 0; d < 2 && err == cudaSuccess; d++)
    for (i = 0; i < 12 && err == cudaSuccess; i++) {
      float ms = 0;
      cudaEventRecord (e0, st);
      err = d == 0 ? cudaMemcpyAsync (dev, host, size, cudaMemcpyHostToDevice,
          st) : cudaMemcpyAsync (host, dev, size, cudaMemcpyDeviceToHost, st);
      cudaEventRecord (e1, st);
      if (err == cudaSuccess)
        err = cudaEventSynchronize (e1);
      cudaEventElapsedTime (&ms, e0, e1);
      t[d][i] = ms * 1e-3;
    }
  if (err == cudaSuccess) {
    *h2d_bps = size / bench_median (t[0] + 2, 10);
    *d2h_bps = size / bench_median (t[1] + 2, 10);
  }
  if (e0)
    cudaEventDestroy (e0);
  if (e1)
    cudaEventDestroy (e1);
  if (st)
    cudaStreamDestroy (st);
  cudaFree (dev);
  cudaFreeHost (host);
  return err == cudaSuccess;
}

/* An RGBA frame of @rgba (packed): in CUDA memory of @ctx, or in system
 * memory where @ctx is NULL. */
GstBuffer *
bench_make_input (GstCudaContext * ctx, const GstVideoInfo * info,
    const uint8_t * rgba)
{
  GstVideoInfo vinfo = *info;
  GstBuffer *buf;
  GstVideoFrame f;
  gint y, w = GST_VIDEO_INFO_WIDTH (info);

  if (ctx) {
    GstMemory *mem = gst_cuda_img_memory_alloc (ctx, info, &vinfo);
    if (!mem)
      return NULL;
    buf = gst_buffer_new ();
    gst_buffer_append_memory (buf, mem);
    gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_INFO_FORMAT (&vinfo),
        vinfo.width, vinfo.height, GST_VIDEO_INFO_N_PLANES (&vinfo),
        vinfo.offset, vinfo.stride);
  } else {
    buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  }
  if (!gst_video_frame_map (&f, &vinfo, buf, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    return NULL;
  }
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0),
        rgba + (gsize) y * w * 4, (gsize) w * 4);
  gst_video_frame_unmap (&f);
  return buf;
}

/* Whether argv[*i] is one of BenchOptions' options (--photo FILE W H
 * loads the photograph); if so, takes it and its values into @o and
 * moves *i to the last of them. */
gboolean
bench_option (gint argc, gchar ** argv, gint * i, BenchOptions * o)
{
  const gchar *a = argv[*i];

  if (!strcmp (a, "--photo") && *i + 3 < argc) {
    if (!load_photo (argv[*i + 1], atoi (argv[*i + 2]), atoi (argv[*i + 3])))
      fprintf (stderr, "could not read %s\n", argv[*i + 1]);
    *i += 3;
  } else if (!strcmp (a, "--json") && *i + 1 < argc) {
    o->json = fopen (argv[++*i], "a");
  } else if (!strcmp (a, "--only") && *i + 1 < argc) {
    o->only = argv[++*i];
  } else if (!strcmp (a, "--size") && *i + 1 < argc) {
    if (sscanf (argv[++*i], "%dx%d", &o->w, &o->h) != 2)
      o->w = o->h = 0;
  } else if (!strcmp (a, "--memory") && *i + 1 < argc) {
    o->memory = argv[++*i];
  } else if (!strcmp (a, "--chain") && *i + 2 < argc) {
    o->chain = argv[++*i];
    o->format = argv[++*i];
  } else {
    return FALSE;
  }
  return TRUE;
}
