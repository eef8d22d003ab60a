/* cudaimgproc: cudagray on the GPU against the CPU reference, and the base
 * class's memory paths (system and CUDA memory on either pad), pools,
 * renegotiation, property changes, chains of our elements and errors.
 * Skips (exit 77) where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "gray.h"
#include "gstcudaimggray.h"
#include "gstcudaimgpool.h"

#include <math.h>

/* ---- reference on a mapped host frame ---------------------------------- */

static void
ref_gray_frame (const GstVideoFrame * f, guint8 * out, gint out_stride,
    gboolean bt709, gint scale_q16)
{
  const GstVideoFormatInfo *fi = f->info.finfo;
  gint w = GST_VIDEO_FRAME_WIDTH (f), h = GST_VIDEO_FRAME_HEIGHT (f);

  if (GST_VIDEO_FORMAT_INFO_IS_YUV (fi) || GST_VIDEO_FORMAT_INFO_IS_GRAY (fi)) {
    ref_gray_luma (GST_VIDEO_FRAME_PLANE_DATA (f, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (f, 0), out, out_stride, w, h, scale_q16);
    return;
  }
  ref_gray_packed (GST_VIDEO_FRAME_PLANE_DATA (f, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (f, 0),
      GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, 0),
      GST_VIDEO_FORMAT_INFO_POFFSET (fi, GST_VIDEO_COMP_R),
      GST_VIDEO_FORMAT_INFO_POFFSET (fi, GST_VIDEO_COMP_G),
      GST_VIDEO_FORMAT_INFO_POFFSET (fi, GST_VIDEO_COMP_B), out, out_stride,
      w, h, bt709 ? CIP_GRAY_BT709_R : CIP_GRAY_BT601_R,
      bt709 ? CIP_GRAY_BT709_G : CIP_GRAY_BT601_G,
      bt709 ? CIP_GRAY_BT709_B : CIP_GRAY_BT601_B, scale_q16);
}

/* Checks a GRAY8 output buffer against the reference of an input buffer. */
static void
check_gray_output (GstBuffer * in, const GstVideoInfo * in_info,
    GstBuffer * out, gboolean bt709, gint scale_q16)
{
  GstVideoInfo out_info;
  GstVideoFrame fi, fo;
  GstVideoMeta *meta;
  guint8 *ref;
  gint w = in_info->width, h = in_info->height;
  glong d;

  gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_GRAY8, w, h);
  meta = gst_buffer_get_video_meta (out);
  if (meta) {
    fail_unless_equals_int (meta->format, GST_VIDEO_FORMAT_GRAY8);
    fail_unless_equals_int (meta->width, w);
    fail_unless_equals_int (meta->height, h);
    fail_unless (meta->stride[0] >= w);
  }
  fail_unless (gst_video_frame_map (&fi, in_info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, &out_info, out, GST_MAP_READ));
  ref = g_malloc ((gsize) w * h);
  ref_gray_frame (&fi, ref, w, bt709, scale_q16);
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), ref, w, w, h);
  fail_unless (d < 0, "%s %dx%d: pixel %ld (x %ld, y %ld) is %d, reference %d",
      GST_VIDEO_INFO_NAME (in_info), w, h, d, d % w, d / w,
      ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 0))[(d / w) *
          GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0) + d % w], ref[d]);
  g_free (ref);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
}

/* ---- kernels through the launchers ------------------------------------- */

/* Every input format, odd sizes, padded and misaligned pitches. */
static void
kernel_case (GstVideoFormat format, gint w, gint h, gint pad, gint misalign,
    gboolean bt709, gdouble scale)
{
  GstVideoInfo info;
  GstVideoFrame hf;
  GstBuffer *hbuf;
  GstCudaImgFrame in;
  guint8 *d_in[GST_VIDEO_MAX_PLANES] = { NULL }, *d_out, *out, *ref;
  gint out_pitch = w + pad + misalign, p;
  gint scale_q16 = (gint) lround (scale * 65536);
  glong d;

  gst_video_info_set_format (&info, format, w, h);
  hbuf = random_sys_buffer (&info, w * 31 + h + format);
  fail_unless (gst_video_frame_map (&hf, &info, hbuf, GST_MAP_READ));

  in.info = &info;
  for (p = 0; p < (gint) GST_VIDEO_INFO_N_PLANES (&info); p++) {
    gint row = GST_VIDEO_INFO_PLANE_STRIDE (&info, p);
    gint ph = GST_VIDEO_FRAME_COMP_HEIGHT (&hf, p == 0 ? 0 : p);
    gint pitch = row + pad + misalign;
    CUDA_OK (cudaMalloc ((void **) &d_in[p], (gsize) pitch * ph + 64));
    in.data[p] = d_in[p] + misalign;
    in.stride[p] = pitch;
    CUDA_OK (cudaMemcpy2D (in.data[p], pitch,
            GST_VIDEO_FRAME_PLANE_DATA (&hf, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (&hf, p), row, ph,
            cudaMemcpyHostToDevice));
  }
  CUDA_OK (cudaMalloc ((void **) &d_out, (gsize) out_pitch * h + 64));
  CUDA_OK (cudaMemset (d_out, 0xa5, (gsize) out_pitch * h + 64));

  CUDA_OK (gst_cuda_img_to_gray (&in, d_out + misalign, out_pitch,
          bt709 ? GST_CUDA_IMG_MATRIX_BT709 : GST_CUDA_IMG_MATRIX_BT601, scale,
          0));
  CUDA_OK (cudaDeviceSynchronize ());

  out = g_malloc ((gsize) out_pitch * h + 64);
  CUDA_OK (cudaMemcpy (out, d_out, (gsize) out_pitch * h + 64,
          cudaMemcpyDeviceToHost));
  ref = g_malloc ((gsize) w * h);
  ref_gray_frame (&hf, ref, w, bt709, scale_q16);
  d = first_diff (out + misalign, out_pitch, ref, w, w, h);
  fail_unless (d < 0, "%s %dx%d pad %d misalign %d bt709 %d scale %g: "
      "pixel %ld is %d, reference %d", gst_video_format_to_string (format), w,
      h, pad, misalign, bt709, scale, d,
      out[misalign + (d / w) * out_pitch + d % w], ref[d]);
  /* Padding bytes are never written. */
  for (p = 0; p < h; p++)
    fail_unless (out[misalign + (gsize) p * out_pitch + w] == 0xa5 ||
        pad + misalign == 0, "row %d padding overwritten", p);

  g_free (out);
  g_free (ref);
  cudaFree (d_out);
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    if (d_in[p])
      cudaFree (d_in[p]);
  gst_video_frame_unmap (&hf);
  gst_buffer_unref (hbuf);
}

GST_START_TEST (test_kernel_formats_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {2, 3}, {7, 1}, {1, 9},
  {17, 5}, {33, 4}, {641, 479}, {1920, 1080}
  };
  guint f, s;

  for (f = 0; f < gst_cuda_img_n_gray_formats; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstVideoFormat fmt = gst_cuda_img_gray_formats[f];
      kernel_case (fmt, sizes[s][0], sizes[s][1], 0, 0, FALSE, 1.0);
      kernel_case (fmt, sizes[s][0], sizes[s][1], 64, 0, TRUE, 1.0);
      /* rows 8-byte aligned, not 16, at 1920: 3-byte pixels 8 a thread */
      kernel_case (fmt, sizes[s][0], sizes[s][1], 8, 0, FALSE, 1.0);
      /* misaligned base and odd pitch: the scalar path */
      kernel_case (fmt, sizes[s][0], sizes[s][1], 3, 1, FALSE, 0.6);
      kernel_case (fmt, sizes[s][0], sizes[s][1], 13, 0, TRUE, 2.5);
    }
  }
}

GST_END_TEST;

/* Weights the IDP2A luma cannot take (16 bits each) are refused before
 * anything is launched, as are no parameters at all. */
GST_START_TEST (test_kernel_bad_weights)
{
  CipGrayParams p = { CIP_GRAY_BT601_R, CIP_GRAY_BT601_G, 65536,
    CIP_GRAY_SCALE_ONE
  };

  fail_unless_equals_int (cip_gray_packed (NULL, 64, 4, 0, 1, 2, NULL, 16,
          16, 1, &p, NULL), cudaErrorInvalidValue);
  p.cb = -1;
  fail_unless_equals_int (cip_gray_packed (NULL, 48, 3, 0, 1, 2, NULL, 16,
          16, 1, &p, NULL), cudaErrorInvalidValue);
  fail_unless_equals_int (cip_gray_packed (NULL, 48, 3, 0, 1, 2, NULL, 16,
          16, 1, NULL, NULL), cudaErrorInvalidValue);
}

GST_END_TEST;

GST_START_TEST (test_kernel_8k)
{
  kernel_case (GST_VIDEO_FORMAT_RGBA, 7680, 4320, 0, 0, FALSE, 1.0);
  kernel_case (GST_VIDEO_FORMAT_BGRx, 7680, 4320, 128, 0, TRUE, 0.8);
  kernel_case (GST_VIDEO_FORMAT_RGB, 7680, 4320, 0, 0, FALSE, 1.0);
  kernel_case (GST_VIDEO_FORMAT_NV12, 7680, 4320, 0, 0, FALSE, 1.0);
  kernel_case (GST_VIDEO_FORMAT_I420, 7679, 4319, 5, 1, FALSE, 0.5);
}

GST_END_TEST;

/* ---- the element through a harness ------------------------------------- */

static void
push_and_check (GstHarness * h, const gchar * format, gint w, gint h_,
    gboolean cuda_in, gboolean expect_cuda_out, gboolean bt709,
    gdouble scale, guint32 seed)
{
  GstVideoInfo info;
  GstBuffer *in, *out;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), w,
      h_);
  in = cuda_in ? random_cuda_buffer (&info, seed) :
      random_sys_buffer (&info, seed);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  fail_unless_equals_int (gst_is_cuda_memory (gst_buffer_peek_memory (out,
              0)), expect_cuda_out);
  check_gray_output (in, &info, out, bt709, (gint) lround (scale * 65536));
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

/* sys->sys, sys->cuda, cuda->sys, cuda->cuda */
GST_START_TEST (test_memory_combinations)
{
  static const gchar *formats[] = { "RGBA", "BGR", "xRGB", "NV12", "I420",
    "Y444", "GRAY8"
  };
  gint combo;
  guint f;

  for (combo = 0; combo < 4; combo++) {
    gboolean cin = combo & 1, cout = combo >> 1;
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      gchar *ic = caps_str (cin, formats[f], 641, 479);
      gchar *oc = g_strdup_printf ("video/x-raw%s,format=GRAY8",
          cout ? "(memory:CUDAMemory)" : "");
      GstHarness *h = filter_harness ("cudagray", ic, oc);
      guint i;

      for (i = 0; i < 3; i++)
        push_and_check (h, formats[f], 641, 479, cin, cout, FALSE, 1.0,
            combo * 100 + f * 10 + i);
      gst_harness_teardown (h);
      g_free (ic);
      g_free (oc);
    }
  }
}

GST_END_TEST;

/* A sink that takes both gets CUDA memory: it is preferred. */
GST_START_TEST (test_prefers_cuda)
{
  GstHarness *h = filter_harness ("cudagray",
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1",
      "video/x-raw(memory:CUDAMemory),format=GRAY8;video/x-raw,format=GRAY8");

  push_and_check (h, "RGBA", 64, 48, FALSE, TRUE, FALSE, 1.0, 7);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* New input caps mid-stream, then a frame checked at the new size. */
static void
renegotiate_and_check (GstHarness * h, gboolean cuda, const gchar * format,
    gint w, gint hh, guint32 seed)
{
  gchar *c = caps_str (cuda, format, w, hh);

  gst_harness_set_src_caps_str (h, c);
  g_free (c);
  push_and_check (h, format, w, hh, cuda, TRUE, FALSE, 1.0, seed);
}

GST_START_TEST (test_renegotiate_size)
{
  GstHarness *h = filter_harness ("cudagray",
      "video/x-raw,format=RGBA,width=320,height=240,framerate=30/1",
      "video/x-raw(memory:CUDAMemory),format=GRAY8");

  push_and_check (h, "RGBA", 320, 240, FALSE, TRUE, FALSE, 1.0, 1);
  renegotiate_and_check (h, FALSE, "RGBA", 641, 479, 2);
  renegotiate_and_check (h, TRUE, "NV12", 1920, 1080, 3);
  renegotiate_and_check (h, FALSE, "BGRx", 3, 2, 4);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_properties_while_playing)
{
  GstHarness *h = filter_harness ("cudagray name=g",
      "video/x-raw,format=RGBA,width=97,height=31,framerate=30/1",
      "video/x-raw,format=GRAY8");
  GstElement *g = gst_bin_get_by_name (GST_BIN (h->element), "g");

  push_and_check (h, "RGBA", 97, 31, FALSE, FALSE, FALSE, 1.0, 1);
  g_object_set (g, "scale", 0.5, NULL);
  push_and_check (h, "RGBA", 97, 31, FALSE, FALSE, FALSE, 0.5, 2);
  gst_util_set_object_arg (G_OBJECT (g), "matrix", "bt709");
  push_and_check (h, "RGBA", 97, 31, FALSE, FALSE, TRUE, 0.5, 3);
  g_object_set (g, "scale", 3.0, NULL);
  push_and_check (h, "RGBA", 97, 31, FALSE, FALSE, TRUE, 3.0, 4);
  gst_object_unref (g);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Two of ours back to back (GPU-side fences, no host sync between them),
 * and with a queue between (threads, buffers returned late to the pool). */
static void
chain_case (const gchar * launch, gint frames)
{
  GstHarness *h = filter_harness (launch,
      "video/x-raw,format=BGRA,width=1920,height=1080,framerate=30/1",
      "video/x-raw,format=GRAY8");
  GstVideoInfo info, ginfo;
  gint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_BGRA, 1920, 1080);
  gst_video_info_set_format (&ginfo, GST_VIDEO_FORMAT_GRAY8, 1920, 1080);
  for (i = 0; i < frames; i++)
    fail_unless_equals_int (gst_harness_push (h, random_sys_buffer (&info,
                i)), GST_FLOW_OK);
  for (i = 0; i < frames; i++) {
    GstBuffer *in = random_sys_buffer (&info, i), *out = gst_harness_pull (h);
    GstVideoFrame fi, fo;
    guint8 *g1 = g_malloc (1920 * 1080), *g2 = g_malloc (1920 * 1080);
    glong d;

    fail_unless (out != NULL);
    /* first element scale 0.5, second 1.5 */
    gst_video_frame_map (&fi, &info, in, GST_MAP_READ);
    ref_gray_frame (&fi, g1, 1920, FALSE, 32768);
    ref_gray_luma (g1, 1920, g2, 1920, 1920, 1080, 98304);
    gst_video_frame_map (&fo, &ginfo, out, GST_MAP_READ);
    d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), g2, 1920, 1920, 1080);
    fail_unless (d < 0, "%s: frame %d pixel %ld differs", launch, i, d);
    gst_video_frame_unmap (&fi);
    gst_video_frame_unmap (&fo);
    g_free (g1);
    g_free (g2);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_START_TEST (test_chain_of_ours)
{
  chain_case ("cudagray scale=0.5 ! cudagray scale=1.5", 12);
  chain_case ("cudagray scale=0.5 ! queue max-size-buffers=3 ! "
      "cudagray scale=1.5", 12);
}

GST_END_TEST;

/* What an application pulling GRAY8 CUDA frames from appsink gets: a device
 * pointer with GST_MAP_CUDA, a correct host copy with a plain map, strides
 * in GstVideoMeta, and a working gst_memory_copy. */
GST_START_TEST (test_appsink_interop)
{
  GstHarness *h = filter_harness ("cudagray",
      "video/x-raw,format=RGBx,width=641,height=479,framerate=30/1",
      "video/x-raw(memory:CUDAMemory),format=GRAY8");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMapInfo dmap, hmap, cmap;
  GstVideoMeta *meta;
  GstMemory *copy;
  guint8 *via_device;
  gint w = 641, hh = 479, y;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBx, w, hh);
  in = random_sys_buffer (&info, 99);
  gst_harness_push (h, gst_buffer_ref (in));
  out = gst_harness_pull (h);
  meta = gst_buffer_get_video_meta (out);
  fail_unless (meta != NULL && meta->format == GST_VIDEO_FORMAT_GRAY8);
  fail_unless (meta->stride[0] >= w && meta->offset[0] == 0);
  check_gray_output (in, &info, out, FALSE, 65536);

  /* device pointer, read back with the runtime API */
  fail_unless (gst_buffer_map (out, &dmap, GST_MAP_READ | GST_MAP_CUDA));
  fail_unless (gst_buffer_map (out, &hmap, GST_MAP_READ));
  via_device = g_malloc ((gsize) w * hh);
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaMemcpy2D (via_device, w, dmap.data, meta->stride[0], w, hh,
          cudaMemcpyDeviceToHost));
  gst_cuda_context_pop (NULL);
  for (y = 0; y < hh; y++)
    fail_unless (memcmp (via_device + (gsize) y * w,
            hmap.data + (gsize) y * meta->stride[0], w) == 0,
        "row %d: device and host views differ", y);
  gst_buffer_unmap (out, &hmap);
  gst_buffer_unmap (out, &dmap);

  /* gst_memory_copy goes through GStreamer's allocator with our layout */
  copy = gst_memory_copy (gst_buffer_peek_memory (out, 0), 0, -1);
  fail_unless (copy != NULL && gst_is_cuda_memory (copy));
  fail_unless (gst_memory_map (copy, &cmap, GST_MAP_READ));
  for (y = 0; y < hh; y++)
    fail_unless (memcmp (via_device + (gsize) y * w,
            cmap.data + (gsize) y * meta->stride[0], w) == 0,
        "row %d of the copy differs", y);
  gst_memory_unmap (copy, &cmap);
  gst_memory_unref (copy);

  g_free (via_device);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- whole pipelines --------------------------------------------------- */

static GstSample *
gst_app_sink_pull_sample_compat (GstElement * appsink)
{
  GstSample *s = NULL;
  g_signal_emit_by_name (appsink, "pull-sample", &s);
  return s;
}

static GstSample *
run_pipeline_pull (const gchar * launch, const gchar * sink, gint * n_out)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (launch, &err);
  GstElement *as;
  GstSample *last = NULL, *s;
  GstMessage *msg;

  fail_unless (pipe != NULL, "%s: %s", launch, err ? err->message : "?");
  as = gst_bin_get_by_name (GST_BIN (pipe), sink);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  *n_out = 0;
  while ((s = gst_app_sink_pull_sample_compat (as))) {
    if (last)
      gst_sample_unref (last);
    last = s;
    (*n_out)++;
  }
  msg = gst_bus_poll (GST_ELEMENT_BUS (pipe), GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR, 10 * GST_SECOND);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "%s did not reach EOS", launch);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (as);
  gst_object_unref (pipe);
  return last;
}

static void
run_to_eos (const gchar * launch)
{
  GstElement *pipe = gst_parse_launch (launch, NULL);
  GstMessage *msg;

  fail_unless (pipe != NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_poll (GST_ELEMENT_BUS (pipe), GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR, 60 * GST_SECOND);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    fail ("%s: %s (%s)", launch, err->message, dbg);
  }
  fail_unless (msg != NULL, "%s: no EOS", launch);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}

GST_START_TEST (test_pipelines_run)
{
  run_to_eos ("videotestsrc num-buffers=300 ! cudagray ! fakesink");
  run_to_eos ("videotestsrc num-buffers=60 ! "
      "video/x-raw,format=NV12,width=1920,height=1080 ! "
      "cudagray ! cudagray scale=0.5 ! videoconvert ! fakesink");
  if (have_cudaupload ()) {
    run_to_eos ("videotestsrc num-buffers=60 ! cudaupload ! cudagray ! "
        "fakesink");
    run_to_eos ("videotestsrc num-buffers=60 ! "
        "video/x-raw,format=NV12,width=1920,height=1080 ! cudaupload ! "
        "cudagray ! cudagray scale=0.5 ! videoconvert ! fakesink");
  }
}

GST_END_TEST;

/* Output of a pipeline against the reference of its input frame. */
static void
pipeline_matches_reference (const gchar * src, const gchar * path,
    const gchar * out_caps, gboolean expect_cuda)
{
  gchar *l_in = g_strdup_printf ("%s ! appsink name=s", src);
  gchar *l_out = g_strdup_printf ("%s ! %s ! %s ! appsink name=s", src, path,
      out_caps);
  GstSample *si, *so;
  GstVideoInfo info;
  gint n_in, n_out;

  si = run_pipeline_pull (l_in, "s", &n_in);
  so = run_pipeline_pull (l_out, "s", &n_out);
  fail_unless (si && so);
  fail_unless_equals_int (n_in, n_out);
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (si)));
  fail_unless_equals_int (gst_is_cuda_memory (gst_buffer_peek_memory
          (gst_sample_get_buffer (so), 0)), expect_cuda);
  check_gray_output (gst_sample_get_buffer (si), &info,
      gst_sample_get_buffer (so), FALSE, 65536);
  gst_sample_unref (si);
  gst_sample_unref (so);
  g_free (l_in);
  g_free (l_out);
}

GST_START_TEST (test_pipeline_round_trips)
{
  const gchar *src = "videotestsrc num-buffers=5 pattern=colors ! "
      "video/x-raw,format=RGBA,width=641,height=479";
  const gchar *nv12 = "videotestsrc num-buffers=5 pattern=smpte ! "
      "video/x-raw,format=NV12,width=1280,height=720";

  /* system memory in and out */
  pipeline_matches_reference (src, "cudagray", "video/x-raw,format=GRAY8",
      FALSE);
  pipeline_matches_reference (nv12, "cudagray", "video/x-raw,format=GRAY8",
      FALSE);
  /* our CUDA memory out, to an application */
  pipeline_matches_reference (src, "cudagray",
      "video/x-raw(memory:CUDAMemory),format=GRAY8", TRUE);
  /* cudaupload (a foreign CUDA producer) in */
  if (have_cudaupload ()) {
    pipeline_matches_reference (src, "cudaupload ! cudagray",
        "video/x-raw(memory:CUDAMemory),format=GRAY8", TRUE);
    pipeline_matches_reference (nv12, "cudaupload ! cudagray",
        "video/x-raw,format=GRAY8", FALSE);
  }
}

GST_END_TEST;

GST_START_TEST (test_bad_device_id)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "cudagray cuda-device-id=99 ! fakesink", NULL);

  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  g_free (expect_error (GST_ELEMENT_BUS (pipe), GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND, "does not exist"));
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* Out of GPU memory at caps time: an element error, no crash, and the
 * element works again once memory is back.  The device is filled first, so
 * that an 8K frame's scratch cannot fit. */
GST_START_TEST (test_out_of_memory)
{
  GstElement *e = gst_element_factory_make ("cudagray", NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstMessage *msg;
  size_t free_b = 0, total_b = 0;
  void *hog = NULL;

  gst_element_set_bus (e, bus);
  gpu_test_share_context (e);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8");
  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=64,"
      "height=64,framerate=30/1");
  push_and_check (h, "RGBA", 64, 64, FALSE, FALSE, FALSE, 1.0, 5);

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaMemGetInfo (&free_b, &total_b));
  /* leave 8 MB: an 8K RGBA upload scratch needs 133 MB */
  while (free_b > (64 << 20) && cudaMalloc (&hog, free_b - (8 << 20)) !=
      cudaSuccess) {
    cudaGetLastError ();
    free_b -= 64 << 20;
  }
  gst_cuda_context_pop (NULL);
  fail_unless (hog != NULL, "could not fill the GPU's memory");

  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=7680,"
      "height=4320,framerate=30/1");
  g_free (expect_error (bus, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT, "Out of GPU memory"));

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaFree (hog));
  gst_cuda_context_pop (NULL);
  while ((msg = gst_bus_pop (bus)))
    gst_message_unref (msg);

  /* The element is usable again at a size that fits. */
  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=65,"
      "height=33,framerate=30/1");
  push_and_check (h, "RGBA", 65, 33, FALSE, FALSE, FALSE, 1.0, 6);
  gst_harness_teardown (h);
  gst_object_unref (e);
  gst_object_unref (bus);
}

GST_END_TEST;

static Suite *
gray_gpu_suite (void)
{
  Suite *s = suite_create ("cudagray-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_kernel_formats_sizes);
  tcase_add_test (tc, test_kernel_bad_weights);
  tcase_add_test (tc, test_kernel_8k);
  tcase_add_test (tc, test_memory_combinations);
  tcase_add_test (tc, test_prefers_cuda);
  tcase_add_test (tc, test_renegotiate_size);
  tcase_add_test (tc, test_properties_while_playing);
  tcase_add_test (tc, test_chain_of_ours);
  tcase_add_test (tc, test_appsink_interop);
  tcase_add_test (tc, test_pipelines_run);
  tcase_add_test (tc, test_pipeline_round_trips);
  tcase_add_test (tc, test_bad_device_id);
  tcase_add_test (tc, test_out_of_memory);
  return s;
}

GPU_CHECK_MAIN (gray_gpu);
