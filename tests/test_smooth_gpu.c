/* cudaimgproc: cudasmooth on the GPU against the CPU reference (itself
 * checked against OpenCV's blur, GaussianBlur and medianBlur in
 * test_reference): every method, ksize and border, 1, 3 and 4 bytes a
 * pixel, odd, tiny, padded and misaligned frames, 8K, and the element in
 * both memories with properties changed while playing.  Skips (exit 77)
 * where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "smooth.h"

/* The launcher on one frame; the result must equal the reference, and no
 * byte beyond each row's pixels may change. */
static void
smooth_case (gint w, gint h, gint pad, gint misalign, gint kind,
    const CipSmoothParams * p)
{
  const gint rb = w * p->bpp, sp = rb + pad + misalign, dp = sp;
  const gsize n = (gsize) sp * h;
  guint8 *host = g_malloc (n), *out = g_malloc (n + 16);
  guint8 *ref = g_malloc ((gsize) rb * h), *d_src, *d_dst;
  glong d;
  gint y;

  fill_random (host, n, w * 131 + h + p->ksize);
  ref_smooth_frame (host + misalign, sp, w, h, p->bpp, kind, w * 7 + h);
  CUDA_OK (cudaMalloc ((void **) &d_src, n + 16));
  CUDA_OK (cudaMalloc ((void **) &d_dst, n + 16));
  CUDA_OK (cudaMemcpy (d_src, host, n, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemset (d_dst, 0xa5, n + 16));
  CUDA_OK (cip_smooth (d_src + misalign, sp, d_dst + misalign, dp, w, h, p, 0));
  CUDA_OK (cudaDeviceSynchronize ());
  CUDA_OK (cudaMemcpy (out, d_dst, n + 16, cudaMemcpyDeviceToHost));
  ref_smooth (host + misalign, sp, ref, rb, w, h, p->bpp, p->keep_off,
      p->method, p->ksize, p->sigma, p->border);
  d = first_diff (out + misalign, dp, ref, rb, rb, h);
  fail_unless (d < 0, "%dx%d x%d keep %d pad %d mis %d kind %d method %d "
      "ksize %d sigma %g border %d: byte (%ld, %ld) is %d, reference %d",
      w, h, p->bpp, p->keep_off, pad, misalign, kind, p->method, p->ksize,
      p->sigma, p->border, d % rb, d / rb, out[misalign + (d / rb) * dp +
          d % rb], ref[d]);
  for (y = 0; y < h; y++) {
    const guint8 *row = out + (gsize) y * dp;
    gint x;
    for (x = 0; x < misalign; x++)
      fail_unless (row[x] == 0xa5, "wrote before row %d", y);
    for (x = misalign + rb; x < dp; x++)
      fail_unless (row[x] == 0xa5, "wrote into the padding of row %d", y);
  }
  cudaFree (d_src);
  cudaFree (d_dst);
  g_free (host);
  g_free (out);
  g_free (ref);
}

/* padding that makes a row of @rb bytes a multiple of 8, and 8 more */
static gint
pad8 (gint rb)
{
  return (8 - rb % 8) % 8 + 8;
}

/* every method and ksize: triangular, box 3..15, gaussian 3..7 at two
 * sigmas, median 3 and 5 */
static const struct
{
  CipSmoothMethod m;
  gint k;
  gdouble sigma;
} methods[] = {
  {CIP_SMOOTH_TRIANGULAR, 5, 0}, {CIP_SMOOTH_BOX, 3, 0},
  {CIP_SMOOTH_BOX, 5, 0}, {CIP_SMOOTH_BOX, 7, 0}, {CIP_SMOOTH_BOX, 9, 0},
  {CIP_SMOOTH_BOX, 11, 0}, {CIP_SMOOTH_BOX, 13, 0}, {CIP_SMOOTH_BOX, 15, 0},
  {CIP_SMOOTH_GAUSSIAN, 3, 0}, {CIP_SMOOTH_GAUSSIAN, 5, 0},
  {CIP_SMOOTH_GAUSSIAN, 7, 0}, {CIP_SMOOTH_GAUSSIAN, 3, 0.6},
  {CIP_SMOOTH_GAUSSIAN, 5, 1.7}, {CIP_SMOOTH_GAUSSIAN, 7, 4.5},
  {CIP_SMOOTH_MEDIAN, 3, 0}, {CIP_SMOOTH_MEDIAN, 5, 0},
};

GST_START_TEST (test_kernel_all_params)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {2, 3}, {1, 7}, {7, 1},
  {5, 4}, {17, 5}, {43, 9}, {127, 33}, {129, 35}
  };
  /* bytes a pixel and the kept byte: GRAY8, RGB, RGBA, ARGB, RGBx as
   * filtered whole */
  static const gint layouts[][2] = { {1, -1}, {3, -1}, {4, 3}, {4, 0},
  {4, -1}
  };
  guint s, m, l;
  gint b;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (l = 0; l < G_N_ELEMENTS (layouts); l++)
      for (m = 0; m < G_N_ELEMENTS (methods); m++)
        for (b = 0; b < 2; b++) {
          CipSmoothParams p = { methods[m].m, methods[m].k, methods[m].sigma,
            b, layouts[l][0], layouts[l][1]
          };
          gint w = sizes[s][0], h = sizes[s][1];
          smooth_case (w, h, 0, 0, (s + m) & 1, &p);
          /* padded pitch, misaligned base: the byte paths */
          smooth_case (w, h, 7, 1, (s + m + 1) & 1, &p);
          /* rows of 8-byte multiples: GRAY8's register strips and box's
           * running sums */
          smooth_case (w, h, pad8 (w * layouts[l][0]), 0, (s + m) & 1, &p);
          /* and widths of 8-byte multiples: the block strips' edge lanes
           * on words (GRAY8; 4-byte pixels from 4 wide) */
          if (p.bpp != 3 && w > 1)
            smooth_case (w / 8 * 8 + 8, h, 8, 0, (s + m) & 1, &p);
          if (p.bpp == 4)
            smooth_case (4 + 2 * (s & 1), h, 8, 0, (s + m) & 1, &p);
        }
  /* a frame of many tiles, every method, each layout */
  for (l = 0; l < G_N_ELEMENTS (layouts); l++)
    for (m = 0; m < G_N_ELEMENTS (methods); m++) {
      CipSmoothParams p = { methods[m].m, methods[m].k, methods[m].sigma,
        (m + l) & 1, layouts[l][0], layouts[l][1]
      };
      smooth_case (641, 479, (m & 1) ? 64 : 0, 0, m & 1, &p);
      smooth_case (641, 479, pad8 (641 * layouts[l][0]), 0, m & 1, &p);
      if (layouts[l][0] != 3)
        smooth_case (640, 479, 0, 0, m & 1, &p);
    }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* GRAY8 rows of 8-byte multiples: box 5 .. 15's running sums down a
 * block's strip, warps inside the frame (neighbours' columns by
 * shuffles), at its edges on widths of 8-byte multiples (the columns
 * beyond made from the edge lane's own) and on other widths (columns
 * mapped through shared memory), strips cut by the frame's foot; 4-byte
 * pixels there (triangular, alpha kept); and median 5x5's register
 * strips; small enough for the sanitizers. */
GST_START_TEST (test_kernel_strips)
{
  static const gint sizes[][2] = { {600, 70}, {1100, 37}, {264, 300},
  {9, 9}, {520, 8}, {8, 20}, {16, 5}
  };
  guint s;
  gint k, b;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (k = 3; k <= 15; k += 2)
      for (b = 0; b < 2; b++) {
        /* k 3: median 5x5 */
        CipSmoothParams p = { k == 3 ? CIP_SMOOTH_MEDIAN : CIP_SMOOTH_BOX,
          k == 3 ? 5 : k, 0, b, 1, -1
        };
        smooth_case (sizes[s][0], sizes[s][1], pad8 (sizes[s][0]) - 8, 0,
            (s + k + b) & 1, &p);
      }
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    if (sizes[s][0] >= 4 && !(sizes[s][0] & 1)) {
      CipSmoothParams p = { CIP_SMOOTH_TRIANGULAR, 5, 0, s & 1, 4, 3 };
      smooth_case (sizes[s][0], sizes[s][1], 0, 0, s & 1, &p);
    }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The checks the element relies on before it starts. */
GST_START_TEST (test_kernel_refuses)
{
  CipSmoothParams p = { CIP_SMOOTH_MEDIAN, 7, 0, 0, 1, -1 };
  guint8 *d;

  fail_unless (cip_smooth_check (&p) != NULL);
  p.method = CIP_SMOOTH_GAUSSIAN;
  p.ksize = 9;
  fail_unless (cip_smooth_check (&p) != NULL);
  p.method = CIP_SMOOTH_BOX;
  fail_unless (cip_smooth_check (&p) == NULL);
  p.bpp = 2;
  fail_unless (cip_smooth_check (&p) != NULL);
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaMalloc ((void **) &d, 64));
  fail_unless (cip_smooth (d, 8, d + 32, 8, 4, 4, &p, 0) ==
      cudaErrorInvalidValue);
  p.bpp = 1;
  fail_unless (cip_smooth (d, 8, d + 32, 8, 0, 4, &p, 0) ==
      cudaErrorInvalidValue);
  cudaFree (d);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

GST_START_TEST (test_kernel_8k)
{
  static const struct
  {
    gint w, h, pad, mis, bpp, keep;
    CipSmoothMethod m;
    gint k;
    gdouble sigma;
    gint border;
  } cases[] = {
    {7680, 4320, 0, 0, 1, -1, CIP_SMOOTH_GAUSSIAN, 5, 0, 1},
    {7680, 4320, 0, 0, 1, -1, CIP_SMOOTH_TRIANGULAR, 5, 0, 0},
    {7680, 4320, 32, 0, 1, -1, CIP_SMOOTH_BOX, 15, 0, 1},
    {7680, 4320, 0, 0, 1, -1, CIP_SMOOTH_MEDIAN, 5, 0, 1},
    {7680, 4320, 0, 0, 1, -1, CIP_SMOOTH_MEDIAN, 3, 0, 0},
    {3840, 2160, 128, 0, 4, 3, CIP_SMOOTH_GAUSSIAN, 7, 2.2, 1},
    {3840, 2160, 5, 3, 3, -1, CIP_SMOOTH_BOX, 9, 0, 0},
    {3840, 2160, 0, 0, 1, -1, CIP_SMOOTH_BOX, 11, 0, 0},
    {1920, 1080, 8, 0, 1, -1, CIP_SMOOTH_BOX, 13, 0, 1},
    {3840, 2160, 0, 0, 4, 0, CIP_SMOOTH_MEDIAN, 5, 0, 0},
    /* GRAY8 median 5x5 from 4K up takes 4 rows a thread: replicate */
    {3840, 2160, 8, 0, 1, -1, CIP_SMOOTH_MEDIAN, 5, 0, 0},
    /* 4-byte pixels in block strips of 64 rows, alpha kept or not */
    {3840, 2160, 0, 0, 4, 3, CIP_SMOOTH_GAUSSIAN, 5, 0, 1},
    {3840, 2160, 8, 0, 4, -1, CIP_SMOOTH_TRIANGULAR, 5, 0, 0},
  };
  guint i;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    CipSmoothParams p = { cases[i].m, cases[i].k, cases[i].sigma,
      cases[i].border, cases[i].bpp, cases[i].keep
    };
    smooth_case (cases[i].w, cases[i].h, cases[i].pad, cases[i].mis, i & 1, &p);
  }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The element on one frame of @format against the reference for the given
 * settings. */
static void
element_case (GstHarness * h, const gchar * format, gint w, gint hh,
    gboolean cuda_in, CipSmoothMethod m, gint k, gdouble sigma, gint border,
    guint32 seed)
{
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstVideoFrame fi, fo;
  gint bpp, keep = -1;
  guint8 *ref;
  glong d;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), w,
      hh);
  bpp = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
  if (bpp == 4)                 /* alpha or padding: kept */
    keep = 6 - GST_VIDEO_INFO_COMP_POFFSET (&info, GST_VIDEO_COMP_R) -
        GST_VIDEO_INFO_COMP_POFFSET (&info, GST_VIDEO_COMP_G) -
        GST_VIDEO_INFO_COMP_POFFSET (&info, GST_VIDEO_COMP_B);
  ref = g_malloc ((gsize) w * hh * bpp);
  in = cuda_in ? random_cuda_buffer (&info, seed) :
      random_sys_buffer (&info, seed);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  ref_smooth (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), ref, w * bpp, w, hh, bpp, keep,
      m, k, sigma, border);
  gst_video_frame_unmap (&fi);

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), ref, w * bpp, w * bpp, hh);
  fail_unless (d < 0, "%s %dx%d method %d ksize %d: byte %ld differs",
      format, w, hh, m, k, d);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  g_free (ref);
}

GST_START_TEST (test_element)
{
  static const gchar *fmts[] = { "GRAY8", "RGBA", "BGR", "xRGB" };
  gint combo;

  for (combo = 0; combo < 8; combo++) {
    gboolean cin = combo & 1, cout = (combo >> 1) & 1;
    const gchar *fmt = fmts[combo >> 1];
    gchar *ic = caps_str (cin, fmt, 641, 479);
    gchar *oc = g_strdup_printf ("video/x-raw%s,format=%s",
        cout ? "(memory:CUDAMemory)" : "", fmt);
    GstHarness *h = filter_harness ("cudasmooth name=s", ic, oc);
    GstElement *s = gst_bin_get_by_name (GST_BIN (h->element), "s");

    /* the defaults: gaussian 5x5, OpenCV's sigma, reflect-101 */
    element_case (h, fmt, 641, 479, cin, CIP_SMOOTH_GAUSSIAN, 5, 0, 1, combo);
    /* every property while playing, taken at the next frame */
    gst_util_set_object_arg (G_OBJECT (s), "method", "median");
    gst_util_set_object_arg (G_OBJECT (s), "ksize", "3");
    gst_util_set_object_arg (G_OBJECT (s), "border", "replicate");
    element_case (h, fmt, 641, 479, cin, CIP_SMOOTH_MEDIAN, 3, 0, 0,
        combo + 10);
    gst_util_set_object_arg (G_OBJECT (s), "method", "box");
    gst_util_set_object_arg (G_OBJECT (s), "ksize", "15");
    element_case (h, fmt, 641, 479, cin, CIP_SMOOTH_BOX, 15, 0, 0, combo + 20);
    gst_util_set_object_arg (G_OBJECT (s), "method", "triangular");
    element_case (h, fmt, 641, 479, cin, CIP_SMOOTH_TRIANGULAR, 5, 0, 0,
        combo + 30);
    gst_util_set_object_arg (G_OBJECT (s), "method", "gaussian");
    gst_util_set_object_arg (G_OBJECT (s), "ksize", "7");
    g_object_set (s, "sigma", 1.9, NULL);
    element_case (h, fmt, 641, 479, cin, CIP_SMOOTH_GAUSSIAN, 7, 1.9, 0,
        combo + 40);
    gst_object_unref (s);
    gst_harness_teardown (h);
    g_free (ic);
    g_free (oc);
  }
}

GST_END_TEST;

/* A method and ksize that do not go together: an error before streaming;
 * while playing, a warning, the last valid settings kept. */
GST_START_TEST (test_element_invalid_pair)
{
  gchar *ic = caps_str (FALSE, "GRAY8", 64, 48);
  MsgHarness o = msg_harness_new ("cudasmooth name=o method=median ksize=7",
      ic, "video/x-raw,format=GRAY8", "o");
  GstVideoInfo info;
  GstMessage *msg;
  GError *err = NULL;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  fail_if (gst_harness_push (o.h, random_sys_buffer (&info, 1)) == GST_FLOW_OK);
  msg = gst_bus_pop_filtered (o.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error for median ksize=7");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "median") && strstr (err->message, "7"),
      "error says: %s", err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  msg_harness_free (&o);

  o = msg_harness_new ("cudasmooth name=o method=median ksize=5", ic,
      "video/x-raw,format=GRAY8", "o");
  element_case (o.h, "GRAY8", 64, 48, FALSE, CIP_SMOOTH_MEDIAN, 5, 0, 1, 2);
  gst_util_set_object_arg (G_OBJECT (o.e), "ksize", "9");
  element_case (o.h, "GRAY8", 64, 48, FALSE, CIP_SMOOTH_MEDIAN, 5, 0, 1, 3);
  msg = gst_bus_pop_filtered (o.bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning for median ksize=9 while playing");
  gst_message_unref (msg);
  /* valid again: taken */
  gst_util_set_object_arg (G_OBJECT (o.e), "method", "box");
  element_case (o.h, "GRAY8", 64, 48, FALSE, CIP_SMOOTH_BOX, 9, 0, 1, 4);
  msg_harness_free (&o);
  g_free (ic);
}

GST_END_TEST;

/* cudagray ! cudasmooth: CUDA memory between them, the output that of
 * the reference chain; and a size change mid-stream. */
GST_START_TEST (test_chain_and_resize)
{
  GstHarness *h = filter_harness ("cudagray ! cudasmooth ksize=3",
      "video/x-raw,format=RGBA,width=643,height=481,framerate=30/1",
      "video/x-raw,format=GRAY8");
  GstVideoInfo info, ginfo;
  GstBuffer *in, *out;
  GstVideoFrame fi, fo;
  guint8 *gray = g_malloc (643 * 481), *ref = g_malloc (643 * 481);
  GstPad *pad;
  gchar *caps_s;
  glong d;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 643, 481);
  in = random_sys_buffer (&info, 5);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  ref_gray_packed (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), 4, 0, 1, 2, gray, 643, 643, 481,
      9798, 19235, 3735, 65536);
  gst_video_frame_unmap (&fi);
  ref_smooth (gray, 643, ref, 643, 643, 481, 1, -1, REF_SMOOTH_GAUSSIAN, 3,
      0, 1);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  gst_video_info_set_format (&ginfo, GST_VIDEO_FORMAT_GRAY8, 643, 481);
  fail_unless (gst_video_frame_map (&fo, &ginfo, out, GST_MAP_READ));
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), ref, 643, 643, 481);
  fail_unless (d < 0, "chain: pixel %ld differs", d);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (out);
  /* the link between the two is CUDA memory */
  {
    GstElement *smooth = NULL;
    GstIterator *it = gst_bin_iterate_elements (GST_BIN (h->element));
    GValue v = G_VALUE_INIT;
    while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
      GstElement *e = g_value_get_object (&v);
      if (g_str_has_prefix (GST_OBJECT_NAME (e), "cudasmooth"))
        smooth = gst_object_ref (e);
      g_value_reset (&v);
    }
    g_value_unset (&v);
    gst_iterator_free (it);
    fail_unless (smooth != NULL);
    pad = gst_element_get_static_pad (smooth, "sink");
    caps_s = gst_caps_to_string (gst_pad_get_current_caps (pad));
    fail_unless (strstr (caps_s, "memory:CUDAMemory") != NULL,
        "cudagray ! cudasmooth linked with %s", caps_s);
    g_free (caps_s);
    gst_object_unref (pad);
    gst_object_unref (smooth);
  }
  gst_harness_teardown (h);

  /* new caps mid-stream: 1x1, then 3x2 RGB, then 641x479 */
  h = filter_harness ("cudasmooth method=box ksize=3",
      "video/x-raw,format=GRAY8,width=1,height=1,framerate=30/1",
      "video/x-raw");
  element_case (h, "GRAY8", 1, 1, FALSE, CIP_SMOOTH_BOX, 3, 0, 1, 7);
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=RGB,width=3,height=2,framerate=30/1");
  element_case (h, "RGB", 3, 2, FALSE, CIP_SMOOTH_BOX, 3, 0, 1, 8);
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=BGRA,width=641,height=479,framerate=30/1");
  element_case (h, "BGRA", 641, 479, FALSE, CIP_SMOOTH_BOX, 3, 0, 1, 9);
  gst_harness_teardown (h);
  g_free (gray);
  g_free (ref);
}

GST_END_TEST;

static Suite *
smooth_gpu_suite (void)
{
  Suite *s = suite_create ("cudasmooth-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 900);
  tcase_add_test (tc, test_kernel_all_params);
  tcase_add_test (tc, test_kernel_refuses);
  tcase_add_test (tc, test_kernel_strips);
  tcase_add_test (tc, test_kernel_8k);
  tcase_add_test (tc, test_element);
  tcase_add_test (tc, test_element_invalid_pair);
  tcase_add_test (tc, test_chain_and_resize);
  return s;
}

GPU_CHECK_MAIN (smooth_gpu);
