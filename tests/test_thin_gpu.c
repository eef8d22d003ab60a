/* cudaimgproc: cudathin on the GPU against the CPU reference (itself
 * checked against OpenCV's ximgproc thinning in test_reference): every
 * method on blobs, noise, lines, single pixels, full frames, checkerboards
 * and text-like strokes, touching the border or not, odd, tiny and padded
 * sizes; max-iterations, idempotence, large frames against the naive
 * one-launch-per-pass loop, and the element.  Skips (exit 77) where no
 * CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "thin.h"

typedef enum
{
  PAT_DISCS, PAT_NOISE, PAT_RECTS,      /* ref_thin_frame's kinds */
  PAT_FULL, PAT_CHECKER, PAT_SPARSE, PAT_TEXT, PAT_N
} Pattern;

/* 0/255 test frame, tight */
static void
make_frame (guint8 * img, gint w, gint h, Pattern pat, guint32 seed,
    gint margin)
{
  gint x, y, i;

  if (pat <= PAT_RECTS) {
    ref_thin_frame (img, w, h, pat, seed, margin);
    return;
  }
  memset (img, 0, (gsize) w * h);
  for (y = margin; y < h - margin; y++)
    for (x = margin; x < w - margin; x++) {
      guint8 v = 0;
      switch (pat) {
        case PAT_FULL:
          v = 255;
          break;
        case PAT_CHECKER:
          v = ((x + y) & 1) ? 255 : 0;
          break;
        case PAT_SPARSE:       /* single pixels and pairs */
          v = ((x * 7 + y * 13 + seed) % 23 == 0) ? 255 : 0;
          break;
        default:               /* strokes 2..6 px thick, like glyphs */
          i = (x / 12 + y / 16 + seed) % 5;
          v = (i == 0 && x % 12 < 2 + (gint) (seed % 5)) ||
              (i == 1 && y % 16 < 3) || (i == 2 && (x + y) % 11 < 4) ||
              (i == 3 && (x % 12 < 3 || y % 16 > 12)) ? 255 : 0;
          break;
      }
      img[(gsize) y * w + x] = v;
    }
}

/* The launcher on one frame against ref_thin: every pixel, passes and
 * convergence.  @pad: extra pitch; @mis: misaligned base addresses. */
static void
thin_case (CipThin * th, gint w, gint h, gint pad, gint mis,
    const guint8 * frame, CipThinMethod method, CipThinBorder border,
    guint max_passes)
{
  gint pitch = w + pad + mis;
  guint8 *host = g_malloc0 ((gsize) pitch * h), *out =
      g_malloc ((gsize) pitch * h);
  guint8 *ref = g_memdup2 (frame, (gsize) w * h), *d_src, *d_dst;
  CipThinResult *d_res, res;
  unsigned passes;
  gint conv, y, i;
  glong d;

  for (y = 0; y < h; y++)
    memcpy (host + mis + (gsize) y * pitch, frame + (gsize) y * w, w);
  CUDA_OK (cudaMalloc ((void **) &d_src, (gsize) pitch * h + 16));
  CUDA_OK (cudaMalloc ((void **) &d_dst, (gsize) pitch * h + 16));
  CUDA_OK (cudaMalloc ((void **) &d_res, sizeof (res)));
  CUDA_OK (cudaMemcpy (d_src, host, (gsize) pitch * h, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemset (d_dst, 0xa5, (gsize) pitch * h + 16));
  CUDA_OK (cip_thin (th, d_src + mis, pitch, d_dst + mis, pitch, method,
          border, max_passes, d_res, 0));
  CUDA_OK (cudaMemcpy (out, d_dst, (gsize) pitch * h, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (&res, d_res, sizeof (res), cudaMemcpyDeviceToHost));

  passes = ref_thin (ref, w, h, method, max_passes, &conv,
      border == CIP_THIN_BORDER_OPENCV);
  for (i = 0; i < w * h; i++)
    ref[i] *= 255;
  d = first_diff (out + mis, pitch, ref, w, w, h);
  fail_unless (d < 0, "%dx%d pad %d mis %d method %d border %d max %u: "
      "pixel (%ld, %ld) is %d, reference %d", w, h, pad, mis, method, border,
      max_passes, d % w, d / w, out[mis + (d / w) * pitch + d % w], ref[d]);
  fail_unless (res.passes == passes && res.converged == (guint) conv,
      "%dx%d method %d max %u: %u passes (converged %u), reference %u (%d)",
      w, h, method, max_passes, res.passes, res.converged, passes, conv);
  /* the padding between rows is not written */
  for (y = 0; y + 1 < h && pad; y++)
    fail_unless (out[mis + (gsize) y * pitch + w] == 0xa5);
  cudaFree (d_src);
  cudaFree (d_dst);
  cudaFree (d_res);
  g_free (host);
  g_free (out);
  g_free (ref);
}

static void
frame_case (gint w, gint h, Pattern pat, gint margin, guint32 seed,
    CipThinMethod method, CipThinBorder border, guint max_passes, gint pad,
    gint mis)
{
  guint8 *frame = g_malloc ((gsize) w * h);
  CipThin *th;

  make_frame (frame, w, h, pat, seed, margin);
  CUDA_OK (cip_thin_create (&th, w, h));
  thin_case (th, w, h, pad, mis, frame, method, border, max_passes);
  cip_thin_destroy (th);
  g_free (frame);
}

GST_START_TEST (test_kernel_patterns_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {2, 3}, {5, 4}, {1, 9},
  {9, 1}, {17, 9}, {31, 33}, {33, 31}, {64, 64}, {100, 37}, {255, 257},
  {257, 33}, {300, 70}, {641, 479}
  };
  guint s;
  gint pat, m, margin, b;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (pat = 0; pat < PAT_N; pat++)
      for (m = 0; m < 3; m++)
        for (margin = 0; margin < 2; margin++)
          for (b = 0; b < 2; b++) {
            gint w = sizes[s][0], h = sizes[s][1];
            frame_case (w, h, pat, margin, s * 31 + pat, m, b, 0,
                (s & 1) ? 37 : 0, (s % 3 == 2) ? 1 : 0);
          }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* Stopping after exactly n passes, inside and across the 8-pass steps;
 * one scratch reused for many frames. */
GST_START_TEST (test_kernel_max_iterations)
{
  static const guint maxes[] = { 1, 2, 7, 8, 9, 15, 16, 17, 40, 0 };
  const gint w = 300, h = 200;
  guint8 *frame = g_malloc ((gsize) w * h);
  CipThin *th;
  guint i;
  gint m;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cip_thin_create (&th, w, h));
  for (m = 0; m < 3; m++)
    for (i = 0; i < G_N_ELEMENTS (maxes); i++) {
      make_frame (frame, w, h, PAT_DISCS, 7 + i, 0);
      thin_case (th, w, h, 0, 0, frame, m, i & 1, maxes[i]);
      make_frame (frame, w, h, PAT_FULL, 0, 0);
      thin_case (th, w, h, 0, 0, frame, m, i & 1, maxes[i]);
    }
  cip_thin_destroy (th);
  g_free (frame);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* Thinning a skeleton changes nothing and takes no pass. */
GST_START_TEST (test_kernel_idempotent)
{
  const gint w = 517, h = 301;
  guint8 *frame = g_malloc ((gsize) w * h), *d_a, *d_b, *once, *twice;
  CipThinResult *d_res, res;
  CipThin *th;
  gint m, pat;

  once = g_malloc ((gsize) w * h);
  twice = g_malloc ((gsize) w * h);
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cip_thin_create (&th, w, h));
  CUDA_OK (cudaMalloc ((void **) &d_a, (gsize) w * h));
  CUDA_OK (cudaMalloc ((void **) &d_b, (gsize) w * h));
  CUDA_OK (cudaMalloc ((void **) &d_res, sizeof (res)));
  for (m = 0; m < 3; m++)
    for (pat = 0; pat < PAT_N; pat++) {
      make_frame (frame, w, h, pat, 3, 0);
      CUDA_OK (cudaMemcpy (d_a, frame, (gsize) w * h, cudaMemcpyHostToDevice));
      CUDA_OK (cip_thin (th, d_a, w, d_b, w, m, CIP_THIN_BORDER_BACKGROUND,
              0, NULL, 0));
      CUDA_OK (cip_thin (th, d_b, w, d_a, w, m, CIP_THIN_BORDER_BACKGROUND,
              0, d_res, 0));
      CUDA_OK (cudaMemcpy (once, d_b, (gsize) w * h, cudaMemcpyDeviceToHost));
      CUDA_OK (cudaMemcpy (twice, d_a, (gsize) w * h, cudaMemcpyDeviceToHost));
      CUDA_OK (cudaMemcpy (&res, d_res, sizeof (res), cudaMemcpyDeviceToHost));
      fail_unless (memcmp (once, twice, (gsize) w * h) == 0,
          "method %d pattern %d: thinning the skeleton changed it", m, pat);
      fail_unless (res.passes == 0 && res.converged, "method %d pattern %d: "
          "%u passes on a skeleton", m, pat, res.passes);
    }
  cudaFree (d_a);
  cudaFree (d_b);
  cudaFree (d_res);
  cip_thin_destroy (th);
  g_free (frame);
  g_free (once);
  g_free (twice);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The naive loop: one launch per sub-iteration, a flag read back each
 * pass.  Returns the passes that removed pixels; result in @d_a as 0/1. */
static guint
naive_thin (guint8 * d_a, guint8 * d_b, gint w, gint h, CipThinMethod m,
    unsigned *d_flag)
{
  guint passes = 0;

  for (;;) {
    unsigned changed = 0;
    gint sub, nsub = m == CIP_THIN_HILDITCH ? 1 : 2;

    CUDA_OK (cudaMemset (d_flag, 0, sizeof (unsigned)));
    for (sub = 0; sub < nsub; sub++) {
      CUDA_OK (cip_thin_naive_step (d_a, d_b, w, w, h, m, sub, d_flag, 0));
      CUDA_OK (cudaMemcpy (d_a, d_b, (gsize) w * h, cudaMemcpyDeviceToDevice));
    }
    CUDA_OK (cudaMemcpy (&changed, d_flag, sizeof (unsigned),
            cudaMemcpyDeviceToHost));
    if (!changed)
      return passes;
    passes++;
  }
}

/* Large frames against the naive loop (the CPU reference would take
 * minutes): 4096x4096 all foreground (2048 Hilditch passes) and 8K. */
static void
large_case (gint w, gint h, Pattern pat, CipThinMethod m)
{
  guint8 *frame = g_malloc ((gsize) w * h), *a = g_malloc ((gsize) w * h);
  guint8 *b = g_malloc ((gsize) w * h), *d_in, *d_out, *d_a, *d_b;
  CipThinResult *d_res, res;
  unsigned *d_flag;
  CipThin *th;
  guint passes;
  gsize i;

  make_frame (frame, w, h, pat, 5, 0);
  CUDA_OK (cip_thin_create (&th, w, h));
  CUDA_OK (cudaMalloc ((void **) &d_in, (gsize) w * h));
  CUDA_OK (cudaMalloc ((void **) &d_out, (gsize) w * h));
  CUDA_OK (cudaMalloc ((void **) &d_a, (gsize) w * h));
  CUDA_OK (cudaMalloc ((void **) &d_b, (gsize) w * h));
  CUDA_OK (cudaMalloc ((void **) &d_res, sizeof (res)));
  CUDA_OK (cudaMalloc ((void **) &d_flag, sizeof (unsigned)));
  CUDA_OK (cudaMemcpy (d_in, frame, (gsize) w * h, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemcpy (d_a, frame, (gsize) w * h, cudaMemcpyHostToDevice));
  CUDA_OK (cip_thin (th, d_in, w, d_out, w, m, CIP_THIN_BORDER_BACKGROUND,
          0, d_res, 0));
  passes = naive_thin (d_a, d_b, w, h, m, d_flag);
  CUDA_OK (cudaMemcpy (a, d_out, (gsize) w * h, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (b, d_a, (gsize) w * h, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (&res, d_res, sizeof (res), cudaMemcpyDeviceToHost));
  for (i = 0; i < (gsize) w * h; i++)
    fail_unless ((a[i] != 0) == (b[i] != 0), "%dx%d method %d pattern %d: "
        "pixel (%zu, %zu) differs from the naive loop", w, h, m, pat,
        i % w, i / w);
  fail_unless (res.passes == passes && res.converged,
      "%u passes, naive loop %u", res.passes, passes);
  g_print ("%dx%d pattern %d method %d: %u passes, %u steps, %u of %u "
      "tile-steps computed\n", w, h, pat, m, res.passes, res.steps,
      res.tiles, res.steps * ((w + 255) / 256) * ((h + 31) / 32));
  cudaFree (d_in);
  cudaFree (d_out);
  cudaFree (d_a);
  cudaFree (d_b);
  cudaFree (d_res);
  cudaFree (d_flag);
  cip_thin_destroy (th);
  g_free (frame);
  g_free (a);
  g_free (b);
}

GST_START_TEST (test_kernel_large)
{
  gint m;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  large_case (4096, 4096, PAT_FULL, CIP_THIN_HILDITCH);
  for (m = 0; m < 3; m++) {
    large_case (7680, 4320, PAT_DISCS, m);
    large_case (7680, 4320, PAT_TEXT, m);
  }
  /* a frame whose grid fills a little more than half the GPU (1080p on an
   * H200): the lean kernel, which leaves room for a second frame beside it
   * (kernels/thin.cu): 8 tiles a row, rows for twice as many tiles as SMs
   * and a row more */
  {
    gint sms = 0, dev = 0, h;

    CUDA_OK (cudaGetDevice (&dev));
    CUDA_OK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
            dev));
    h = 32 * (2 * sms / 8 + 1) - 5;
    for (m = 0; m < 3; m++) {
      large_case (2011, h, PAT_DISCS, m);
      large_case (2011, h, PAT_TEXT, m);
      frame_case (2011, h, PAT_NOISE, 0, 11 + m, m, m == 1 ?
          CIP_THIN_BORDER_OPENCV : CIP_THIN_BORDER_BACKGROUND, 0, 3, 1);
    }
  }
  /* and 8K noise against the CPU reference itself (few passes) */
  frame_case (7680, 4320, PAT_NOISE, 0, 9, CIP_THIN_GUO_HALL,
      CIP_THIN_BORDER_BACKGROUND, 0, 0, 0);
  frame_case (7680, 4320, PAT_NOISE, 0, 10, CIP_THIN_ZHANG_SUEN,
      CIP_THIN_BORDER_OPENCV, 0, 0, 0);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* ---- the element ------------------------------------------------------- */

typedef MsgHarness Thin;

static Thin
thin_new (const gchar * launch, const gchar * in_caps, const gchar * out)
{
  return msg_harness_new (launch, in_caps, out, "t");
}

/* Pushes a frame, checks every pixel (against the reference with the
 * element's border rule) and, if @msg, the message. */
static void
element_frame (Thin * t, gint w, gint h, gboolean cuda, Pattern pat,
    guint32 seed, CipThinMethod m, guint max, gboolean msg)
{
  guint8 *frame = g_malloc ((gsize) w * h);
  GstVideoInfo info;
  GstVideoFrame fo;
  GstBuffer *in, *out;
  unsigned passes;
  gint conv, i, border;
  glong d;

  make_frame (frame, w, h, pat, seed, 0);
  in = gray_frame_buffer (frame, w, h, cuda);
  GST_BUFFER_PTS (in) = seed * GST_MSECOND;
  g_object_get (t->e, "border", &border, NULL);
  passes = ref_thin (frame, w, h, m, max, &conv,
      border == CIP_THIN_BORDER_OPENCV);
  for (i = 0; i < w * h; i++)
    frame[i] *= 255;

  fail_unless_equals_int (gst_harness_push (t->h, in), GST_FLOW_OK);
  out = gst_harness_pull (t->h);
  fail_unless (out != NULL);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), frame, w, w, h);
  fail_unless (d < 0, "%dx%d method %d: pixel %ld differs", w, h, m, d);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (out);

  if (msg) {
    GstMessage *mm = gst_bus_timed_pop_filtered (t->bus, 2 * GST_SECOND,
        GST_MESSAGE_ELEMENT);
    const GstStructure *s;
    guint mp = 0;
    gboolean mc = FALSE;
    guint64 ts = 0;

    fail_unless (mm != NULL, "no cudathin message");
    s = gst_message_get_structure (mm);
    fail_unless (gst_structure_has_name (s, "cudathin"));
    fail_unless (gst_structure_get_uint (s, "passes", &mp));
    fail_unless (gst_structure_get_boolean (s, "converged", &mc));
    fail_unless (gst_structure_get_uint64 (s, "timestamp", &ts));
    fail_unless_equals_int (mp, passes);
    fail_unless_equals_int (mc, conv);
    fail_unless_equals_uint64 (ts, seed * GST_MSECOND);
    gst_message_unref (mm);
  }
  g_free (frame);
}

GST_START_TEST (test_element)
{
  gint combo;

  for (combo = 0; combo < 4; combo++) {
    gboolean cin = combo & 1, cout = combo >> 1;
    gchar *ic = caps_str (cin, "GRAY8", 641, 479);
    Thin t = thin_new ("cudathin name=t post-messages=true", ic, cout ?
        "video/x-raw(memory:CUDAMemory),format=GRAY8" :
        "video/x-raw,format=GRAY8");

    element_frame (&t, 641, 479, cin, PAT_DISCS, 1 + combo, 0, 0, TRUE);
    /* properties while playing */
    gst_util_set_object_arg (G_OBJECT (t.e), "method", "zhang-suen");
    element_frame (&t, 641, 479, cin, PAT_TEXT, 2 + combo, 1, 0, TRUE);
    gst_util_set_object_arg (G_OBJECT (t.e), "border", "opencv");
    element_frame (&t, 641, 479, cin, PAT_NOISE, 5 + combo, 1, 0, TRUE);
    gst_util_set_object_arg (G_OBJECT (t.e), "method", "guo-hall");
    g_object_set (t.e, "max-iterations", 3, NULL);
    element_frame (&t, 641, 479, cin, PAT_DISCS, 3 + combo, 2, 3, TRUE);
    g_object_set (t.e, "max-iterations", 0, "post-messages", FALSE, NULL);
    element_frame (&t, 641, 479, cin, PAT_FULL, 4 + combo, 2, 0, FALSE);
    gst_util_set_object_arg (G_OBJECT (t.e), "border", "background");
    element_frame (&t, 641, 479, cin, PAT_FULL, 6 + combo, 2, 0, FALSE);
    msg_harness_free (&t);
    g_free (ic);
  }
}

GST_END_TEST;

/* New caps mid-stream: the scratch follows the size. */
GST_START_TEST (test_renegotiate)
{
  static const gint sizes[][2] = { {320, 240}, {1920, 1080}, {3, 2},
  {1000, 33}
  };
  Thin t = thin_new ("cudathin name=t post-messages=true",
      "video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1",
      "video/x-raw,format=GRAY8");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    gchar *c = caps_str (FALSE, "GRAY8", sizes[i][0], sizes[i][1]);
    gst_harness_set_src_caps_str (t.h, c);
    g_free (c);
    element_frame (&t, sizes[i][0], sizes[i][1], FALSE, PAT_DISCS, 10 + i, 0,
        0, TRUE);
  }
  msg_harness_free (&t);
}

GST_END_TEST;

/* Messages of many frames arrive in order, each with its timestamp,
 * before EOS; and cudaotsu ! cudathin chains on the device. */
GST_START_TEST (test_messages_and_chain)
{
  Thin t = thin_new ("cudathin name=t post-messages=true",
      "video/x-raw(memory:CUDAMemory),format=GRAY8,width=640,height=480,"
      "framerate=30/1", "video/x-raw(memory:CUDAMemory),format=GRAY8");
  const gint n = 12;
  gint i;

  for (i = 0; i < n; i++) {
    guint8 *frame = g_malloc (640 * 480);
    GstBuffer *in;

    make_frame (frame, 640, 480, PAT_DISCS, 100 + i, 0);
    in = gray_frame_buffer (frame, 640, 480, TRUE);
    GST_BUFFER_PTS (in) = i * GST_SECOND;
    fail_unless_equals_int (gst_harness_push (t.h, in), GST_FLOW_OK);
    g_free (frame);
  }
  gst_harness_push_event (t.h, gst_event_new_eos ());
  for (i = 0; i < n; i++) {
    guint8 *frame = g_malloc (640 * 480);
    GstMessage *m = gst_bus_timed_pop_filtered (t.bus, 2 * GST_SECOND,
        GST_MESSAGE_ELEMENT);
    guint passes = 0;
    guint64 ts = 0;

    make_frame (frame, 640, 480, PAT_DISCS, 100 + i, 0);
    fail_unless (m != NULL, "message %d missing", i);
    fail_unless (gst_structure_get_uint (gst_message_get_structure (m),
            "passes", &passes));
    fail_unless (gst_structure_get_uint64 (gst_message_get_structure (m),
            "timestamp", &ts));
    fail_unless_equals_uint64 (ts, i * GST_SECOND);
    fail_unless_equals_int (passes, ref_thin (frame, 640, 480, 0, 0, NULL, 0));
    gst_message_unref (m);
    gst_buffer_unref (gst_harness_pull (t.h));
    g_free (frame);
  }
  msg_harness_free (&t);

  /* cudaotsu's 0/255 output straight into cudathin: the result must be
   * the thinned Otsu binarization of the input */
  {
    const gint w = 643, h = 481;
    GstHarness *hh = filter_harness ("cudaotsu ! cudathin",
        "video/x-raw,format=GRAY8,width=643,height=481,framerate=30/1",
        "video/x-raw,format=GRAY8");
    guint8 *frame = g_malloc ((gsize) w * h), *bin = g_malloc ((gsize) w * h);
    guint32 hist[256];
    GstVideoInfo info;
    GstVideoFrame fo;
    GstBuffer *out;
    gint k;

    make_frame (frame, w, h, PAT_DISCS, 77, 0);
    for (k = 0; k < w * h; k++) /* grey levels, not just 0/255 */
      frame[k] = frame[k] ? 200 - k % 50 : 20 + k % 40;
    ref_histogram (frame, w, w, h, hist);
    ref_binarize (frame, w, bin, w, w, h,
        ref_otsu_threshold (hist, (guint64) w * h), FALSE);
    ref_thin (bin, w, h, 0, 0, NULL, 0);
    for (k = 0; k < w * h; k++)
      bin[k] *= 255;
    fail_unless_equals_int (gst_harness_push (hh, gray_frame_buffer (frame, w,
                h, FALSE)), GST_FLOW_OK);
    out = gst_harness_pull (hh);
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
    fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
    fail_unless (first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
            GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), bin, w, w, h) < 0);
    gst_video_frame_unmap (&fo);
    gst_buffer_unref (out);
    gst_harness_teardown (hh);
    g_free (frame);
    g_free (bin);
  }
}

GST_END_TEST;

static Suite *
thin_gpu_suite (void)
{
  Suite *s = suite_create ("cudathin-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 900);
  tcase_add_test (tc, test_kernel_patterns_sizes);
  tcase_add_test (tc, test_kernel_max_iterations);
  tcase_add_test (tc, test_kernel_idempotent);
  tcase_add_test (tc, test_kernel_large);
  tcase_add_test (tc, test_element);
  tcase_add_test (tc, test_renegotiate);
  tcase_add_test (tc, test_messages_and_chain);
  return s;
}

GPU_CHECK_MAIN (thin_gpu);
