/* cudaimgproc: cudasobel on the GPU against the CPU reference (itself
 * checked against OpenCV's cv::Sobel in test_reference): every ksize, norm
 * and border, odd, tiny, padded and misaligned frames, 8K, and the element.
 * Skips (exit 77) where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "sobel.h"

typedef enum
{
  PAT_RANDOM, PAT_EDGES, PAT_CHECKER, PAT_RAMP
} Pattern;

static void
make_pattern (guint8 * p, gint stride, gint w, gint h, Pattern pat,
    guint32 seed)
{
  gint x, y;

  fill_random (p, (gsize) stride * h, seed);
  if (pat == PAT_RANDOM)
    return;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint8 v;
      if (pat == PAT_EDGES)
        v = (x > w / 3 && y < 2 * h / 3) ? 230 : 20;
      else if (pat == PAT_CHECKER)
        v = ((x / 3 + y / 3) & 1) ? 255 : 0;
      else
        v = (guint8) ((x * 7 + y * 3) & 255);
      p[(gsize) y * stride + x] = v;
    }
}

/* The launcher on one frame; the result must equal the reference. */
static void
sobel_case (gint w, gint h, gint pad, gint misalign, Pattern pat,
    const CipSobelParams * p)
{
  gint sp = w + pad + misalign, dp = w + pad + misalign;
  guint8 *host = g_malloc ((gsize) sp * h), *out = g_malloc ((gsize) dp * h);
  guint8 *ref = g_malloc ((gsize) w * h), *d_src, *d_dst;
  glong d;

  make_pattern (host + misalign, sp, w, h, pat, w * 131 + h + p->ksize);
  CUDA_OK (cudaMalloc ((void **) &d_src, (gsize) sp * h + 16));
  CUDA_OK (cudaMalloc ((void **) &d_dst, (gsize) dp * h + 16));
  CUDA_OK (cudaMemcpy (d_src, host, (gsize) sp * h, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemset (d_dst, 0xa5, (gsize) dp * h + 16));
  CUDA_OK (cip_sobel (d_src + misalign, sp, d_dst + misalign, dp, w, h, p, 0));
  CUDA_OK (cudaDeviceSynchronize ());
  CUDA_OK (cudaMemcpy (out, d_dst, (gsize) dp * h, cudaMemcpyDeviceToHost));
  ref_sobel (host + misalign, sp, w, h, p->ksize, p->border, p->l1, p->scale,
      p->threshold, ref, w);
  d = first_diff (out + misalign, dp, ref, w, w, h);
  fail_unless (d < 0, "%dx%d pad %d mis %d pattern %d ksize %d border %d "
      "l1 %d scale %g threshold %d: pixel (%ld, %ld) is %d, reference %d",
      w, h, pad, misalign, pat, p->ksize, p->border, p->l1, p->scale,
      p->threshold, d % w, d / w, out[misalign + (d / w) * dp + d % w], ref[d]);
  cudaFree (d_src);
  cudaFree (d_dst);
  g_free (host);
  g_free (out);
  g_free (ref);
}

GST_START_TEST (test_kernel_all_params)
{
  /* 9 and 24 wide: one warp whose first lane's left side and whose last
   * lane's right side lie beyond the frame, its body in it (at 9, 5x5's
   * right side partly in it) */
  static const gint sizes[][2] = { {1, 1}, {2, 2}, {3, 1}, {1, 3}, {2, 7},
  {7, 2}, {5, 4}, {9, 4}, {24, 6}, {17, 5}, {127, 33}, {129, 35}, {641, 479},
  {1920, 1080}
  };
  guint s;
  gint k, b, l1, pat;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (k = 3; k <= 7; k += 2)
      for (b = 0; b < 2; b++)
        for (l1 = 0; l1 < 2; l1++)
          for (pat = PAT_RANDOM; pat <= PAT_RAMP; pat++) {
            CipSobelParams p = { k, b, l1, 1.0f, 0 };
            gint w = sizes[s][0], h = sizes[s][1];
            /* pitch a multiple of 16 (3x3 and 5x5: the kernels without
             * shared memory, frame edges inside their 8-column words) */
            const gint pad16 = (16 - w % 16) % 16;
            sobel_case (w, h, 0, 0, pat, &p);
            sobel_case (w, h, pad16, 0, pat, &p);
            /* padded pitch, misaligned base: the byte paths */
            p.scale = l1 ? 0.125f : 0.5f;
            sobel_case (w, h, 7, 1, pat, &p);
            /* an edge mask, at scale 1 and not */
            p.threshold = 40;
            sobel_case (w, h, 32 + pad16, 0, pat, &p);
            p.scale = 1.0f;
            sobel_case (w, h, 32 + pad16, 0, pat, &p);
          }
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The approximate square root of the scale 1.0 path rounds exactly. */
GST_START_TEST (test_fast_sqrt_exact)
{
  unsigned *d, mism = 1;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaMalloc ((void **) &d, sizeof (unsigned)));
  CUDA_OK (cudaMemset (d, 0, sizeof (unsigned)));
  CUDA_OK (cip_sobel_self_check (d, 0));
  CUDA_OK (cudaMemcpy (&mism, d, sizeof (unsigned), cudaMemcpyDeviceToHost));
  fail_unless_equals_int (mism, 0);
  cudaFree (d);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

GST_START_TEST (test_kernel_8k)
{
  /* size, pitch padding and base misalignment, pattern, then the params */
  static const struct
  {
    gint w, h, pad, mis;
    Pattern pat;
    CipSobelParams p;
  } cases[] = {
    /* 3x3 at scale 1: the register kernel's 4-row strips at 8K and 4K (l1
     * all in half precision; its 2-row strips: test_kernel_all_params's
     * frames up to 641x479) */
    {7680, 4320, 0, 0, PAT_RANDOM, {3, 0, 0, 1.0f, 0}},
    {7680, 4320, 0, 0, PAT_EDGES, {3, 0, 1, 1.0f, 30}},
    {3840, 2160, 0, 0, PAT_EDGES, {3, 0, 0, 1.0f, 0}},
    {3840, 2160, 128, 0, PAT_RANDOM, {3, 1, 1, 1.0f, 60}},
    /* 5x5 at scale 1 on aligned rows: its register kernel, 2-row strips
     * at 4K and 4-row ones at 8K (gradients of up to 24480 in 16-bit
     * lanes) */
    {3840, 2160, 0, 0, PAT_RANDOM, {5, 0, 0, 1.0f, 0}},
    {7680, 4320, 0, 0, PAT_RANDOM, {5, 0, 0, 1.0f, 0}},
    {7680, 4320, 32, 0, PAT_EDGES, {5, 1, 1, 1.0f, 50}},
    /* the tiled kernel's 64-row tiles (4K and up; 5x5 on rows not
     * aligned), l2 at scale 1: gradients of up to 24480 (5x5) and 326400
     * (7x7) held to 256 before squaring; then another scale */
    {3840, 2160, 7, 1, PAT_RANDOM, {5, 0, 0, 1.0f, 0}},
    {3840, 2160, 16, 0, PAT_EDGES, {7, 0, 0, 1.0f, 0}},
    {7680, 4320, 64, 0, PAT_EDGES, {7, 1, 1, 0.05f, 0}},
  };
  guint i;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    sobel_case (cases[i].w, cases[i].h, cases[i].pad, cases[i].mis,
        cases[i].pat, &cases[i].p);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The element: GRAY8 and colour input, both memories, properties while
 * playing, and a chain of ours. */
static void
element_case (GstHarness * h, const gchar * format, gint w, gint hh,
    gboolean cuda_in, gint ksize, gint border, gint l1, gfloat scale,
    gint threshold, guint32 seed)
{
  GstVideoInfo info, ginfo;
  GstBuffer *in, *out;
  GstVideoFrame fi, fo;
  guint8 *gray = g_malloc ((gsize) w * hh), *ref = g_malloc ((gsize) w * hh);
  glong d;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), w,
      hh);
  in = cuda_in ? random_cuda_buffer (&info, seed) :
      random_sys_buffer (&info, seed);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  if (GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_GRAY8)
    ref_gray_luma (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), gray, w, w, hh, 65536);
  else
    ref_gray_packed (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), 4, 0, 1, 2, gray, w, w, hh,
        9798, 19235, 3735, 65536);
  gst_video_frame_unmap (&fi);
  ref_sobel (gray, w, w, hh, ksize, border, l1, scale, threshold, ref, w);

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  gst_video_info_set_format (&ginfo, GST_VIDEO_FORMAT_GRAY8, w, hh);
  fail_unless (gst_video_frame_map (&fo, &ginfo, out, GST_MAP_READ));
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), ref, w, w, hh);
  fail_unless (d < 0, "%s %dx%d: pixel %ld differs", format, w, hh, d);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  g_free (gray);
  g_free (ref);
}

GST_START_TEST (test_element)
{
  gint combo;

  for (combo = 0; combo < 4; combo++) {
    gboolean cin = combo & 1, cout = combo >> 1;
    gchar *ic = caps_str (cin, "GRAY8", 641, 479);
    GstHarness *h = filter_harness ("cudasobel name=s", ic, cout ?
        "video/x-raw(memory:CUDAMemory),format=GRAY8" :
        "video/x-raw,format=GRAY8");
    GstElement *s = gst_bin_get_by_name (GST_BIN (h->element), "s");

    element_case (h, "GRAY8", 641, 479, cin, 3, 0, 0, 1.0f, 0, combo);
    gst_util_set_object_arg (G_OBJECT (s), "ksize", "5");
    gst_util_set_object_arg (G_OBJECT (s), "border", "reflect-101");
    element_case (h, "GRAY8", 641, 479, cin, 5, 1, 0, 1.0f, 0, combo + 10);
    gst_util_set_object_arg (G_OBJECT (s), "norm", "l1");
    g_object_set (s, "scale", 0.25, "threshold", 60, NULL);
    element_case (h, "GRAY8", 641, 479, cin, 5, 1, 1, 0.25f, 60, combo + 20);
    gst_object_unref (s);
    gst_harness_teardown (h);
    g_free (ic);
  }
}

GST_END_TEST;

GST_START_TEST (test_colour_and_chain)
{
  GstHarness *h = filter_harness ("cudasobel ksize=7",
      "video/x-raw,format=RGBA,width=643,height=481,framerate=30/1",
      "video/x-raw,format=GRAY8");
  element_case (h, "RGBA", 643, 481, FALSE, 7, 0, 0, 1.0f, 0, 1);
  gst_harness_teardown (h);

  /* the same through cudagray ! cudasobel: device memory between them */
  h = filter_harness ("cudagray ! cudasobel ksize=7",
      "video/x-raw,format=RGBA,width=643,height=481,framerate=30/1",
      "video/x-raw,format=GRAY8");
  element_case (h, "RGBA", 643, 481, FALSE, 7, 0, 0, 1.0f, 0, 2);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
sobel_gpu_suite (void)
{
  Suite *s = suite_create ("cudasobel-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 900);
  tcase_add_test (tc, test_kernel_all_params);
  tcase_add_test (tc, test_fast_sqrt_exact);
  tcase_add_test (tc, test_kernel_8k);
  tcase_add_test (tc, test_element);
  tcase_add_test (tc, test_colour_and_chain);
  return s;
}

GPU_CHECK_MAIN (sobel_gpu);
