/* cudaimgproc: cudahistogram's kernels and element against the CPU: the
 * counts of every golden frame (tests/data/otsu_golden.txt, numpy's
 * bincount of OpenCV's test frames, one gray level included) exactly,
 * each channel of packed RGB, the picture pixel for pixel against
 * ref_histogram_picture at several sizes, both scales and one or three
 * histograms; then the element: luma of RGBA, I420 and GRAY8 input, rgb,
 * passthrough, messages, and properties changed while it plays.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "histogram.h"
#include "gray.h"

static guint32
lcg (guint32 * s)
{
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

/* The luma histogram of a GRAY8 plane (@pitch bytes a row, the bytes
 * past @w 0x5a, which must not count) on the GPU. */
static void
gpu_gray_counts (const guint8 * plane, gint pitch, gint w, gint h,
    guint32 out[256])
{
  guint8 *d;
  guint32 *state;
  CipHistResult *res, host;

  CUDA_OK (cudaMalloc ((void **) &d, (gsize) pitch * h));
  CUDA_OK (cudaMalloc ((void **) &state, CIP_HIST_STATE_WORDS * 4));
  CUDA_OK (cudaMalloc ((void **) &res, sizeof (CipHistResult)));
  CUDA_OK (cudaMemset (state, 0, CIP_HIST_STATE_WORDS * 4));
  CUDA_OK (cudaMemcpy (d, plane, (gsize) pitch * h, cudaMemcpyHostToDevice));
  /* twice: the state is left zero for the next frame */
  CUDA_OK (cip_hist_gray (d, pitch, w, h, state, res, NULL));
  CUDA_OK (cip_hist_gray (d, pitch, w, h, state, res, NULL));
  CUDA_OK (cudaMemcpy (&host, res, sizeof host, cudaMemcpyDeviceToHost));
  fail_unless_equals_int (host.channels, 1);
  memcpy (out, host.hist[0], 256 * 4);
  cudaFree (d);
  cudaFree (state);
  cudaFree (res);
}

/* Every golden frame, its pixels laid out in a padded plane: the GPU's
 * counts are the file's. */
GST_START_TEST (test_golden_counts)
{
  const gchar *path = gpu_test_arg ? gpu_test_arg :
      "tests/data/otsu_golden.txt";
  FILE *f = fopen (path, "r");
  gchar *line = g_malloc (8192), name[64];
  gint n = 0;

  fail_unless (f != NULL, "cannot open %s", path);
  while (fgets (line, 8192, f)) {
    guint32 hist[256], got[256];
    gint t, i, w, h, pitch;
    guint8 *plane;
    gsize k;

    if (!otsu_golden_line (line, name, &t, hist, &w, &h))
      continue;
    pitch = w + 7;
    plane = g_malloc ((gsize) pitch * h);
    memset (plane, 0x5a, (gsize) pitch * h);
    for (i = 0, k = 0; i < 256; i++)
      for (guint32 j = 0; j < hist[i]; j++, k++)
        plane[(k / w) * pitch + k % w] = i;
    gpu_gray_counts (plane, pitch, w, h, got);
    for (i = 0; i < 256; i++)
      fail_unless (got[i] == hist[i], "%s: bin %d: %u, golden %u", name, i,
          got[i], hist[i]);
    g_free (plane);
    n++;
  }
  fail_unless (n >= 50, "%d golden frames", n);
  fclose (f);
  g_free (line);
}

GST_END_TEST;

/* Each channel of packed pixels, against counting on the CPU. */
GST_START_TEST (test_rgb_counts)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {161, 97}, {1920, 1080} };
  guint s;
  gint bpp;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (bpp = 3; bpp <= 4; bpp++) {
      const gint w = sizes[s][0], h = sizes[s][1], pitch = w * bpp + 5;
      const gint ro = bpp == 4 ? 2 : 0, go = 1, bo = bpp == 4 ? 0 : 2;
      guint8 *img = g_malloc ((gsize) pitch * h), *d;
      guint32 want[3][256] = { {0} };
      CipHistResult *res, got;
      gint x, y, c;

      fill_random (img, (gsize) pitch * h, s * 7 + bpp);
      /* a smooth half: runs of equal values, the contended case */
      for (y = 0; y < h / 2; y++)
        for (x = 0; x < w * bpp; x++)
          img[(gsize) y * pitch + x] = (guint8) (x / 37);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          const guint8 *p = img + (gsize) y * pitch + (gsize) x * bpp;
          want[0][p[ro]]++;
          want[1][p[go]]++;
          want[2][p[bo]]++;
        }
      CUDA_OK (cudaMalloc ((void **) &d, (gsize) pitch * h));
      CUDA_OK (cudaMalloc ((void **) &res, sizeof (CipHistResult)));
      CUDA_OK (cudaMemcpy (d, img, (gsize) pitch * h, cudaMemcpyHostToDevice));
      CUDA_OK (cip_hist_rgb (d, pitch, w, h, bpp, ro, go, bo, res, NULL));
      CUDA_OK (cudaMemcpy (&got, res, sizeof got, cudaMemcpyDeviceToHost));
      fail_unless_equals_int (got.channels, 3);
      for (c = 0; c < 3; c++)
        fail_unless (memcmp (got.hist[c], want[c], sizeof want[c]) == 0,
            "%dx%d bpp %d: channel %d differs", w, h, bpp, c);
      cudaFree (d);
      cudaFree (res);
      g_free (img);
    }
  fail_unless_equals_int (cip_hist_rgb (NULL, 4, 1, 1, 4, 0, 1, 2, NULL,
          NULL), cudaErrorInvalidValue);
}

GST_END_TEST;

/* The luma launchers refuse bad arguments before they launch anything. */
GST_START_TEST (test_luma_refuses)
{
  guint8 *d;
  guint32 *state;
  CipHistResult *res;

  CUDA_OK (cudaMalloc ((void **) &d, 4096));
  CUDA_OK (cudaMalloc ((void **) &state, CIP_HIST_STATE_WORDS * 4));
  CUDA_OK (cudaMalloc ((void **) &res, sizeof *res));
  /* a pitch below the width; no state */
  fail_unless_equals_int (cip_hist_gray (d, 8, 16, 2, state, res, NULL),
      cudaErrorInvalidValue);
  fail_unless_equals_int (cip_hist_gray (d, 16, 16, 2, NULL, res, NULL),
      cudaErrorInvalidValue);
  fail_unless_equals_int (cip_hist_luma_packed (d, 63, 16, 2, 4, 0, 1, 2,
          state, res, NULL), cudaErrorInvalidValue);
  fail_unless_equals_int (cip_hist_luma_packed (d, 64, 16, 2, 4, 0, 1, 4,
          state, res, NULL), cudaErrorInvalidValue);
  fail_unless_equals_int (cip_hist_luma_packed (d, 64, 16, 2, 2, 0, 1, 1,
          state, res, NULL), cudaErrorInvalidValue);
  fail_unless_equals_int (cip_hist_luma_packed (d, 64, 16, 2, 4, 0, 1, 2,
          NULL, res, NULL), cudaErrorInvalidValue);
  CUDA_OK (cudaDeviceSynchronize ());
  cudaFree (d);
  cudaFree (state);
  cudaFree (res);
}

GST_END_TEST;

/* Every row of @got equals @ref (@row bytes of each @pitch). */
static void
check_picture (const guint8 * got, const guint8 * ref, gint pitch, gint row,
    gint h, const gchar * what)
{
  gint y;

  for (y = 0; y < h; y++) {
    glong diff = first_diff (got + (gsize) y * pitch, pitch,
        ref + (gsize) y * pitch, pitch, row, 1);
    fail_unless (diff < 0, "%s: row %d byte %ld", what, y, diff);
  }
}

/* The picture of many histograms, pixel for pixel. */
GST_START_TEST (test_picture)
{
  /* the last two at CIP_HIST_PICTURE_MAX: the kernel's column and height
   * arithmetic at its limits */
  static const gint sizes[][2] = { {16, 16}, {256, 128}, {255, 77},
  {257, 300}, {1000, 40}, {4096, 16}, {CIP_HIST_PICTURE_MAX, 2},
  {3, CIP_HIST_PICTURE_MAX}
  };
  guint32 seed = 5;
  guint s, kind;
  gint channels, log_scale;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (kind = 0; kind < 4; kind++)
      for (channels = 1; channels <= 3; channels += 2)
        for (log_scale = 0; log_scale < 2; log_scale++) {
          const gint w = sizes[s][0], h = sizes[s][1];
          const gint bpp = channels == 1 ? 1 : 4, pitch = w * bpp + 3;
          CipHistResult host = { 0 }, *res;
          guint8 *ref = g_malloc0 ((gsize) pitch * h);
          guint8 *got = g_malloc0 ((gsize) pitch * h), *d;
          gint c, b;

          host.channels = channels;
          for (c = 0; c < channels; c++)
            for (b = 0; b < 256; b++)
              host.hist[c][b] = kind == 0 ? lcg (&seed) % 5000 :
                  kind == 1 ? (b == 77 ? 2073600 : 0) :
                  kind == 2 ? 1000 : (b % 3 ? lcg (&seed) : 0xffffffffu);
          /* as the histogram launches leave it (cip_hist_picture takes
           * one histogram's largest count from the result) */
          for (c = 0; c < channels; c++)
            for (b = 0; b < 256; b++)
              host.most[c] = MAX (host.most[c], host.hist[c][b]);
          ref_histogram_picture ((const guint32 (*)[256]) host.hist,
              channels, log_scale, ref, pitch, w, h);
          CUDA_OK (cudaMalloc ((void **) &res, sizeof host));
          CUDA_OK (cudaMalloc ((void **) &d, (gsize) pitch * h));
          CUDA_OK (cudaMemcpy (res, &host, sizeof host,
                  cudaMemcpyHostToDevice));
          CUDA_OK (cip_hist_picture (res, channels, log_scale, d, pitch, w,
                  h, NULL));
          CUDA_OK (cudaMemcpy (got, d, (gsize) pitch * h,
                  cudaMemcpyDeviceToHost));
          {
            gchar *what = g_strdup_printf ("picture %dx%d, kind %u, %d "
                "channels, %s", w, h, kind, channels,
                log_scale ? "log" : "linear");
            check_picture (got, ref, pitch, w * bpp, h, what);
            g_free (what);
          }
          cudaFree (res);
          cudaFree (d);
          g_free (ref);
          g_free (got);
        }
  {
    CipHistResult *res;
    guint8 *d;

    CUDA_OK (cudaMalloc ((void **) &res, sizeof *res));
    CUDA_OK (cudaMalloc ((void **) &d, 64));
    fail_unless_equals_int (cip_hist_picture (res, 1, 0, d,
            CIP_HIST_PICTURE_MAX + 1, CIP_HIST_PICTURE_MAX + 1, 1, NULL),
        cudaErrorInvalidValue);
    fail_unless_equals_int (cip_hist_picture (res, 1, 0, d, 16, 16,
            CIP_HIST_PICTURE_MAX + 1, NULL), cudaErrorInvalidValue);
    cudaFree (d);
    cudaFree (res);
  }
}

GST_END_TEST;

/* The luma's counts and picture from whole frames, GRAY8 (cip_hist_gray)
 * and RGBA and BGR (cip_hist_luma_packed, the luma made on the way): one
 * gray level, a ramp and noise, in a small frame (a width not a multiple of
 * 4) and one with more of RGBA's units than the launch has warps, at
 * several picture sizes and pitches and both scales, twice each (the
 * state is left zero), against ref_histogram and ref_histogram_picture. */
GST_START_TEST (test_frame_picture)
{
  static const gint frames[][2] = { {333, 211}, {1928, 1081} };
  static const gint sizes[][2] = { {256, 128}, {255, 77}, {1000, 40},
  {16, 16}, {700, 120}
  };
  guint32 seed = 9;
  guint32 *state;
  CipHistResult *res, host;
  guint s, kind, fmt, f;
  gint log_scale;

  CUDA_OK (cudaMalloc ((void **) &state, CIP_HIST_STATE_WORDS * 4));
  CUDA_OK (cudaMemset (state, 0, CIP_HIST_STATE_WORDS * 4));
  CUDA_OK (cudaMalloc ((void **) &res, sizeof host));
  for (f = 0; f < G_N_ELEMENTS (frames); f++)
    for (fmt = 0; fmt < 3; fmt++)
      for (kind = 0; kind < 3; kind++) {
        const gint w = frames[f][0], h = frames[f][1];
        const gint bpp = fmt == 0 ? 1 : fmt == 1 ? 4 : 3;
        const gint pitch = GST_ROUND_UP_16 (w * bpp) + 16;
        guint8 *in = g_malloc ((gsize) pitch * h), *gray = g_malloc (w * h);
        guint8 *d;
        guint32 counts[3][256] = { {0} };
        gint i;

        for (i = 0; i < pitch * h; i++)
          in[i] = kind == 0 ? 77 : kind == 1 ? (guint8) ((i % pitch) / 3) :
              (guint8) lcg (&seed);
        if (bpp == 1)
          for (i = 0; i < h; i++)
            memcpy (gray + i * w, in + (gsize) i * pitch, w);
        else                    /* RGBA; BGR: R at byte 2 */
          ref_gray_packed (in, pitch, bpp, bpp == 4 ? 0 : 2, 1,
              bpp == 4 ? 2 : 0, gray, w, w, h, CIP_GRAY_BT601_R,
              CIP_GRAY_BT601_G, CIP_GRAY_BT601_B, CIP_GRAY_SCALE_ONE);
        ref_histogram (gray, w, w, h, counts[0]);
        CUDA_OK (cudaMalloc ((void **) &d, (gsize) pitch * h));
        CUDA_OK (cudaMemcpy (d, in, (gsize) pitch * h, cudaMemcpyHostToDevice));
        for (s = 0; s < G_N_ELEMENTS (sizes); s++)
          for (log_scale = 0; log_scale < 2; log_scale++) {
            const gint pw = sizes[s][0], ph = sizes[s][1];
            /* odd sizes: a pitch of no alignment */
            const gint pp = s % 2 ? pw + 5 : GST_ROUND_UP_16 (pw) + 16;
            guint8 *ref = g_malloc0 ((gsize) pp * ph);
            guint8 *got = g_malloc0 ((gsize) pp * ph), *dp;
            gchar *what;
            gint twice;

            CUDA_OK (cudaMalloc ((void **) &dp, (gsize) pp * ph));
            ref_histogram_picture ((const guint32 (*)[256]) counts, 1,
                log_scale, ref, pp, pw, ph);
            for (twice = 0; twice < 2; twice++) {
              CUDA_OK (cudaMemset (dp, 0x5a, (gsize) pp * ph));
              if (bpp == 1)
                CUDA_OK (cip_hist_gray (d, pitch, w, h, state, res, NULL));
              else
                CUDA_OK (cip_hist_luma_packed (d, pitch, w, h, bpp,
                        bpp == 4 ? 0 : 2, 1, bpp == 4 ? 2 : 0, state, res,
                        NULL));
              CUDA_OK (cip_hist_picture (res, 1, log_scale, dp, pp, pw, ph,
                      NULL));
              CUDA_OK (cudaMemcpy (&host, res, sizeof host,
                      cudaMemcpyDeviceToHost));
              fail_unless_equals_int (host.channels, 1);
              fail_unless (memcmp (host.hist[0], counts[0],
                      sizeof counts[0]) == 0,
                  "%dx%d, bpp %d, kind %u: counts differ", w, h, bpp, kind);
              CUDA_OK (cudaMemcpy (got, dp, (gsize) pp * ph,
                      cudaMemcpyDeviceToHost));
              what = g_strdup_printf ("%dx%d, bpp %d, kind %u, picture %dx%d "
                  "%s", w, h, bpp, kind, pw, ph, log_scale ? "log" : "linear");
              check_picture (got, ref, pp, pw, ph, what);
              g_free (what);
            }
            cudaFree (dp);
            g_free (ref);
            g_free (got);
          }
        cudaFree (d);
        g_free (in);
        g_free (gray);
      }
  cudaFree (state);
  cudaFree (res);
}

GST_END_TEST;

/* ---- the element ------------------------------------------------------- */

/* What the element should give for @in (system memory, @info): its
 * counts (the luma's, or R, G, B) and the picture. */
static void
expected_counts (const GstVideoInfo * info, GstBuffer * in, gboolean rgb,
    guint32 counts[3][256])
{
  GstVideoFrame f;
  const gint w = info->width, h = info->height;
  guint8 *gray = g_malloc ((gsize) w * h);
  const GstVideoFormatInfo *fi = info->finfo;

  memset (counts, 0, sizeof (guint32) * 3 * 256);
  fail_unless (gst_video_frame_map (&f, info, in, GST_MAP_READ));
  if (rgb) {
    const gint bpp = GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, 0);
    const gint off[3] = { GST_VIDEO_FORMAT_INFO_POFFSET (fi, 0),
      GST_VIDEO_FORMAT_INFO_POFFSET (fi, 1),
      GST_VIDEO_FORMAT_INFO_POFFSET (fi, 2)
    };
    gint x, y, c;

    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        for (c = 0; c < 3; c++)
          counts[c][((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0))[(gsize) y
                  * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0) + (gsize) x * bpp +
                  off[c]]]++;
  } else {
    if (GST_VIDEO_FORMAT_INFO_IS_RGB (fi))
      ref_gray_packed (GST_VIDEO_FRAME_PLANE_DATA (&f, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0),
          GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, 0),
          GST_VIDEO_FORMAT_INFO_POFFSET (fi, 0),
          GST_VIDEO_FORMAT_INFO_POFFSET (fi, 1),
          GST_VIDEO_FORMAT_INFO_POFFSET (fi, 2), gray, w, w, h, 9798, 19235,
          3735, 65536);
    else
      ref_gray_luma (GST_VIDEO_FRAME_PLANE_DATA (&f, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), gray, w, w, h, 65536);
    ref_histogram (gray, w, w, h, counts[0]);
  }
  gst_video_frame_unmap (&f);
  g_free (gray);
}

static void
check_counts (GstMessage * msg, const gchar * field, const guint32 * want,
    const gchar * what)
{
  const GValue *arr = gst_structure_get_value (gst_message_get_structure
      (msg), field);
  guint b;

  fail_unless (arr && gst_value_array_get_size (arr) == 256, "%s: no %s",
      what, field);
  for (b = 0; b < 256; b++)
    fail_unless (g_value_get_uint (gst_value_array_get_value (arr, b)) ==
        want[b], "%s: %s bin %u differs", what, field, b);
}

/* One frame through: the message's counts and the output (the picture, or
 * the frame itself). */
static void
frame_case (MsgHarness * m, const gchar * format, gint w, gint h,
    gboolean cuda, gboolean rgb, gboolean passthrough, gboolean log_scale,
    gint pw, gint ph, gint i)
{
  gchar *caps = caps_str (cuda, format, w, h);
  GstCaps *c = gst_caps_from_string (caps);
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMessage *msg;
  guint32 counts[3][256];
  gchar *what = g_strdup_printf ("frame %d, %s %dx%d in %s memory, %s, %s",
      i, format, w, h, cuda ? "CUDA" : "system", rgb ? "rgb" : "luma",
      passthrough ? "passthrough" : log_scale ? "log picture" :
      "linear picture");
  GstVideoFrame f;

  fail_unless (gst_video_info_from_caps (&info, c));
  gst_caps_unref (c);
  gst_harness_set_src_caps_str (m->h, caps);
  in = cuda ? random_cuda_buffer (&info, i) : random_sys_buffer (&info, i);
  {
    GstBuffer *sys = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstVideoFrame a, b;

    gst_buffer_add_video_meta_full (sys, 0, GST_VIDEO_INFO_FORMAT (&info), w,
        h, GST_VIDEO_INFO_N_PLANES (&info), info.offset, info.stride);
    fail_unless (gst_video_frame_map (&a, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&b, &info, sys, GST_MAP_WRITE));
    fail_unless (gst_video_frame_copy (&b, &a));
    gst_video_frame_unmap (&a);
    gst_video_frame_unmap (&b);
    expected_counts (&info, sys, rgb, counts);
    gst_buffer_unref (sys);
  }
  /* kept: compared with the output below where it passes through */
  fail_unless_equals_int (gst_harness_push (m->h, gst_buffer_ref (stamp (in,
                  i))), GST_FLOW_OK);
  out = gst_harness_pull (m->h);
  fail_unless (out != NULL, "%s: no output", what);
  msg = gst_bus_timed_pop_filtered (m->bus, 10 * GST_SECOND,
      GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "%s: no message", what);
  if (rgb) {
    check_counts (msg, "red", counts[0], what);
    check_counts (msg, "green", counts[1], what);
    check_counts (msg, "blue", counts[2], what);
  } else {
    check_counts (msg, "histogram", counts[0], what);
  }
  gst_message_unref (msg);

  if (!passthrough) {
    GstVideoInfo pinfo;
    const gint bpp = rgb ? 4 : 1;
    guint8 *ref = g_malloc ((gsize) pw * bpp * ph);
    gint y;

    gst_video_info_set_format (&pinfo, rgb ? GST_VIDEO_FORMAT_RGBA :
        GST_VIDEO_FORMAT_GRAY8, pw, ph);
    ref_histogram_picture ((const guint32 (*)[256]) counts, rgb ? 3 : 1,
        log_scale, ref, pw * bpp, pw, ph);
    fail_unless (gst_video_frame_map (&f, &pinfo, out, GST_MAP_READ));
    for (y = 0; y < ph; y++) {
      glong d = first_diff ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), 0,
          ref + (gsize) y * pw * bpp, 0, pw * bpp, 1);
      fail_unless (d < 0, "%s: picture row %d byte %ld differs", what, y, d);
    }
    gst_video_frame_unmap (&f);
    g_free (ref);
  } else {
    GBytes *a, *b;
    GstCaps *oc = gst_pad_get_current_caps (m->h->sinkpad);
    GstVideoInfo oi;

    a = visible_bytes (out, oc, &oi);
    b = visible_bytes (in, oc, &oi);
    fail_unless (g_bytes_equal (a, b), "%s: not passed through", what);
    g_bytes_unref (a);
    g_bytes_unref (b);
    gst_caps_unref (oc);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (caps);
  g_free (what);
}

/* Luma of five formats in both memories, then while playing: log scale,
 * another size, rgb, passthrough. */
GST_START_TEST (test_element)
{
  gint cuda, i = 0;

  for (cuda = 0; cuda < 2; cuda++) {
    MsgHarness m = msg_harness_new ("cudahistogram name=h post-messages=true",
        "video/x-raw,format=RGBA,width=8,height=8,framerate=30/1",
        "video/x-raw", "h");

    frame_case (&m, "RGBA", 161, 97, cuda, FALSE, FALSE, FALSE, 256, 128, i++);
    frame_case (&m, "I420", 320, 240, cuda, FALSE, FALSE, FALSE, 256, 128, i++);
    frame_case (&m, "GRAY8", 641, 479, cuda, FALSE, FALSE, FALSE, 256, 128,
        i++);
    /* packed RGB's luma counted on the way, rows read 16 bytes at a time */
    frame_case (&m, "RGBx", 1920, 1080, cuda, FALSE, FALSE, FALSE, 256, 128,
        i++);
    frame_case (&m, "BGR", 1001, 37, cuda, FALSE, FALSE, FALSE, 256, 128, i++);
    gst_util_set_object_arg (G_OBJECT (m.e), "scale", "log");
    frame_case (&m, "RGBA", 161, 97, cuda, FALSE, FALSE, TRUE, 256, 128, i++);
    g_object_set (m.e, "width", 300, "height", 77, NULL);
    frame_case (&m, "BGRx", 161, 97, cuda, FALSE, FALSE, TRUE, 300, 77, i++);
    gst_util_set_object_arg (G_OBJECT (m.e), "channels", "rgb");
    gst_util_set_object_arg (G_OBJECT (m.e), "scale", "linear");
    frame_case (&m, "BGRx", 161, 97, cuda, TRUE, FALSE, FALSE, 300, 77, i++);
    frame_case (&m, "RGB", 64, 48, cuda, TRUE, FALSE, FALSE, 300, 77, i++);
    gst_util_set_object_arg (G_OBJECT (m.e), "output", "passthrough");
    frame_case (&m, "RGBA", 161, 97, cuda, TRUE, TRUE, FALSE, 0, 0, i++);
    gst_util_set_object_arg (G_OBJECT (m.e), "channels", "luma");
    frame_case (&m, "NV12", 160, 96, cuda, FALSE, TRUE, FALSE, 0, 0, i++);
    msg_harness_free (&m);
  }
}

GST_END_TEST;

/* channels=rgb on YUV input: an error that says what to do, no crash. */
GST_START_TEST (test_rgb_refuses_yuv)
{
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=64,height=48 ! cudahistogram "
      "channels=rgb name=h ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "packed RGB") != NULL, "%s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

GST_END_TEST;

static Suite *
histogram_suite (void)
{
  Suite *s = suite_create ("cudahistogram-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_golden_counts);
  tcase_add_test (tc, test_rgb_counts);
  tcase_add_test (tc, test_luma_refuses);
  tcase_add_test (tc, test_picture);
  tcase_add_test (tc, test_frame_picture);
  tcase_add_test (tc, test_element);
  tcase_add_test (tc, test_rgb_refuses_yuv);
  return s;
}

GPU_CHECK_MAIN (histogram);
