/* cudaimgproc: a frame's kernel launches captured once as a CUDA graph and
 * replayed for later frames with the same buffers and settings.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/* Graphs kept per element: enough for every pairing of the buffers of two
 * pools in steady state (they cycle in order). */
#define GST_CUDA_IMG_REPLAY_ENTRIES 16

/* Frames up to this many pixels replay graphs.  Larger ones launch
 * directly: their kernels outlast a launch, so the host is not what limits
 * a chain, and on the GPU a graph launch costs a little more than a kernel
 * launch (H100, cudagray ! cudaotsu ! cudasobel at 4K: 40.5 µs a frame with
 * graphs, 38.5 without; at 1080p 27.3 with, 35.1 without). */
#define GST_CUDA_IMG_REPLAY_MAX_PIXELS (1u << 22)

/**
 * GstCudaImgReplayKey:
 * @in, @in_stride, @out, @out_stride: the frame's planes, as the launches
 *   take them
 * @gen: the element's settings generation
 *
 * What a frame's launches depend on besides the caps (a new caps clears the
 * cache).  Zero it before filling it: it is compared byte by byte.
 */
typedef struct
{
  guint8 *in[GST_VIDEO_MAX_PLANES];
  gint in_stride[GST_VIDEO_MAX_PLANES];
  guint8 *out[GST_VIDEO_MAX_PLANES];
  gint out_stride[GST_VIDEO_MAX_PLANES];
  gint gen;
} GstCudaImgReplayKey;

typedef struct
{
  GstCudaImgReplayKey key;
  cudaGraphExec_t exec;
  guint64 used;
} GstCudaImgReplayEntry;

typedef struct
{
  GstCudaImgReplayEntry entries[GST_CUDA_IMG_REPLAY_ENTRIES];
  guint n;
  guint64 clock;
  guint debt;                   /* grows with misses, shrinks with hits */
  guint backoff;                /* frames left to launch directly */
  gboolean broken;              /* capture failed: launch directly */
  guint64 hits, misses;
  cudaStream_t capture;         /* captures happen here, never on the
                                 * stream the graphs run on (made at the
                                 * first capture) */
} GstCudaImgReplay;

/* Enqueues the frame's launches on @stream: those the caller makes */
typedef cudaError_t (*GstCudaImgReplayLaunch) (gpointer data,
    cudaStream_t stream);

cudaError_t gst_cuda_img_replay_run (GstCudaImgReplay * replay,
    GstObject * owner, const GstCudaImgReplayKey * key, const gint * gen,
    GstCudaImgReplayLaunch launch, gpointer data, cudaStream_t stream);

void gst_cuda_img_replay_clear (GstCudaImgReplay * replay);

void gst_cuda_img_replay_free (GstCudaImgReplay * replay);

G_END_DECLS
