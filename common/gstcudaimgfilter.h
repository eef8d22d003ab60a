/* cudaimgproc: base class of every element: CUDA context, stream, caps in
 * CUDA or system memory on both pads, pools, upload and download.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <cuda_runtime_api.h>

#include "gstcudaimgelement.h"
#include "gstcudaimgframe.h"
#include "gstcudaimgreadback.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_IMG_FILTER (gst_cuda_img_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaImgFilter, gst_cuda_img_filter, GST,
    CUDA_IMG_FILTER, GstBaseTransform);

/**
 * GstCudaImgFilterClass:
 * @output_format: optional: the output format for an accepted input
 *   format.  Without it, the source pad's one format where it has one
 *   (GRAY8 out of anything), else the input's.
 * @output_size: optional: TRUE and the output's size where it does not
 *   follow the input's (a picture drawn of the frame, cudahistogram); the
 *   output's pixel aspect ratio is then 1/1, and any input size is taken.
 *   Both read the frame's settings (@snapshot), not the properties:
 *   before each frame the base class renegotiates where they no longer
 *   give the negotiated output.
 * @snapshot: optional: copy the properties a frame uses into the element's
 *   frame settings; called with the object lock held: once constructed,
 *   on each property set while no streaming thread runs (NULL, READY), at
 *   start, and in the streaming thread at each new caps and before each
 *   frame (after controlled properties took the frame's values).
 *   @output_format, @output_size, @set_info and @process read that copy,
 *   so a frame never mixes the settings of both sides of a change made
 *   while it is processed: its caps and its kernels follow one state.
 * @set_info: new caps; allocate per-caps device scratch here (the CUDA
 *   context is current).  Return FALSE after posting an error.
 * @release: free what @set_info allocated (context current, stream idle)
 * @process: enqueue the frame's kernels on @stream; return the first CUDA
 *   error.  Never synchronize: the base class does where the host or a
 *   foreign element needs the data.
 * @gather: optional, for elements that take several frames before they give
 *   any (cudathin3d: the slices of a volume).  Called instead of @process
 *   with each input frame (on the device, context current): enqueue the
 *   copy of what it needs on @stream; the frame gives no output.  The
 *   element makes its outputs later with gst_cuda_img_filter_emit (), each
 *   of which runs @process with an @in frame of no data.
 * @replayable: optional: TRUE where this frame's @process only enqueues
 *   launches whose arguments follow from the frame's planes, the caps and
 *   the properties (gst_cuda_img_filter_replay_always for elements where
 *   that always holds).  The launches are then captured as a CUDA graph
 *   once per pair of buffers and replayed for later frames, until a
 *   property is set or the caps change.  While its stream is capturing
 *   (cudaStreamIsCapturing), @process must not consume one-shot state or
 *   do host bookkeeping: the graph replays it without calling @process.
 */
struct _GstCudaImgFilterClass
{
  GstBaseTransformClass parent_class;

  /*< private >*/
  GstVideoFormat *sink_formats;
  guint n_sink_formats;
  GstVideoFormat only_src_format;       /* UNKNOWN: several */
  gsize message_size;
  GstCudaImgReadbackBuild build_message;
  gsize result_size;

  /*< public >*/
  GstVideoFormat (*output_format) (GstCudaImgFilter * self,
      GstVideoFormat in_format);
  gboolean (*set_info) (GstCudaImgFilter * self, const GstVideoInfo * in_info,
      const GstVideoInfo * out_info);
  void (*release) (GstCudaImgFilter * self);
  cudaError_t (*process) (GstCudaImgFilter * self, const GstCudaImgFrame * in,
      const GstCudaImgFrame * out, cudaStream_t stream);
  cudaError_t (*gather) (GstCudaImgFilter * self, GstBuffer * inbuf,
      const GstCudaImgFrame * in, cudaStream_t stream);
  gboolean (*replayable) (GstCudaImgFilter * self);
  void (*finish) (GstCudaImgFilter * self, GstBuffer * outbuf,
      gconstpointer result);
  gboolean (*output_size) (GstCudaImgFilter * self, gint * width,
      gint * height);
  void (*snapshot) (GstCudaImgFilter * self);
};

/* What @process or @gather returns after posting an error of its own (one
 * that says more than a CUDA error would): the frame fails, and the base
 * class posts nothing more. */
#define GST_CUDA_IMG_ERROR_POSTED ((cudaError_t) 0x7fffff00)

void gst_cuda_img_filter_class_set_formats (GstCudaImgFilterClass * klass,
    const GstVideoFormat * sink_formats, guint n_sink_formats,
    const GstVideoFormat * src_formats, guint n_src_formats);

/* For elements that post a message a frame (a post-messages property):
 * the base class keeps a device record of @size bytes per caps, from
 * before @set_info to after @release, stamps each frame's message with
 * its output's timestamp, posts it once on the host (with its frame, where
 * a thread pushes the frame) and every one before EOS.  @process writes
 * the record (gst_cuda_img_filter_messages ()->device) and enqueues its
 * copy where the frame has a message (gst_cuda_img_readback_enqueue);
 * @build makes the message of the bytes read back. */
void gst_cuda_img_filter_class_set_messages (GstCudaImgFilterClass * klass,
    gsize size, GstCudaImgReadbackBuild build);
GstCudaImgReadback *gst_cuda_img_filter_messages (GstCudaImgFilter * self);

/* For elements whose output carries what its kernels found (metadata):
 * the base class keeps a device record of @size bytes per caps, copies it
 * after each frame's @process to page-locked memory of the frame's own
 * (no wait), always pushes the frame from a thread of its own once the
 * GPU is done with it, and there, just before the push, calls @finish
 * with the writable output buffer and the frame's record (the copy is
 * enqueued outside a replayed graph, so @process may still be replayed). */
void gst_cuda_img_filter_class_set_results (GstCudaImgFilterClass * klass,
    gsize size, void (*finish) (GstCudaImgFilter * self, GstBuffer * outbuf,
        gconstpointer result));
gpointer gst_cuda_img_filter_result (GstCudaImgFilter * self);

gboolean gst_cuda_img_filter_replay_always (GstCudaImgFilter * self);

/* The border modes of the stencil elements, the kernels' cip::BORDER_*
 * values; each element registers its own type name for them. */
typedef enum
{
  GST_CUDA_IMG_BORDER_REPLICATE,
  GST_CUDA_IMG_BORDER_REFLECT_101,
} GstCudaImgBorder;

GType gst_cuda_img_register_border_enum (gsize * type, const gchar * name);

/* For elements with @gather, from the streaming thread: makes and pushes
 * one output frame with @timing's timestamps and flags (a buffer of no
 * memory, taken), through @process and the usual download or device
 * path. */
GstFlowReturn gst_cuda_img_filter_emit (GstCudaImgFilter * self,
    GstBuffer * timing);

void gst_cuda_img_filter_post_cuda_error (GstCudaImgFilter * self,
    cudaError_t err, const gchar * doing);

G_END_DECLS
