/* cudaimgproc: cudaotsu on the GPU against the CPU reference (itself
 * checked against OpenCV's thresholds in test_reference): threshold and
 * every pixel, on golden histograms, structured frames and odd sizes, and
 * the properties and messages.  Skips (exit 77) where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "otsu.h"

#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>

#include <math.h>
#include <stdio.h>


/* ---- frames ------------------------------------------------------------ */

typedef enum
{
  KIND_RANDOM, KIND_BIMODAL, KIND_UNIFORM, KIND_TWO, KIND_TEXT
} Kind;

static guint32
rng (guint32 * s)
{
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* A GRAY8 frame of @kind with the given row stride. */
static void
make_gray (guint8 * p, gint stride, gint w, gint h, Kind kind, guint32 seed)
{
  guint32 s = seed * 747796405u + 2891336453u;
  guint8 a = 40 + seed % 50, b = 150 + seed % 90;
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint32 r = rng (&s);
      guint8 v;
      switch (kind) {
        case KIND_RANDOM:
          v = r >> 24;
          break;
        case KIND_BIMODAL:
          /* two humps: sum of 3 uniforms around each centre */
          v = (r & 1 ? a : b) + ((r >> 8) % 21) + ((r >> 16) % 21) - 20;
          break;
        case KIND_UNIFORM:
          v = a;
          break;
        case KIND_TWO:
          v = (r % 3) ? a : b;
          break;
        default:               /* text-like: dark strokes on a page */
          v = ((x / 3 + y / 5) % 11 == 0) ? 20 + (r >> 28) : 230;
          break;
      }
      p[(gsize) y * stride + x] = v;
    }
}

static GstBuffer *
gray_buffer (gint w, gint h, gint stride, Kind kind, guint32 seed,
    GstVideoInfo * info)
{
  GstBuffer *buf;
  GstMapInfo map;

  gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, w, h);
  info->stride[0] = stride;
  info->size = (gsize) stride *h;
  buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (map.data, 0x5a, map.size);
  make_gray (map.data, stride, w, h, kind, seed);
  gst_buffer_unmap (buf, &map);
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_FORMAT_GRAY8, w, h, 1,
      info->offset, info->stride);
  return buf;
}

/* ---- the element ------------------------------------------------------- */

typedef MsgHarness Otsu;

static Otsu
otsu_new (const gchar * launch, const gchar * in_caps, const gchar * out_caps)
{
  return msg_harness_new (launch, in_caps, out_caps, "o");
}

/* Next cudaotsu message, with its threshold and optionally histogram. */
static guint
pop_threshold (Otsu * o, guint * otsu_t, guint32 * hist, GstClockTime * ts)
{
  GstMessage *msg;
  const GstStructure *s;
  guint t = 0;

  msg = gst_bus_timed_pop_filtered (o->bus, 2 * GST_SECOND,
      GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no cudaotsu message");
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "cudaotsu"));
  fail_unless (gst_structure_get_uint (s, "threshold", &t));
  if (otsu_t)
    fail_unless (gst_structure_get_uint (s, "otsu-threshold", otsu_t));
  if (ts)
    fail_unless (gst_structure_get_uint64 (s, "timestamp", ts));
  if (hist) {
    const GValue *arr = gst_structure_get_value (s, "histogram");
    guint i;
    fail_unless (arr && gst_value_array_get_size (arr) == 256);
    for (i = 0; i < 256; i++)
      hist[i] = g_value_get_uint (gst_value_array_get_value (arr, i));
  }
  gst_message_unref (msg);
  return t;
}

/* Pushes one GRAY8 frame and checks threshold (via the message) and every
 * pixel against the reference; returns the threshold. */
static gint
check_frame (Otsu * o, GstBuffer * in, const GstVideoInfo * info,
    gint offset, gboolean invert, gboolean fixed, guint fixed_t,
    double smoothing, float *ema)
{
  gint w = info->width, h = info->height;
  guint32 hist[256], mhist[256];
  guint8 *ref = g_malloc ((gsize) w * h);
  GstVideoInfo oinfo;
  GstVideoFrame fi, fo;
  GstBuffer *out;
  gint t, ot;
  guint mt, mo;
  glong d;

  fail_unless (gst_video_frame_map (&fi, info, in, GST_MAP_READ));
  ref_histogram (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), w, h, hist);
  ot = fixed ? (gint) fixed_t : ref_otsu_threshold (hist, (uint64_t) w * h);
  t = ref_otsu_final (ot, offset, fixed ? 0 : smoothing, ema);
  ref_binarize (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), ref, w, w, h, t, invert);
  gst_video_frame_unmap (&fi);

  if (!GST_BUFFER_PTS_IS_VALID (in))
    GST_BUFFER_PTS (in) = 1000 + w;
  fail_unless_equals_int (gst_harness_push (o->h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (o->h);
  fail_unless (out != NULL);
  gst_video_info_set_format (&oinfo, GST_VIDEO_FORMAT_GRAY8, w, h);
  fail_unless (gst_video_frame_map (&fo, &oinfo, out, GST_MAP_READ));
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), ref, w, w, h);
  fail_unless (d < 0, "%dx%d t=%d: pixel %ld is %d, reference %d", w, h, t, d,
      ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 0))[(d / w) *
          GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0) + d % w], ref[d]);
  gst_video_frame_unmap (&fo);

  mt = pop_threshold (o, &mo, fixed ? NULL : mhist, NULL);
  fail_unless_equals_int (mt, t);
  fail_unless_equals_int (mo, ot);
  if (!fixed)
    fail_unless (memcmp (mhist, hist, sizeof (hist)) == 0,
        "histogram of the message differs");
  gst_buffer_unref (out);
  g_free (ref);
  return t;
}

static gchar *
gray_caps (gboolean cuda, gint w, gint h)
{
  return caps_str (cuda, "GRAY8", w, h);
}

static void
kind_case (Otsu * o, gint w, gint h, gint pad, Kind kind, guint32 seed)
{
  GstVideoInfo info;
  GstBuffer *in = gray_buffer (w, h, w + pad, kind, seed, &info);
  gchar *c = gray_caps (FALSE, w, h);
  float ema = -1;

  gst_harness_set_src_caps_str (o->h, c);
  g_free (c);
  check_frame (o, in, &info, 0, FALSE, FALSE, 0, 0, &ema);
  gst_buffer_unref (in);
}

#define OUT_SYS "video/x-raw,format=GRAY8"
#define OUT_CUDA "video/x-raw(memory:CUDAMemory),format=GRAY8"

GST_START_TEST (test_frames_and_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {2, 3}, {1, 7}, {9, 1},
  {17, 5}, {641, 479}, {1920, 1080}
  };
  Otsu o = otsu_new ("cudaotsu name=o post-messages=true",
      "video/x-raw,format=GRAY8,width=1,height=1,framerate=30/1", OUT_CUDA);
  guint s, k;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (k = KIND_RANDOM; k <= KIND_TEXT; k++) {
      kind_case (&o, sizes[s][0], sizes[s][1], 0, k, s * 10 + k);
      /* padded rows, odd stride */
      kind_case (&o, sizes[s][0], sizes[s][1], 13, k, s * 10 + k + 5);
    }
  msg_harness_free (&o);
}

GST_END_TEST;

GST_START_TEST (test_8k)
{
  Otsu o = otsu_new ("cudaotsu name=o post-messages=true",
      "video/x-raw,format=GRAY8,width=1,height=1,framerate=30/1", OUT_SYS);

  kind_case (&o, 7680, 4320, 0, KIND_BIMODAL, 1);
  /* one value over 33 M pixels: the histogram's worst case */
  kind_case (&o, 7680, 4320, 0, KIND_UNIFORM, 2);
  kind_case (&o, 7680, 4320, 64, KIND_TEXT, 3);
  msg_harness_free (&o);
}

GST_END_TEST;

/* Frames made from the golden histograms: the GPU's threshold must be
 * OpenCV's (the file holds OpenCV's). */
GST_START_TEST (test_golden_histograms)
{
  const gchar *golden_path = gpu_test_arg ? gpu_test_arg :
      "tests/data/otsu_golden.txt";
  FILE *f = fopen (golden_path, "r");
  Otsu o = otsu_new ("cudaotsu name=o post-messages=true",
      "video/x-raw,format=GRAY8,width=1,height=1,framerate=30/1", OUT_SYS);
  char *line = g_malloc (8192), name[64];
  gint n = 0;

  fail_unless (f != NULL, "cannot open %s", golden_path);
  while (fgets (line, 8192, f)) {
    guint32 hist[256];
    gsize total;
    gint t, i, w, h;
    GstVideoInfo info;
    GstBuffer *buf;
    GstMapInfo map;
    guint32 seed = 99;
    gsize k;
    float ema = -1;
    gchar *c;

    if (!otsu_golden_line (line, name, &t, hist, &w, &h))
      continue;
    total = (gsize) w *h;
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
    buf = gst_buffer_new_allocate (NULL, info.size, NULL);
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    /* the histogram's pixels, shuffled */
    for (i = 0, k = 0; i < 256; i++)
      for (guint32 j = 0; j < hist[i]; j++, k++)
        map.data[(k / w) * info.stride[0] + k % w] = i;
    for (k = total - 1; k > 0; k--) {
      gsize r = rng (&seed) % (k + 1);
      guint8 *a = &map.data[(k / w) * info.stride[0] + k % w];
      guint8 *b = &map.data[(r / w) * info.stride[0] + r % w];
      guint8 tmp = *a;
      *a = *b;
      *b = tmp;
    }
    gst_buffer_unmap (buf, &map);
    c = gray_caps (FALSE, w, h);
    gst_harness_set_src_caps_str (o.h, c);
    g_free (c);
    fail_unless_equals_int (check_frame (&o, buf, &info, 0, FALSE, FALSE, 0,
            0, &ema), t);
    gst_buffer_unref (buf);
    n++;
  }
  fail_unless (n >= 50);
  fclose (f);
  g_free (line);
  msg_harness_free (&o);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  Otsu o = otsu_new ("cudaotsu name=o post-messages=true",
      "video/x-raw,format=GRAY8,width=641,height=479,framerate=30/1",
      OUT_CUDA);
  GstVideoInfo info;
  GstBuffer *in;
  float ema = -1;
  gint i;

  in = gray_buffer (641, 479, 641, KIND_BIMODAL, 7, &info);
  g_object_set (o.e, "invert", TRUE, NULL);
  check_frame (&o, in, &info, 0, TRUE, FALSE, 0, 0, &ema);
  g_object_set (o.e, "invert", FALSE, "threshold-offset", 30, NULL);
  check_frame (&o, in, &info, 30, FALSE, FALSE, 0, 0, &ema);
  g_object_set (o.e, "threshold-offset", -255, NULL);
  check_frame (&o, in, &info, -255, FALSE, FALSE, 0, 0, &ema);
  g_object_set (o.e, "threshold-offset", 0, NULL);
  gst_util_set_object_arg (G_OBJECT (o.e), "mode", "fixed");
  g_object_set (o.e, "threshold", 100, NULL);
  check_frame (&o, in, &info, 0, FALSE, TRUE, 100, 0, &ema);
  g_object_set (o.e, "threshold", 255, "threshold-offset", 7, NULL);
  check_frame (&o, in, &info, 7, FALSE, TRUE, 255, 0, &ema);
  gst_util_set_object_arg (G_OBJECT (o.e), "mode", "otsu");
  g_object_set (o.e, "threshold-offset", 0, NULL);
  gst_buffer_unref (in);

  /* smoothing: an EMA over frames whose thresholds move */
  g_object_set (o.e, "smoothing", 0.75, NULL);
  ema = -1;
  for (i = 0; i < 8; i++) {
    in = gray_buffer (641, 479, 641, KIND_BIMODAL, 10 + i * 17, &info);
    check_frame (&o, in, &info, 0, FALSE, FALSE, 0, 0.75, &ema);
    gst_buffer_unref (in);
  }

  /* no messages unless asked */
  g_object_set (o.e, "post-messages", FALSE, "smoothing", 0.0, NULL);
  in = gray_buffer (641, 479, 641, KIND_RANDOM, 3, &info);
  gst_harness_push (o.h, in);
  gst_buffer_unref (gst_harness_pull (o.h));
  fail_unless (gst_bus_timed_pop_filtered (o.bus, 100 * GST_MSECOND,
          GST_MESSAGE_ELEMENT) == NULL, "message without post-messages");
  msg_harness_free (&o);
}

GST_END_TEST;

/* Controlled properties: a control source on threshold and
 * threshold-offset (GST_PARAM_CONTROLLABLE) sets them for each frame from
 * its stream time, as GStreamer's controller does for any element. */
GST_START_TEST (test_controller)
{
  Otsu o = otsu_new ("cudaotsu name=o mode=fixed post-messages=true",
      "video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1",
      OUT_CUDA);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstControlSource *cs2 = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tv = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  GstTimedValueControlSource *tv2 = GST_TIMED_VALUE_CONTROL_SOURCE (cs2);
  static const struct
  {
    GstClockTime pts;
    guint threshold;
    gint offset;
  } frames[] = {
    {0, 40, 0}, {GST_SECOND / 2, 40, 0}, {GST_SECOND, 200, 0},
    {3 * GST_SECOND / 2, 120, 0}, {2 * GST_SECOND, 120, -20}
  };
  GstVideoInfo info;
  float ema = -1;
  guint i;

  /* steps (no interpolation), so each frame's value is exact */
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  g_object_set (cs2, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  gst_timed_value_control_source_set (tv, 0, 40.0);
  gst_timed_value_control_source_set (tv, GST_SECOND, 200.0);
  gst_timed_value_control_source_set (tv, 3 * GST_SECOND / 2, 120.0);
  gst_timed_value_control_source_set (tv2, 0, 0.0);
  gst_timed_value_control_source_set (tv2, 2 * GST_SECOND, -20.0);
  fail_unless (gst_object_add_control_binding (GST_OBJECT (o.e),
          gst_direct_control_binding_new_absolute (GST_OBJECT (o.e),
              "threshold", cs)));
  fail_unless (gst_object_add_control_binding (GST_OBJECT (o.e),
          gst_direct_control_binding_new_absolute (GST_OBJECT (o.e),
              "threshold-offset", cs2)));
  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    GstBuffer *in = gray_buffer (320, 240, 320, KIND_RANDOM, 50 + i, &info);
    guint t;
    GST_BUFFER_PTS (in) = frames[i].pts;
    check_frame (&o, in, &info, frames[i].offset, FALSE, TRUE,
        frames[i].threshold, 0, &ema);
    g_object_get (o.e, "threshold", &t, NULL);
    fail_unless_equals_int (t, frames[i].threshold);
    gst_buffer_unref (in);
  }
  gst_object_unref (cs);
  gst_object_unref (cs2);
  msg_harness_free (&o);
}

GST_END_TEST;

/* Colour input, converted inside; and cudagray ! cudaotsu on the GPU. */
GST_START_TEST (test_colour_input)
{
  static const gchar *launch[] = { "cudaotsu name=o post-messages=true",
    "cudagray ! cudaotsu name=o post-messages=true"
  };
  guint l;

  for (l = 0; l < G_N_ELEMENTS (launch); l++) {
    gint combo;
    for (combo = 0; combo < 2; combo++) {
      gchar *c = caps_str (combo, "BGRx", 643, 481);
      Otsu o = otsu_new (launch[l], c, combo ? OUT_SYS : OUT_CUDA);
      GstVideoInfo info, ginfo;
      GstBuffer *in, *gray;
      GstVideoFrame fi;
      GstMapInfo gm;
      float ema = -1;

      gst_video_info_set_format (&info, GST_VIDEO_FORMAT_BGRx, 643, 481);
      in = combo ? random_cuda_buffer (&info, 5) : random_sys_buffer (&info, 5);
      /* the reference of the luma it sees */
      gst_video_info_set_format (&ginfo, GST_VIDEO_FORMAT_GRAY8, 643, 481);
      gray = gst_buffer_new_allocate (NULL, ginfo.size, NULL);
      gst_buffer_map (gray, &gm, GST_MAP_WRITE);
      fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
      ref_gray_packed (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), 4, 2, 1, 0, gm.data,
          ginfo.stride[0], 643, 481, 9798, 19235, 3735, 65536);
      gst_video_frame_unmap (&fi);
      gst_buffer_unmap (gray, &gm);

      /* push the colour frame, check against the gray frame's reference */
      {
        guint32 hist[256];
        guint8 *ref = g_malloc (643 * 481);
        GstBuffer *out;
        GstVideoFrame fo;
        gint t;

        gst_buffer_map (gray, &gm, GST_MAP_READ);
        ref_histogram (gm.data, ginfo.stride[0], 643, 481, hist);
        t = ref_otsu_threshold (hist, 643 * 481);
        ref_binarize (gm.data, ginfo.stride[0], ref, 643, 643, 481, t, 0);
        gst_buffer_unmap (gray, &gm);
        gst_harness_push (o.h, gst_buffer_ref (in));
        out = gst_harness_pull (o.h);
        fail_unless (gst_video_frame_map (&fo, &ginfo, out, GST_MAP_READ));
        fail_unless (first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
                GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), ref, 643, 643,
                481) < 0, "%s: pixels differ", launch[l]);
        gst_video_frame_unmap (&fo);
        fail_unless_equals_int (pop_threshold (&o, NULL, NULL, NULL), t);
        gst_buffer_unref (out);
        g_free (ref);
      }
      (void) ema;
      gst_buffer_unref (in);
      gst_buffer_unref (gray);
      msg_harness_free (&o);
      g_free (c);
    }
  }
}

GST_END_TEST;

/* Messages arrive in frame order, with the frames' timestamps, also when
 * several frames are in flight (downstream is ours, no host sync), and all
 * of them before EOS goes downstream. */
GST_START_TEST (test_messages_async)
{
  Otsu o = otsu_new ("cudaotsu name=o post-messages=true ! cudagray",
      "video/x-raw,format=GRAY8,width=1920,height=1080,framerate=30/1",
      OUT_CUDA);
  GstVideoInfo info;
  gint i, n = 20;

  for (i = 0; i < n; i++) {
    GstBuffer *in = gray_buffer (1920, 1080, 1920, KIND_BIMODAL, i, &info);
    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (o.h, in), GST_FLOW_OK);
  }
  gst_harness_push_event (o.h, gst_event_new_eos ());
  for (i = 0; i < n; i++) {
    GstBuffer *in = gray_buffer (1920, 1080, 1920, KIND_BIMODAL, i, &info);
    GstMapInfo m;
    guint32 hist[256];
    GstClockTime ts;
    guint t;

    gst_buffer_map (in, &m, GST_MAP_READ);
    ref_histogram (m.data, 1920, 1920, 1080, hist);
    gst_buffer_unmap (in, &m);
    t = pop_threshold (&o, NULL, NULL, &ts);
    fail_unless_equals_int (t, ref_otsu_threshold (hist, 1920 * 1080));
    fail_unless_equals_uint64 (ts, i * GST_SECOND / 30);
    gst_buffer_unref (in);
    gst_buffer_unref (gst_harness_pull (o.h));
  }
  msg_harness_free (&o);
}

GST_END_TEST;

/* The binarize kernel against the reference for every threshold and both
 * polarities, on a frame holding every byte value, through the 16-byte
 * path (whose per-byte compare is carry arithmetic) and the byte path.  A
 * row of 1040: both pieces of every lane of a 1024-pixel group, and one of
 * the next group. */
GST_START_TEST (test_binarize_every_threshold)
{
  const gint w = 1040, h = 2, pitch = 1056;
  guint8 *host = g_malloc ((gsize) pitch * h), *out = g_malloc (pitch * h),
      *ref = g_malloc ((gsize) w * h);
  guint8 *d_src, *d_dst;
  guint32 *d_t;
  gint t, inv, off, i;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  fill_random (host, (gsize) pitch * h, 7);
  for (i = 0; i < 256; i++)     /* every value, in every byte position */
    host[(i / w) * pitch + i % w] = (guint8) i;
  CUDA_OK (cudaMalloc ((void **) &d_src, (gsize) pitch * h + 16));
  CUDA_OK (cudaMalloc ((void **) &d_dst, (gsize) pitch * h + 16));
  CUDA_OK (cudaMalloc ((void **) &d_t, sizeof (guint32)));
  CUDA_OK (cudaMemcpy (d_src, host, (gsize) pitch * h, cudaMemcpyHostToDevice));
  for (off = 0; off < 2; off++) /* 1: misaligned output, the byte path */
    for (t = 0; t < 256; t++)
      for (inv = 0; inv < 2; inv++) {
        guint32 tt = t;
        gint y;
        CUDA_OK (cudaMemcpy (d_t, &tt, 4, cudaMemcpyHostToDevice));
        CUDA_OK (cip_otsu_binarize (d_src, pitch, d_dst + off, pitch, w, h,
                d_t, inv, 0));
        CUDA_OK (cudaMemcpy2D (out, w, d_dst + off, pitch, w, h,
                cudaMemcpyDeviceToHost));
        ref_binarize (host, pitch, ref, w, w, h, t, inv);
        for (y = 0; y < h; y++)
          fail_unless (memcmp (out + y * w, ref + y * w, w) == 0,
              "binarize t=%d invert=%d offset %d: row %d differs", t, inv,
              off, y);
      }
  cudaFree (d_src);
  cudaFree (d_dst);
  cudaFree (d_t);
  g_free (host);
  g_free (out);
  g_free (ref);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The one-launch frame (histogram, threshold, binarize: the blocks wait for
 * the threshold inside the launch) and the two-launch fallback, straight
 * through the launchers: several frames of different content queued back to
 * back on one stream must each get their own threshold and pixels, and
 * leave the state ready for the next. */
GST_START_TEST (test_one_launch_frames)
{
  /* 4K: warps with a left-over group (cip::Share), in 16-byte pieces and,
   * with an odd pitch, byte by byte */
  static const gint sizes[][3] = { {1, 1, 1}, {3, 2, 16}, {33, 7, 48},
  {641, 479, 656}, {640, 480, 640}, {3840, 2160, 3840}, {3840, 2160, 3853}
  };
  /* frames 4 and 5 repeat frame 3: the one launch's guess (the threshold
   * before) holds there, and fails on the others */
  const gint frames = 6;
  cudaStream_t stream;
  guint32 *d_state;
  CipOtsuResult *d_res, res;
  float *d_ema;
  guint sz;
  gint two;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CUDA_OK (cudaMalloc ((void **) &d_state, CIP_OTSU_STATE_WORDS * 4));
  CUDA_OK (cudaMemset (d_state, 0, CIP_OTSU_STATE_WORDS * 4));
  CUDA_OK (cudaMalloc ((void **) &d_res, frames * sizeof (CipOtsuResult)));
  CUDA_OK (cudaMalloc ((void **) &d_ema, sizeof (float)));
  for (sz = 0; sz < G_N_ELEMENTS (sizes); sz++)
    for (two = 0; two < 2; two++) {
      const gint w = sizes[sz][0], h = sizes[sz][1], pitch = sizes[sz][2];
      const gsize n = (gsize) pitch * h;
      guint8 *host = g_malloc (n * frames), *out = g_malloc (n),
          *ref = g_malloc ((gsize) w * h);
      guint8 *d_src, *d_dst;
      guint32 state[CIP_OTSU_STATE_WORDS];
      gint f, y, changes, prev;

      CUDA_OK (cudaMalloc ((void **) &d_src, n * frames));
      CUDA_OK (cudaMalloc ((void **) &d_dst, n * frames));
      for (f = 0; f < frames; f++)
        if (f < 4)
          make_gray (host + n * f, pitch, w, h, (Kind) (f % 5), sz * 7 + f);
        else
          memcpy (host + n * f, host + n * 3, n);
      CUDA_OK (cudaMemcpy (d_src, host, n * frames, cudaMemcpyHostToDevice));
      for (f = 0; f < frames; f++) {
        CipOtsuParams p = { 0, 128, 0, 0.0f, 1, 0 };
        const gint inv = f & 1;
        if (two) {
          CUDA_OK (cip_otsu_choose (d_src + n * f, pitch, w, h, d_state,
                  d_state + CIP_OTSU_HIST_WORDS, &p, d_res + f, d_ema, stream));
          CUDA_OK (cip_otsu_binarize (d_src + n * f, pitch, d_dst + n * f,
                  pitch, w, h, &d_res[f].threshold, inv, stream));
        } else {
          CUDA_OK (cip_otsu_frame (d_src + n * f, pitch, d_dst + n * f,
                  pitch, w, h, d_state, d_state + CIP_OTSU_HIST_WORDS, &p, inv,
                  d_res + f, d_ema, stream));
        }
      }
      CUDA_OK (cudaStreamSynchronize (stream));
      for (f = 0, changes = 0, prev = -1; f < frames; f++) {
        guint32 hist[256];
        gint t;
        ref_histogram (host + n * f, pitch, w, h, hist);
        t = ref_otsu_threshold (hist, (guint64) w * h);
        changes += f > 0 && t != prev;
        prev = t;
        CUDA_OK (cudaMemcpy (&res, d_res + f, sizeof (res),
                cudaMemcpyDeviceToHost));
        /* the histogram first: a threshold wrong from a wrong histogram
         * says so, with the frame */
        if (memcmp (res.hist, hist, sizeof (hist)) != 0) {
          gint b = 0;
          while (res.hist[b] == hist[b])
            b++;
          fail ("%dx%d pitch %d frame %d (%s): bin %d counted %u, not %u", w,
              h, pitch, f, two ? "two launches" : "one launch", b,
              res.hist[b], hist[b]);
        }
        fail_unless (res.threshold == (guint) t,
            "%dx%d pitch %d frame %d (%s): threshold %u, not %d", w, h, pitch,
            f, two ? "two launches" : "one launch", res.threshold, t);
        CUDA_OK (cudaMemcpy2D (out, w, d_dst + n * f, pitch, w, h,
                cudaMemcpyDeviceToHost));
        ref_binarize (host + n * f, pitch, ref, w, w, h, t, f & 1);
        for (y = 0; y < h; y++)
          fail_unless (memcmp (out + (gsize) y * w, ref + (gsize) y * w,
                  w) == 0, "%dx%d frame %d (%s): row %d differs", w, h, f,
              two ? "two launches" : "one launch", y);
      }
      /* from 640x480 on (blocks enough to speculate), the guess was both
       * wrong and right */
      if (w * h >= 640 * 480)
        fail_unless (changes > 0 && changes < frames - 1,
            "%dx%d: the threshold changed %d times", w, h, changes);
      /* the histogram copies and block counter are zero again for the next
       * frame (the rest are flags that count frames) */
      CUDA_OK (cudaMemcpy (state, d_state, sizeof (state),
              cudaMemcpyDeviceToHost));
      for (y = 0; y <= CIP_OTSU_HIST_WORDS; y++)
        fail_unless (state[y] == 0, "state word %d left at %u", y, state[y]);
      cudaFree (d_src);
      cudaFree (d_dst);
      g_free (host);
      g_free (out);
      g_free (ref);
    }
  cudaFree (d_state);
  cudaFree (d_res);
  cudaFree (d_ema);
  cudaStreamDestroy (stream);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

/* The certified fast path and OpenCV's recurrence, straight through the
 * launcher, on thousands of histograms of every shape: both must give the
 * reference's (OpenCV's) threshold. */
GST_START_TEST (test_threshold_paths)
{
  const gint n = 3000;
  uint32_t *d_hist;
  CipOtsuResult *d_res, res;
  float *d_ema;
  guint32 s = 12345;
  gint c, fast = 0;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  CUDA_OK (cudaMalloc ((void **) &d_hist, 1024));
  CUDA_OK (cudaMalloc ((void **) &d_res, sizeof (CipOtsuResult)));
  CUDA_OK (cudaMalloc ((void **) &d_ema, sizeof (float)));
  for (c = 0; c < n; c++) {
    guint32 h[256] = { 0 };
    guint64 total = 0;
    gint kind = c % 8, i, exact;

    for (i = 0; i < 256; i++) {
      guint32 r = rng (&s);
      switch (kind) {
        case 0:                /* dense, photo-like sizes */
          h[i] = r % 40000;
          break;
        case 1:                /* sparse: few bins, gaps */
          h[i] = (r % 23 == 0) ? 1 + r % 5000 : 0;
          break;
        case 2:                /* two or three values */
          h[i] = (i == 30 + c % 50 || i == 180 + c % 60 || (c & 1 && i == 250))
              ? 1 + r % 100000 : 0;
          break;
        case 3:                /* smooth bimodal */
          h[i] = (guint32) (50000 * exp (-(i - 70) * (i - 70) / 400.0) +
              30000 * exp (-(i - 190) * (i - 190) / 900.0)) + r % 7;
          break;
        case 4:                /* tiny frames */
          h[i] = (r % 64 == 0) ? 1 : 0;
          break;
        case 5:                /* huge frame, rare pixels at both ends */
          h[i] = (i == 0 || i == 255) ? 1 + r % 3 : (i > 100 && i < 140) ?
              1000000 + r % 1000 : 0;
          break;
        case 6:                /* power-of-two totals: q1 exactly 2^-23 */
          h[i] = (i == 10) ? 1 : (i == 128) ? (1u << 23) - 1 - (c % 3) : 0;
          break;
        default:               /* uniform noise on a narrow range */
          h[i] = (i >= 100 && i < 104) ? 1 + r % 1000 : 0;
          break;
      }
      total += h[i];
    }
    if (!total)
      continue;
    for (exact = 0; exact < 2; exact++) {
      CipOtsuParams p = { 0, 128, 0, 0.0f, 1, exact };
      CUDA_OK (cudaMemcpy (d_hist, h, 1024, cudaMemcpyHostToDevice));
      CUDA_OK (cip_otsu_threshold (d_hist, total, &p, d_res, d_ema, 0));
      CUDA_OK (cudaMemcpy (&res, d_res, sizeof (res), cudaMemcpyDeviceToHost));
      fail_unless_equals_int (res.otsu, ref_otsu_threshold (h, total));
      if (exact)
        fail_unless (res.exact_path == 1);
      else
        fast += res.exact_path == 0;
    }
  }
  g_print ("threshold paths: %d of %d histograms certified on the fast "
      "path, the rest by the recurrence; all equal OpenCV's\n", fast, n);
  cudaFree (d_hist);
  cudaFree (d_res);
  cudaFree (d_ema);
  gst_cuda_context_pop (NULL);
}

GST_END_TEST;

static Suite *
otsu_gpu_suite (void)
{
  Suite *s = suite_create ("cudaotsu-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 900);
  tcase_add_test (tc, test_threshold_paths);
  tcase_add_test (tc, test_binarize_every_threshold);
  tcase_add_test (tc, test_one_launch_frames);
  tcase_add_test (tc, test_frames_and_sizes);
  tcase_add_test (tc, test_8k);
  tcase_add_test (tc, test_golden_histograms);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_controller);
  tcase_add_test (tc, test_colour_input);
  tcase_add_test (tc, test_messages_async);
  return s;
}

GPU_CHECK_MAIN (otsu_gpu);
