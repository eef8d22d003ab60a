/* cudaimgproc: renegotiation mid-stream on every filter element (issue 24,
 * item 3).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One element instance is taken through a walk of caps changes without a
 * restart: size (to and from 1x1, 3x2, odd widths, 641x479), format
 * (every element through several of those it takes, packed RGB, planar
 * and semi-planar YUV, GRAY8), input memory (system <-> CUDA), output
 * memory (system <-> CUDA, downstream asking for the other one) and the
 * layout of system-memory input given by its GstVideoMeta: rows padded by
 * 37 bytes, GStreamer's default strides, and rows with no padding at all
 * (RGB 641 wide: rows of 1923 bytes, as rawvideoparse with plane-strides
 * gives them; I420 641 wide: chroma rows of 321 bytes).  The padding
 * bytes hold garbage, which must not reach the output.
 *
 * cudaoverlay walks the same stages on its video pad while its mask
 * changes size and memory too.
 *
 * Each stage's frames must come out equal, byte for byte on every visible
 * byte, to those of a new instance of the element that sees only that
 * stage, with the frames in system memory and GStreamer's default layout
 * (the per-element GPU tests hold those against the CPU references), and
 * the output caps must be the same.  Frame content, settings and the
 * number of frames a stage are the same in both, so cross-frame state
 * (cudakmeans' warm start, cudathin3d's volume) must also start afresh at
 * each caps change, as a new instance would.  Nothing may be posted on the
 * bus.
 */
#include "gputest.h"

#include <string.h>

#define PAD_TIGHT (-1)          /* rows of exactly their bytes */
#define PAD_DEFAULT 0           /* GStreamer's default strides */

typedef struct
{
  gint w, h;
  gboolean cuda_in, cuda_out;
  gint pad;                     /* system-memory input: bytes after a row */
} Stage;

static const Stage stages[] = {
  {161, 97, FALSE, FALSE, PAD_DEFAULT},
  {1, 1, TRUE, TRUE, PAD_DEFAULT},
  {641, 479, FALSE, FALSE, PAD_TIGHT},
  {3, 2, FALSE, TRUE, 37},
  {641, 479, TRUE, FALSE, PAD_DEFAULT},
  {1, 1, FALSE, FALSE, PAD_TIGHT},
  {64, 48, TRUE, TRUE, PAD_DEFAULT},
  {161, 97, FALSE, FALSE, 37},
  {1, 1, FALSE, TRUE, 37},
  {641, 479, FALSE, TRUE, PAD_TIGHT},
  {3, 2, TRUE, FALSE, PAD_DEFAULT},
  {161, 97, TRUE, TRUE, PAD_DEFAULT},
};

typedef struct
{
  const gchar *launch;
  GstVideoFormat formats[8];    /* stage i takes formats[i % n] */
  gint frames;                  /* a stage's frames */
} Case;

#define F(x) GST_VIDEO_FORMAT_##x

static const Case cases[] = {
  {"cudagray", {F (RGBA), F (RGB), F (I420), F (BGR), F (NV12), F (GRAY8),
          F (Y444), F (xBGR)}, 2},
  {"cudaotsu", {F (RGB), F (GRAY8), F (NV12)}, 2},
  {"cudasobel ksize=5", {F (GRAY8), F (BGRx), F (I420)}, 2},
  {"cudasmooth method=gaussian ksize=5", {F (RGB), F (GRAY8), F (ABGR),
          F (BGR)}, 2},
  {"cudasmooth method=median ksize=3", {F (GRAY8), F (BGR)}, 2},
  {"cudathin", {F (GRAY8)}, 2},
  /* warm start on: the second frame of a stage refines the first's */
  {"cudakmeans k=4", {F (RGB), F (I420), F (RGBA), F (NV12), F (BGR)}, 2},
  {"cudakmeans k=3 output=labels", {F (BGRx), F (NV12)}, 2},
  /* a volume of 3 slices a stage */
  {"cudathin3d depth=3", {F (GRAY8)}, 3},
};

static guint
n_formats (const Case * c)
{
  guint n = 0;

  while (n < G_N_ELEMENTS (c->formats) && c->formats[n] != 0)
    n++;
  return n;
}

/* ---- frames ---- */

/* The frame's content: each plane's visible bytes, rows packed */
typedef struct
{
  guint8 *plane[GST_VIDEO_MAX_PLANES];
} Content;

static Content
content_new (const GstVideoInfo * info, guint32 seed)
{
  Content c = { {NULL} };
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gsize row;
    guint rows;

    plane_extent (info, p, &row, &rows);
    c.plane[p] = g_malloc (row * rows);
    fill_random (c.plane[p], row * rows, seed * 16 + p);
  }
  return c;
}

static void
content_free (Content * c)
{
  guint p;

  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    g_free (c->plane[p]);
}

/* @c in a buffer: CUDA memory of the test's context (the allocator's
 * pitch), or system memory with rows @pad bytes longer than their bytes
 * (PAD_DEFAULT: GStreamer's default layout), said by a GstVideoMeta. */
static GstBuffer *
frame_buffer (const GstVideoInfo * info, const Content * c, gboolean cuda,
    gint pad)
{
  GstVideoInfo layout = *info;
  GstBuffer *buf = gst_buffer_new ();
  GstVideoFrame f;
  guint p, y;

  if (cuda) {
    GstMemory *mem = gst_cuda_img_memory_alloc (gpu_test_context (), info,
        &layout);

    fail_unless (mem != NULL);
    gst_buffer_append_memory (buf, mem);
  } else {
    GstMapInfo map;

    if (pad != PAD_DEFAULT) {
      gsize off = 0;

      for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
        gsize row;
        guint rows;

        plane_extent (info, p, &row, &rows);
        layout.offset[p] = off;
        layout.stride[p] = (gint) row + MAX (pad, 0);
        off += (gsize) layout.stride[p] * rows;
      }
      layout.size = off;
    }
    gst_buffer_append_memory (buf, gst_allocator_alloc (NULL,
            MAX (layout.size, 1), NULL));
    /* garbage where no pixel is */
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    memset (map.data, 0xa5, map.size);
    gst_buffer_unmap (buf, &map);
  }
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_INFO_FORMAT (info),
      info->width, info->height, GST_VIDEO_INFO_N_PLANES (info),
      layout.offset, layout.stride);
  fail_unless (gst_video_frame_map (&f, &layout, buf, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    gsize row;
    guint rows;

    plane_extent (info, p, &row, &rows);
    for (y = 0; y < rows; y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p),
          c->plane[p] + y * row, row);
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* ---- harnesses ---- */

static gchar *
caps_of (const GstVideoInfo * info, gboolean cuda)
{
  return caps_str (cuda, gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
          (info)), info->width, info->height);
}

/* Pushes @n frames and pulls what comes out: @out gets the visible bytes
 * of each, @caps the output caps. */
static void
run_stage (GstHarness * h, const GstVideoInfo * info, const Content * c,
    gint n, gboolean cuda, gint pad, GBytes ** out, GstCaps ** caps)
{
  gint i, pulled = 0;

  for (i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (h, frame_buffer (info, &c[i],
                cuda, pad)), GST_FLOW_OK);
  /* cudathin3d gives its volume at the last slice; the filters a frame
   * for each */
  for (i = 0; i < n; i++) {
    GstBuffer *b = gst_harness_pull (h);
    GstVideoInfo oinfo;

    fail_unless (b != NULL, "frame %d of %d did not come out", i, n);
    gst_clear_caps (caps);
    *caps = gst_pad_get_current_caps (h->sinkpad);
    out[pulled++] = visible_bytes (b, *caps, &oinfo);
    gst_buffer_unref (b);
  }
}

/* The walking instance's output caps are a new instance's, in the memory
 * downstream asked for */
static void
check_caps (GstCaps * got, GstCaps * want, gboolean cuda, const gchar * what)
{
  GstVideoInfo gi, wi;

  fail_unless (gst_video_info_from_caps (&gi, got) &&
      gst_video_info_from_caps (&wi, want));
  fail_unless (GST_VIDEO_INFO_FORMAT (&gi) == GST_VIDEO_INFO_FORMAT (&wi) &&
      gi.width == wi.width && gi.height == wi.height &&
      gst_caps_features_contains (gst_caps_get_features (got, 0),
          GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY) == cuda, "%s: output caps %"
      GST_PTR_FORMAT ", a new instance's %" GST_PTR_FORMAT, what, got, want);
}

static void
check_bus (GstBus * bus, const gchar * what)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus))) {
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR ||
        GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING, "%s: %"
        GST_PTR_FORMAT, what, msg);
    gst_message_unref (msg);
  }
}

static void
walk (const Case * c)
{
  const guint nf = n_formats (c);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstVideoInfo first;
  gchar *first_caps;
  guint s;
  gint i;

  gst_video_info_set_format (&first, c->formats[0], stages[0].w, stages[0].h);
  first_caps = caps_of (&first, stages[0].cuda_in);
  h = filter_harness (c->launch, first_caps, "video/x-raw");
  g_free (first_caps);
  gst_element_set_bus (h->element, bus);
  for (s = 0; s < G_N_ELEMENTS (stages); s++) {
    const Stage *st = &stages[s];
    GstVideoInfo info;
    Content content[4];
    GBytes *got[4] = { NULL }, *want[4] = { NULL };
    GstCaps *got_caps = NULL, *want_caps = NULL;
    gchar *in_caps, *what;
    GstHarness *fresh;

    gst_video_info_set_format (&info, c->formats[s % nf], st->w, st->h);
    for (i = 0; i < c->frames; i++)
      content[i] = content_new (&info, s * 8 + i + 1);
    what = g_strdup_printf ("%s, stage %u: %s %dx%d, %s memory in (%s), %s "
        "memory out", c->launch, s, gst_video_format_to_string
        (GST_VIDEO_INFO_FORMAT (&info)), st->w, st->h, st->cuda_in ? "CUDA" :
        "system", st->cuda_in ? "pitched" : st->pad == PAD_TIGHT ? "tight rows"
        : st->pad ? "rows padded" : "default strides", st->cuda_out ? "CUDA" :
        "system");

    /* the walking instance: new caps both ways, no restart */
    in_caps = caps_of (&info, st->cuda_in);
    gst_harness_set_src_caps_str (h, in_caps);
    g_free (in_caps);
    gst_harness_set_sink_caps_str (h, st->cuda_out ?
        "video/x-raw(memory:CUDAMemory)" : "video/x-raw");
    run_stage (h, &info, content, c->frames, st->cuda_in, st->pad, got,
        &got_caps);
    check_bus (bus, what);

    /* a new instance, system memory, default layout */
    in_caps = caps_of (&info, FALSE);
    fresh = filter_harness (c->launch, in_caps, "video/x-raw");
    g_free (in_caps);
    run_stage (fresh, &info, content, c->frames, FALSE, PAD_DEFAULT, want,
        &want_caps);
    gst_harness_teardown (fresh);

    check_caps (got_caps, want_caps, st->cuda_out, what);
    for (i = 0; i < c->frames; i++) {
      gsize n = g_bytes_get_size (want[i]);

      fail_unless_equals_int (g_bytes_get_size (got[i]), n);
      if (!g_bytes_equal (got[i], want[i])) {
        const guint8 *a = g_bytes_get_data (got[i], NULL);
        const guint8 *b = g_bytes_get_data (want[i], NULL);
        gsize k = 0;

        while (a[k] == b[k])
          k++;
        fail ("%s: frame %d differs from a new instance's at visible byte "
            "%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " (%u, not %u)", what,
            i, k, n, a[k], b[k]);
      }
      g_bytes_unref (got[i]);
      g_bytes_unref (want[i]);
      content_free (&content[i]);
    }
    gst_caps_unref (got_caps);
    gst_caps_unref (want_caps);
    g_free (what);
  }
  g_print ("%-40s %zu caps changes: formats, sizes, memory and strides, "
      "each stage equal to a new instance\n", c->launch,
      G_N_ELEMENTS (stages) - 1);
  gst_element_set_bus (h->element, NULL);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

GST_START_TEST (test_renegotiate)
{
  walk (&cases[__i__]);
}

GST_END_TEST;

/* ---- cudaoverlay: the video pad walks the stages, the mask its own ---- */

#define OVERLAY "cudaoverlay color=0x20c0ff alpha=0.75"

static const GstVideoFormat overlay_formats[] = {
  F (RGBA), F (I420), F (BGR), F (NV12), F (GRAY8), F (Y444), F (xRGB),
};

/* Frame @n: its mask, then the video; the output's visible bytes */
static GBytes *
overlay_frame (Overlay * ov, const GstVideoInfo * vinfo, const Content * v,
    gboolean vcuda, gint vpad, const GstVideoInfo * minfo, const Content * m,
    gboolean mcuda, gint n, GstCaps ** caps)
{
  GstVideoInfo oinfo;
  GstBuffer *out;
  GBytes *bytes;

  fail_unless_equals_int (gst_harness_push (ov->mask, stamp (frame_buffer
              (minfo, m, mcuda, PAD_DEFAULT), n)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (ov->video, stamp (frame_buffer
              (vinfo, v, vcuda, vpad), n)), GST_FLOW_OK);
  out = gst_harness_pull (ov->video);
  fail_unless (out != NULL, "frame %d did not come out", n);
  gst_clear_caps (caps);
  *caps = gst_pad_get_current_caps (ov->video->sinkpad);
  bytes = visible_bytes (out, *caps, &oinfo);
  gst_buffer_unref (out);
  return bytes;
}

GST_START_TEST (test_renegotiate_overlay)
{
  static const struct
  {
    gint w, h;
  } masks[] = { {33, 17}, {1, 1}, {161, 97}, {2, 3}, {641, 479} };
  const gint frames = 2;
  GstBus *bus = gst_bus_new ();
  GstVideoInfo vinfo, minfo;
  Overlay ov;
  gchar *vc, *mc;
  guint s;
  gint i;

  gst_video_info_set_format (&vinfo, overlay_formats[0], stages[0].w,
      stages[0].h);
  gst_video_info_set_format (&minfo, F (GRAY8), masks[0].w, masks[0].h);
  vc = caps_of (&vinfo, stages[0].cuda_in);
  mc = caps_of (&minfo, FALSE);
  ov = overlay_new (OVERLAY, vc, mc, "video/x-raw");
  gst_element_set_bus (ov.o, bus);
  g_free (vc);
  g_free (mc);
  for (s = 0; s < G_N_ELEMENTS (stages); s++) {
    const Stage *st = &stages[s];
    const gboolean mcuda = s % 3 == 1;
    Content v[2], m[2];
    Overlay fresh;
    GstCaps *got_caps = NULL, *want_caps = NULL;
    gchar *what;

    gst_video_info_set_format (&vinfo, overlay_formats[s %
            G_N_ELEMENTS (overlay_formats)], st->w, st->h);
    gst_video_info_set_format (&minfo, F (GRAY8), masks[s %
            G_N_ELEMENTS (masks)].w, masks[s % G_N_ELEMENTS (masks)].h);
    what = g_strdup_printf ("cudaoverlay, stage %u: video %s %dx%d in %s "
        "memory (%s), mask %dx%d in %s memory, output in %s memory", s,
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&vinfo)), st->w,
        st->h, st->cuda_in ? "CUDA" : "system", st->cuda_in ? "pitched" :
        st->pad == PAD_TIGHT ? "tight rows" : st->pad ? "rows padded" :
        "default strides", minfo.width, minfo.height, mcuda ? "CUDA" :
        "system", st->cuda_out ? "CUDA" : "system");
    vc = caps_of (&vinfo, st->cuda_in);
    mc = caps_of (&minfo, mcuda);
    gst_harness_set_src_caps_str (ov.video, vc);
    gst_harness_set_sink_caps_str (ov.video, st->cuda_out ?
        "video/x-raw(memory:CUDAMemory)" : "video/x-raw");
    gst_harness_set_src_caps_str (ov.mask, mc);
    g_free (vc);
    g_free (mc);
    vc = caps_of (&vinfo, FALSE);
    mc = caps_of (&minfo, FALSE);
    fresh = overlay_new (OVERLAY, vc, mc, "video/x-raw");
    g_free (vc);
    g_free (mc);
    for (i = 0; i < frames; i++) {
      const gint n = s * frames + i;
      GBytes *got, *want;

      v[i] = content_new (&vinfo, 2 * n + 1);
      m[i] = content_new (&minfo, 2 * n + 2);
      got = overlay_frame (&ov, &vinfo, &v[i], st->cuda_in, st->pad, &minfo,
          &m[i], mcuda, n, &got_caps);
      want = overlay_frame (&fresh, &vinfo, &v[i], FALSE, PAD_DEFAULT, &minfo,
          &m[i], FALSE, n, &want_caps);
      fail_unless (g_bytes_equal (got, want), "%s: frame %d differs from a "
          "new instance's", what, i);
      g_bytes_unref (got);
      g_bytes_unref (want);
      content_free (&v[i]);
      content_free (&m[i]);
    }
    check_bus (bus, what);
    check_caps (got_caps, want_caps, st->cuda_out, what);
    gst_caps_unref (got_caps);
    gst_caps_unref (want_caps);
    overlay_free (&fresh);
    g_free (what);
  }
  g_print ("%-40s %zu caps changes of the video and the mask, each stage "
      "equal to a new instance\n", "cudaoverlay", G_N_ELEMENTS (stages) - 1);
  overlay_free (&ov);
  gst_object_unref (bus);
}

GST_END_TEST;

static Suite *
renego_gpu_suite (void)
{
  Suite *s = suite_create ("renego-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_loop_test (tc, test_renegotiate, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_renegotiate_overlay);
  return s;
}

GPU_CHECK_MAIN (renego_gpu);
