/* cudaimgproc: frames between system memory and the GPU, in pipelines as
 * users write them: which memory each link negotiates, the page-locked
 * pools (made whole at the start), uploads from every kind of host memory
 * (our pool, memory that comes back and is registered, memory seen once
 * and staged, padded strides, a foreign CUDA producer), downloads pushed
 * in order by the downloader's thread, EOS, flushes, the drain and latency
 * queries.
 * Skips (exit 77) where no CUDA device exists.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"
#include "cpu_ref.h"
#include "gray.h"

static const gchar *ours[] = { "cudagray", "cudaotsu", "cudasobel",
  "cudathin", "cudakmeans"
};

static gboolean
is_ours (GstElement * e)
{
  GstElementFactory *f = e ? gst_element_get_factory (e) : NULL;
  guint i;

  for (i = 0; f && i < G_N_ELEMENTS (ours); i++)
    if (!g_strcmp0 (GST_OBJECT_NAME (f), ours[i]))
      return TRUE;
  return FALSE;
}

static gboolean
caps_have_cuda (GstCaps * caps)
{
  GstCapsFeatures *f = caps ? gst_caps_get_features (caps, 0) : NULL;
  return f && gst_caps_features_contains (f,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

/* The element before @e's sink pad, through queues. */
static GstElement *
upstream_of (GstElement * e)
{
  GstElement *a = e;
  GstPad *sink, *peer;

  gst_object_ref (a);
  do {
    sink = gst_element_get_static_pad (a, "sink");
    gst_object_unref (a);
    peer = sink ? gst_pad_get_peer (sink) : NULL;
    a = peer ? gst_pad_get_parent_element (peer) : NULL;
    gst_clear_object (&peer);
    gst_clear_object (&sink);
  } while (a && g_str_has_prefix (GST_OBJECT_NAME (gst_element_get_factory
              (a)), "queue"));
  return a;
}

/* Every link between two of ours carries CUDA memory; where the first of
 * ours takes system memory @sys_in says. */
static void
check_links (GstElement * pipe, const gchar * launch, gboolean sys_in)
{
  GstIterator *it = gst_bin_iterate_elements (GST_BIN (pipe));
  GValue v = G_VALUE_INIT;
  guint n_ours = 0, links = 0;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *b = g_value_get_object (&v);
    GstElement *a;
    GstPad *sink;
    GstCaps *caps;
    gchar *s;

    if (!is_ours (b)) {
      g_value_reset (&v);
      continue;
    }
    n_ours++;
    a = upstream_of (b);
    sink = gst_element_get_static_pad (b, "sink");
    caps = gst_pad_get_current_caps (sink);
    fail_unless (caps != NULL, "%s: %s has no caps", launch,
        GST_OBJECT_NAME (b));
    s = gst_caps_to_string (caps);
    if (is_ours (a)) {
      fail_unless (caps_have_cuda (caps), "%s: %s ! %s negotiated %s",
          launch, GST_OBJECT_NAME (a), GST_OBJECT_NAME (b), s);
      links++;
    } else {
      fail_unless (caps_have_cuda (caps) != sys_in, "%s: %s takes %s",
          launch, GST_OBJECT_NAME (b), s);
    }
    g_free (s);
    gst_caps_unref (caps);
    gst_object_unref (sink);
    gst_clear_object (&a);
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  fail_unless (n_ours > 0 && links == n_ours - 1,
      "%s: %u of ours, %u links between them", launch, n_ours, links);
}

static void
fail_on_error (GstElement * pipe, const gchar * launch)
{
  GstMessage *m = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipe),
      GST_MESSAGE_ERROR);

  if (m) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (m, &e, &dbg);
    fail ("%s: %s (%s)", launch, e->message, dbg);
  }
}

/* EOS within a bound, or the test fails with the error */
static void
wait_eos (GstElement * pipe, const gchar * launch)
{
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
      20 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  fail_unless (m != NULL, "%s: no EOS", launch);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    gst_bus_post (GST_ELEMENT_BUS (pipe), m);
    fail_on_error (pipe, launch);
    return;
  }
  gst_message_unref (m);
}

/* Runs @launch to EOS; an appsrc named "in" gets @inputs (with @in_caps)
 * then EOS.  Returns every sample of the appsink named "out".  With
 * @check >= 0 the links are checked (@check: whether the first of ours
 * takes system memory). */
static GPtrArray *
run_collect (const gchar * launch, GstCaps * in_caps, GPtrArray * inputs,
    gint check)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (launch, &err), *src, *sink;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  GstSample *s;
  guint i;

  fail_unless (pipe != NULL, "%s: %s", launch, err ? err->message : "?");
  gpu_test_share_context (pipe);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  fail_unless (sink != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "in");
  if (src)
    g_object_set (src, "caps", in_caps, "format", GST_FORMAT_TIME, NULL);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "%s did not start", launch);
  for (i = 0; src && i < inputs->len; i++) {
    GstBuffer *b = gst_buffer_copy (g_ptr_array_index (inputs, i));
    GstFlowReturn ret;

    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    g_signal_emit_by_name (src, "push-buffer", b, &ret);
    gst_buffer_unref (b);
    fail_unless_equals_int (ret, GST_FLOW_OK);
  }
  if (src) {
    GstFlowReturn ret;
    g_signal_emit_by_name (src, "end-of-stream", &ret);
  }
  while (TRUE) {
    s = NULL;
    g_signal_emit_by_name (sink, "pull-sample", &s);
    if (!s)
      break;
    g_ptr_array_add (out, s);
  }
  wait_eos (pipe, launch);
  if (check >= 0)
    check_links (pipe, launch, check);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_clear_object (&src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return out;
}

/* Bytes of a row of plane @p, and its rows. */
static gsize
plane_row (const GstVideoFrame * f, guint p, gint * rows)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (f->info.finfo, p, comp);
  *rows = GST_VIDEO_FRAME_COMP_HEIGHT (f, comp[0]);
  return (gsize) GST_VIDEO_FRAME_COMP_WIDTH (f, comp[0]) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (f, comp[0]);
}

static guint8 *
row_at (const GstVideoFrame * f, guint p, gint y)
{
  return (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, p) +
      (gsize) y *GST_VIDEO_FRAME_PLANE_STRIDE (f, p);
}

/* Raw video compares plane rows (strides may differ); anything else (PNG,
 * JPEG) compares bytes. */
static void
same_samples (GstSample * a, GstSample * b, const gchar * what, guint i)
{
  GstCaps *ca = gst_sample_get_caps (a);
  GstBuffer *ba = gst_sample_get_buffer (a), *bb = gst_sample_get_buffer (b);

  if (gst_structure_has_name (gst_caps_get_structure (ca, 0), "video/x-raw")) {
    GstVideoInfo ia, ib;
    GstVideoFrame fa, fb;
    guint p;
    gint y, rows;

    fail_unless (gst_video_info_from_caps (&ia, ca));
    fail_unless (gst_video_info_from_caps (&ib, gst_sample_get_caps (b)));
    fail_unless (GST_VIDEO_INFO_FORMAT (&ia) == GST_VIDEO_INFO_FORMAT (&ib) &&
        ia.width == ib.width && ia.height == ib.height, "%s: caps differ",
        what);
    fail_unless (gst_video_frame_map (&fa, &ia, ba, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fb, &ib, bb, GST_MAP_READ));
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
      gsize row = plane_row (&fa, p, &rows);

      for (y = 0; y < rows; y++)
        fail_unless (memcmp (row_at (&fa, p, y), row_at (&fb, p, y), row) == 0,
            "%s: frame %u, plane %u, row %d differs", what, i, p, y);
    }
    gst_video_frame_unmap (&fa);
    gst_video_frame_unmap (&fb);
  } else {
    GstMapInfo m, mb;

    fail_unless (gst_buffer_map (ba, &m, GST_MAP_READ));
    if (g_getenv ("TRANSFER_DUMP") && gst_buffer_map (bb, &mb, GST_MAP_READ)) {
      gchar *fa = g_strdup_printf ("%s/%u-user.bin", g_getenv ("TRANSFER_DUMP"),
          i), *fb = g_strdup_printf ("%s/%u-gpu.bin",
          g_getenv ("TRANSFER_DUMP"), i);
      g_file_set_contents (fa, (gchar *) m.data, m.size, NULL);
      g_file_set_contents (fb, (gchar *) mb.data, mb.size, NULL);
      gst_buffer_unmap (bb, &mb);
      g_free (fa);
      g_free (fb);
    }
    fail_unless (m.size > 0 && m.size == gst_buffer_get_size (bb),
        "%s: frame %u: %" G_GSIZE_FORMAT " against %" G_GSIZE_FORMAT
        " bytes", what, i, m.size, gst_buffer_get_size (bb));
    fail_unless (gst_buffer_memcmp (bb, 0, m.data, m.size) == 0,
        "%s: frame %u: encoded bytes differ", what, i);
    gst_buffer_unmap (ba, &m);
  }
}

/* A host copy (system memory, tight rows) of a sample's frame. */
static GstBuffer *
host_copy (GstSample * s, GstCaps ** caps)
{
  GstVideoInfo info, hinfo;
  GstVideoFrame f, h;
  GstBuffer *buf;
  guint p;
  gint y, rows;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s)));
  gst_video_info_set_format (&hinfo, GST_VIDEO_INFO_FORMAT (&info),
      info.width, info.height);
  hinfo.fps_n = 30;
  hinfo.fps_d = 1;
  buf = gst_buffer_new_allocate (NULL, hinfo.size, NULL);
  fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer (s),
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&h, &hinfo, buf, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    gsize row = plane_row (&f, p, &rows);

    for (y = 0; y < rows; y++)
      memcpy (row_at (&h, p, y), row_at (&f, p, y), row);
  }
  gst_video_frame_unmap (&f);
  gst_video_frame_unmap (&h);
  if (caps)
    *caps = gst_video_info_to_caps (&hinfo);
  return buf;
}

/* The chain as users write it, @src ! @chain ! @end, against the GPU-frame
 * path: @src ! @chain into CUDA memory, the frames then downloaded and put
 * through @end alone.  Frame for frame, byte for byte. */
static void
chain_case (const gchar * src, GstCaps * in_caps, GPtrArray * inputs,
    gboolean sys_in, const gchar * chain, const gchar * end, guint frames)
{
  gchar *user = g_strdup_printf ("%s ! %s ! %s ! appsink name=out "
      "sync=false", src, chain, end);
  gchar *gpu = g_strdup_printf ("%s ! %s ! video/x-raw(memory:CUDAMemory) ! "
      "appsink name=out sync=false", src, chain);
  gchar *tail = g_strdup_printf ("appsrc name=in ! %s ! appsink name=out "
      "sync=false", end);
  GPtrArray *a, *r, *downloaded, *b;
  GstCaps *caps = NULL;
  guint i;

  g_printerr ("%s\n", user);
  a = run_collect (user, in_caps, inputs, sys_in);
  r = run_collect (gpu, in_caps, inputs, -1);
  fail_unless_equals_int (a->len, frames);
  fail_unless_equals_int (r->len, frames);
  fail_unless (caps_have_cuda (gst_sample_get_caps (g_ptr_array_index (r,
                  0))), "%s: not CUDA memory", gpu);
  downloaded = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  for (i = 0; i < r->len; i++) {
    GstCaps *c = NULL;
    g_ptr_array_add (downloaded, host_copy (g_ptr_array_index (r, i), &c));
    gst_caps_replace (&caps, c);
    gst_caps_unref (c);
  }
  b = run_collect (tail, caps, downloaded, -1);
  fail_unless_equals_int (b->len, frames);
  for (i = 0; i < frames; i++)
    same_samples (g_ptr_array_index (a, i), g_ptr_array_index (b, i), user, i);
  GST_INFO ("%s: %u frames as on the GPU path", user, frames);
  g_ptr_array_unref (a);
  g_ptr_array_unref (r);
  g_ptr_array_unref (b);
  g_ptr_array_unref (downloaded);
  gst_caps_unref (caps);
  g_free (user);
  g_free (gpu);
  g_free (tail);
}

static const gchar *chains[] = {
  "cudagray ! cudaotsu ! cudathin",
  "cudagray ! cudaotsu ! cudasobel",
  "cudakmeans k=4 seed=3 ! cudagray",
};

static const gchar *ends[] = {
  "video/x-raw,format=GRAY8",
  "pngenc",
  "jpegenc",
  "videoconvert ! video/x-raw,format=RGBA",
};

/* Sources: videotestsrc (writes into the page-locked pool we propose) and
 * cudaupload (a foreign CUDA producer). */
GST_START_TEST (test_links_from_sources)
{
  /* 640: jpegenc reads whole 8x8 blocks, the rows' padding too, which
   * nobody writes (odd widths: test_links_from_appsrc) */
  const gchar *testsrc = "videotestsrc num-buffers=4 pattern=ball ! "
      "video/x-raw,format=RGBA,width=640,height=480,framerate=30/1";
  const gchar *upload = "videotestsrc num-buffers=4 pattern=ball ! "
      "video/x-raw,format=NV12,width=640,height=480,framerate=30/1 ! "
      "cudaupload";
  gboolean up = have_cudaupload ();
  guint c, e;

  for (c = 0; c < G_N_ELEMENTS (chains); c++)
    for (e = 0; e < G_N_ELEMENTS (ends); e++) {
      chain_case (testsrc, NULL, NULL, TRUE, chains[c], ends[e], 4);
      if (up)
        chain_case (upload, NULL, NULL, FALSE, chains[c], ends[e], 4);
    }
}

GST_END_TEST;

/* RGB frames from an application, 1923-byte rows (641 x 3) tight or padded
 * to 2048 through GstVideoMeta, at 1080p too (the staged copy's bands). */
static GPtrArray *
app_frames (gint w, gint h, gint stride, guint n, gboolean shared,
    GstCaps ** caps)
{
  GPtrArray *a = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstVideoInfo info;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { stride };
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, w, h);
  info.fps_n = 30;
  info.fps_d = 1;
  *caps = gst_video_info_to_caps (&info);
  for (i = 0; i < n; i++) {
    GstBuffer *b;
    GstMapInfo m;

    if (shared && i >= 2) {
      /* the same two memories again, as a pool's */
      b = gst_buffer_copy (g_ptr_array_index (a, i % 2));
    } else {
      b = gst_buffer_new_allocate (NULL, (gsize) stride * h, NULL);
      gst_buffer_map (b, &m, GST_MAP_WRITE);
      fill_random (m.data, m.size, 1000 + i);
      gst_buffer_unmap (b, &m);
      gst_buffer_add_video_meta_full (b, 0, GST_VIDEO_FORMAT_RGB, w, h, 1,
          offset, strides);
    }
    g_ptr_array_add (a, b);
  }
  return a;
}

GST_START_TEST (test_links_from_appsrc)
{
  static const struct
  {
    gint w, h, stride;
    gboolean shared;
  } cases[] = {
    {641, 479, 1923, FALSE},
    {641, 479, 2048, TRUE},
    {1920, 1080, 5760, FALSE},
    {1920, 1080, 5824, TRUE},
  };
  guint k, c;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    GstCaps *caps;
    GPtrArray *in = app_frames (cases[k].w, cases[k].h, cases[k].stride, 6,
        cases[k].shared, &caps);

    for (c = 0; c < G_N_ELEMENTS (chains); c++)
      chain_case ("appsrc name=in", caps, in, TRUE, chains[c], ends[0], 6);
    chain_case ("appsrc name=in", caps, in, TRUE, chains[0], ends[1], 6);
    gst_caps_unref (caps);
    g_ptr_array_unref (in);
  }
}

GST_END_TEST;

/* ---- page-locked memory ------------------------------------------------ */

static gboolean
host_ptr_pinned (gconstpointer p)
{
  struct cudaPointerAttributes attr;
  gboolean pinned;

  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  pinned = cudaPointerGetAttributes (&attr, p) == cudaSuccess &&
      attr.type == cudaMemoryTypeHost;
  (void) cudaGetLastError ();
  gst_cuda_context_pop (NULL);
  return pinned;
}

static gboolean
buffer_pinned (GstBuffer * b)
{
  GstMapInfo m;
  gboolean pinned;

  fail_unless (gst_buffer_map (b, &m, GST_MAP_READ));
  pinned = host_ptr_pinned (m.data) && host_ptr_pinned (m.data + m.size - 1);
  gst_buffer_unmap (b, &m);
  return pinned;
}

static GstPadProbeReturn
count_pinned (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  gint *n = user;
  GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);

  /* by name: the plugin's copy of the allocator type is not this
   * program's */
  if (gst_buffer_n_memory (b) == 1 &&
      !g_strcmp0 (gst_buffer_peek_memory (b, 0)->allocator->mem_type,
          "CudaImgHostMemory") && buffer_pinned (b))
    (*n)++;
  return GST_PAD_PROBE_OK;
}

/* The pool proposed upstream is page-locked: videotestsrc writes into it,
 * and the last element's output is page-locked too. */
GST_START_TEST (test_pools_page_locked)
{
  const gchar *launch = "videotestsrc num-buffers=5 ! "
      "video/x-raw,format=BGRx,width=320,height=240 ! cudagray name=g ! "
      "cudasobel ! video/x-raw,format=GRAY8 ! appsink name=out sync=false";
  GstElement *pipe = gst_parse_launch (launch, NULL), *g, *sink;
  GstPad *pad;
  GstSample *s;
  gint in_pinned = 0, out = 0, out_pinned = 0;

  fail_unless (pipe != NULL);
  g = gst_bin_get_by_name (GST_BIN (pipe), "g");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  pad = gst_element_get_static_pad (g, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_pinned, &in_pinned,
      NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while (TRUE) {
    s = NULL;
    g_signal_emit_by_name (sink, "pull-sample", &s);
    if (!s)
      break;
    out++;
    if (buffer_pinned (gst_sample_get_buffer (s)))
      out_pinned++;
    gst_sample_unref (s);
  }
  fail_on_error (pipe, launch);
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless_equals_int (out, 5);
  fail_unless_equals_int (in_pinned, 5);
  fail_unless_equals_int (out_pinned, 5);
  gst_object_unref (pad);
  gst_object_unref (g);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* Whether @b becomes page-locked within a few seconds: registrations are
 * made by a thread of their own, after the frame that asked for one. */
static gboolean
buffer_pinned_soon (GstBuffer * b)
{
  gint i;

  for (i = 0; i < 500; i++) {
    if (buffer_pinned (b))
      return TRUE;
    g_usleep (10000);
  }
  return FALSE;
}

/* System memory that comes back is registered (page-locked in place) while
 * it lives; memory seen once is staged and left alone. */
GST_START_TEST (test_register_returning_memory)
{
  GstCaps *caps;
  GPtrArray *shared = app_frames (640, 480, 1920, 6, TRUE, &caps);
  GPtrArray *fresh = app_frames (640, 480, 1920, 2, FALSE, &caps);
  GPtrArray *r;

  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-raw,format=RGB,width=640,height=480,"
      "framerate=30/1");
  fail_if (buffer_pinned (g_ptr_array_index (shared, 0)));
  r = run_collect ("appsrc name=in ! cudagray ! video/x-raw,format=GRAY8 ! "
      "appsink name=out sync=false", caps, shared, TRUE);
  fail_unless_equals_int (r->len, 6);
  fail_unless (buffer_pinned_soon (g_ptr_array_index (shared, 0)));
  fail_unless (buffer_pinned_soon (g_ptr_array_index (shared, 1)));
  g_ptr_array_unref (r);

  r = run_collect ("appsrc name=in ! cudagray ! video/x-raw,format=GRAY8 ! "
      "appsink name=out sync=false", caps, fresh, TRUE);
  fail_unless_equals_int (r->len, 2);
  fail_if (buffer_pinned (g_ptr_array_index (fresh, 0)));
  g_ptr_array_unref (r);
  /* unregistered before freed (memcheck and the next allocations see it) */
  g_ptr_array_unref (shared);
  g_ptr_array_unref (fresh);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* An application wrapping the same arrays in a new GstMemory each frame,
 * behind a tee to two of ours.  A frame's memory reaches both elements, so
 * the second registers it (it came back); the next wrapper of the same
 * bytes then looks page-locked, but through a registration that is not
 * its own and goes when that earlier frame's memory does, maybe while the
 * engine still copies from the bytes: that copy faulted ("unspecified
 * launch failure", the 1080p preview row of the pipeline benchmark with
 * new memory each frame, most runs).  Every frame must come out, exact. */
static void check_gray (GstBuffer * in, GstBuffer * out, gint w, gint h);
static guint pull_checked (GstElement * sink, GstBuffer ** in, guint n_in,
    guint per, guint max, gint w, gint h);

/* @pipe's appsrc "in" given BGRA @w x @h at 30/1 in time, its appsink
 * "out", and the pipeline PLAYING; @info the frames' */
static void
play_in_out (GstElement * pipe, gint w, gint h, GstVideoInfo * info,
    GstElement ** src, GstElement ** sink)
{
  GstCaps *caps;

  fail_unless (pipe != NULL);
  gpu_test_share_context (pipe);
  gst_video_info_set_format (info, GST_VIDEO_FORMAT_BGRA, w, h);
  info->fps_n = 30;
  info->fps_d = 1;
  caps = gst_video_info_to_caps (info);
  *src = gst_bin_get_by_name (GST_BIN (pipe), "in");
  *sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  g_object_set (*src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_caps_unref (caps);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
}

GST_START_TEST (test_tee_same_bytes_new_memory)
{
  const gchar *launch = "appsrc name=in ! tee name=t "
      "t. ! queue ! cudagray ! video/x-raw,format=GRAY8 ! appsink name=out "
      "sync=false t. ! queue ! cudagray ! video/x-raw,format=GRAY8 ! "
      "fakesink sync=false";
  const gint w = 1920, hh = 1080, n = 60;
  GstElement *pipe = gst_parse_launch (launch, NULL), *src, *sink;
  GstBuffer *arrays[2];
  GstMapInfo maps[2];
  GstVideoInfo info;
  gint i, got;

  play_in_out (pipe, w, hh, &info, &src, &sink);
  for (i = 0; i < 2; i++) {
    arrays[i] = random_sys_buffer (&info, 7 + i);
    fail_unless (gst_buffer_map (arrays[i], &maps[i], GST_MAP_READ));
  }
  for (i = 0; i < n; i++) {
    /* new memory over the same bytes, dropped once the pipeline is done
     * with it */
    GstBuffer *b = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
        maps[i % 2].data, maps[i % 2].size, 0, maps[i % 2].size, NULL, NULL);
    GstFlowReturn ret;

    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    g_signal_emit_by_name (src, "push-buffer", b, &ret);
    gst_buffer_unref (b);
    if (ret != GST_FLOW_OK)
      break;
  }
  {
    GstFlowReturn ret;
    g_signal_emit_by_name (src, "end-of-stream", &ret);
  }
  got = pull_checked (sink, arrays, 2, 1, n, w, hh);
  wait_eos (pipe, launch);
  fail_unless_equals_int (got, n);
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (i = 0; i < 2; i++) {
    gst_buffer_unmap (arrays[i], &maps[i]);
    gst_buffer_unref (arrays[i]);
  }
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* System memory the application page-locked itself (cudaHostRegister),
 * pushed again and again: it is found page-locked and not queued for a
 * registration of ours (which would fail, "already registered", and
 * leave its frames staged until then), so no frame is staged; and no
 * registration error is left behind for a later launch to report as its
 * own (a launcher that returns cudaGetLastError () took it for its
 * launch's error).  Every frame exact, no error. */
GST_START_TEST (test_app_registered_memory)
{
  const gchar *launch = "appsrc name=in ! cudagray ! cudablobs ! "
      "video/x-raw,format=GRAY8 ! appsink name=out sync=false";
  const gint w = 640, hh = 480, n = 12;
  GPtrArray *in = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref), *r;
  GstMapInfo maps[2];
  GstVideoInfo info;
  GstCaps *caps;
  /* uploads that went through staging (cudaimgtransfer's note of the
   * path) */
  GpuTestLogCount staged = { "cudaimgtransfer", "uploads staged",
    GST_LEVEL_INFO, 0
  };
  gint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_BGRA, w, hh);
  info.fps_n = 30;
  info.fps_d = 1;
  caps = gst_video_info_to_caps (&info);
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (i = 0; i < 2; i++) {
    GstBuffer *b = random_sys_buffer (&info, 21 + i);

    fail_unless (gst_buffer_map (b, &maps[i], GST_MAP_READ));
    fail_unless_equals_int (cudaHostRegister (maps[i].data, maps[i].size,
            cudaHostRegisterPortable), cudaSuccess);
    g_ptr_array_add (in, b);
  }
  gst_cuda_context_pop (NULL);
  for (i = 2; i < n; i++)
    g_ptr_array_add (in, gst_buffer_ref (g_ptr_array_index (in, i % 2)));
  gpu_test_log_count_begin (&staged);
  r = run_collect (launch, caps, in, TRUE);
  gpu_test_log_count_end (&staged);
  /* page-locked from the first frame on: never staged */
  fail_unless_equals_int (g_atomic_int_get (&staged.n), 0);
  fail_unless_equals_int (r->len, n);
  for (i = 0; i < n; i++)
    check_gray (g_ptr_array_index (in, i % 2),
        gst_sample_get_buffer (g_ptr_array_index (r, i)), w, hh);
  g_ptr_array_unref (r);
  fail_unless (gst_cuda_context_push (gpu_test_context ()));
  for (i = 0; i < 2; i++) {
    fail_unless_equals_int (cudaHostUnregister (maps[i].data), cudaSuccess);
    gst_buffer_unmap (g_ptr_array_index (in, i), &maps[i]);
  }
  gst_cuda_context_pop (NULL);
  g_ptr_array_unref (in);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Memory that comes back and goes at once, memory after memory: each
 * one's registration is queued by its second frame, and the memory is
 * freed when the pipeline is done with it, whether its registration is
 * still queued (dropped), being made (waited for) or made (undone).
 * Every frame exact, no error; memcheck-transfer sees no leak and no bad
 * access. */
GST_START_TEST (test_registrations_come_and_go)
{
  const gchar *launch = "appsrc name=in ! cudagray ! "
      "video/x-raw,format=GRAY8 ! appsink name=out sync=false";
  const gint w = 320, hh = 240, n = 60;
  GstElement *pipe = gst_parse_launch (launch, NULL), *src, *sink;
  GstBuffer *expected[60];
  GstVideoInfo info;
  GstFlowReturn ret;
  gint k, j, got;

  play_in_out (pipe, w, hh, &info, &src, &sink);
  for (k = 0; k < n; k++) {
    GstBuffer *mem = random_sys_buffer (&info, 300 + k);

    /* the bytes kept apart: the memory itself goes with the pipeline's
     * last reference */
    expected[k] = gst_buffer_copy_deep (mem);
    for (j = 0; j < 2; j++) {
      GstBuffer *b = gst_buffer_copy (mem);

      GST_BUFFER_PTS (b) = (2 * k + j) * GST_SECOND / 30;
      GST_BUFFER_DURATION (b) = GST_SECOND / 30;
      g_signal_emit_by_name (src, "push-buffer", b, &ret);
      gst_buffer_unref (b);
      fail_unless_equals_int (ret, GST_FLOW_OK);
    }
    gst_buffer_unref (mem);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  got = pull_checked (sink, expected, n, 2, 2 * n, w, hh);
  wait_eos (pipe, launch);
  fail_unless_equals_int (got, 2 * n);
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (k = 0; k < n; k++)
    gst_buffer_unref (expected[k]);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* ---- pools made whole at the start ------------------------------------- */

/* the plugin's allocations (debug category cudaimgalloc) after the first
 * frame reached the sink */
static struct
{
  gint frames;                  /* atomic */
  gint late;                    /* atomic */
  gchar *first;                 /* the first late one (under the lock) */
  GMutex lock;
} growth;

static void
note_late_alloc (GstDebugCategory * cat, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *m = gst_debug_message_get (message);

  if (level != GST_LEVEL_LOG || g_strcmp0 (gst_debug_category_get_name (cat),
          "cudaimgalloc") || !g_str_has_prefix (m, "allocation") ||
      g_atomic_int_get (&growth.frames) == 0)
    return;
  g_atomic_int_inc (&growth.late);
  g_mutex_lock (&growth.lock);
  if (!growth.first)
    growth.first = g_strdup_printf ("after frame %d: %s",
        g_atomic_int_get (&growth.frames), m);
  g_mutex_unlock (&growth.lock);
}

/* a sink that falls behind now and then before it takes a frame, while it
 * still keeps the last one (its last-sample), so that every frame the
 * elements may have out at once is out */
static GstPadProbeReturn
slow_sink (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  if (g_atomic_int_add (&growth.frames, 1) % 10 == 9)
    g_usleep (5000);
  return GST_PAD_PROBE_OK;
}

/* Memory in use stays flat from the first frame however the timing goes:
 * our output pool and the page-locked pool proposed upstream are made
 * whole when they start, not grown when a slow sink first lets every slot
 * of the download ring fill while it keeps its last sample (the 4K soak
 * saw host RSS step up by one frame that way, in one run of three). */
GST_START_TEST (test_pools_made_at_start)
{
  /* sources fast enough to fill every slot while the sink sleeps: a new
   * frame each time (from the pool proposed upstream), one frame again */
  const gchar *srcs[] = { "videotestsrc num-buffers=300 pattern=black ! "
        "video/x-raw,format=RGBA,width=640,height=480",
    "videotestsrc num-buffers=1 pattern=ball ! "
        "video/x-raw,format=RGBA,width=640,height=480 ! "
        "imagefreeze num-buffers=300",
  };
  const gchar *outs[] = { "video/x-raw,format=GRAY8",
    "video/x-raw(memory:CUDAMemory),format=GRAY8",
  };
  guint i;

  g_mutex_init (&growth.lock);
  gst_debug_set_active (TRUE);
  gst_debug_set_threshold_for_name ("cudaimgalloc", GST_LEVEL_LOG);
  gst_debug_add_log_function (note_late_alloc, NULL, NULL);
  for (i = 0; i < G_N_ELEMENTS (srcs) * G_N_ELEMENTS (outs); i++) {
    gchar *launch = g_strdup_printf ("%s ! cudagray ! %s ! fakesink "
        "name=sink sync=false", srcs[i / G_N_ELEMENTS (outs)],
        outs[i % G_N_ELEMENTS (outs)]);
    GstElement *pipe = gst_parse_launch (launch, NULL), *sink;
    GstPad *pad;

    fail_unless (pipe != NULL, "%s", launch);
    growth.frames = growth.late = 0;
    sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
    pad = gst_element_get_static_pad (sink, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, slow_sink, NULL, NULL);
    gst_object_unref (pad);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    wait_eos (pipe, launch);
    gst_element_set_state (pipe, GST_STATE_NULL);
    fail_unless_equals_int (g_atomic_int_get (&growth.frames), 300);
    fail_unless (g_atomic_int_get (&growth.late) == 0, "%s: %d allocations "
        "after the first frame, the first %s", launch,
        g_atomic_int_get (&growth.late), growth.first);
    g_clear_pointer (&growth.first, g_free);
    gst_object_unref (sink);
    gst_object_unref (pipe);
    g_free (launch);
  }
  gst_debug_remove_log_function (note_late_alloc);
  gst_debug_unset_threshold_for_name ("cudaimgalloc");
  g_mutex_clear (&growth.lock);
}

GST_END_TEST;

/* ---- frames in flight -------------------------------------------------- */

static void
check_gray (GstBuffer * in, GstBuffer * out, gint w, gint h)
{
  GstVideoInfo ii, oi;
  GstVideoFrame fi, fo;
  guint8 *ref = g_malloc ((gsize) w * h);
  glong d;

  gst_video_info_set_format (&ii, GST_VIDEO_FORMAT_BGRA, w, h);
  gst_video_info_set_format (&oi, GST_VIDEO_FORMAT_GRAY8, w, h);
  fail_unless (gst_video_frame_map (&fi, &ii, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, &oi, out, GST_MAP_READ));
  ref_gray_packed (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), 4, 2, 1, 0, ref, w, w, h,
      CIP_GRAY_BT601_R, CIP_GRAY_BT601_G, CIP_GRAY_BT601_B, 65536);
  d = first_diff (GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), ref, w, w, h);
  fail_unless (d < 0, "pixel %ld differs", d);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  g_free (ref);
}

/* Pulls from appsink @sink until none comes (bounded: after an error no
 * EOS comes to end a plain pull), at most @max, each the gray of
 * @in[(its index / @per) % @n_in]; returns how many came. */
static guint
pull_checked (GstElement * sink, GstBuffer ** in, guint n_in, guint per,
    guint max, gint w, gint h)
{
  guint got = 0;

  while (TRUE) {
    GstSample *smp = NULL;

    g_signal_emit_by_name (sink, "try-pull-sample", 10 * GST_SECOND, &smp);
    if (!smp)
      break;
    fail_unless (got < max);
    check_gray (in[(got / per) % n_in], gst_sample_get_buffer (smp), w, h);
    got++;
    gst_sample_unref (smp);
  }
  return got;
}

/* Frames pushed faster than they leave: all come out, in order, exact; EOS
 * after the last of them. */
GST_START_TEST (test_order_and_eos)
{
  const gint w = 1920, hh = 1080, n = 24;
  GstHarness *h = filter_harness ("cudagray",
      "video/x-raw,format=BGRA,width=1920,height=1080,framerate=30/1",
      "video/x-raw,format=GRAY8");
  GstBuffer *in[24];
  GstVideoInfo info;
  GstEvent *ev;
  gint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_BGRA, w, hh);
  for (i = 0; i < n; i++) {
    in[i] = random_sys_buffer (&info, 50 + i);
    GST_BUFFER_PTS (in[i]) = i * GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[i])),
        GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  /* EOS went downstream after every frame was pushed */
  while (TRUE) {
    ev = gst_harness_pull_event (h);
    fail_unless (ev != NULL, "no EOS");
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
      break;
    gst_event_unref (ev);
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), n);
  gst_event_unref (ev);
  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_MSECOND);
    check_gray (in[i], out, w, hh);
    gst_buffer_unref (out);
    gst_buffer_unref (in[i]);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A flush with frames in flight drops them, blocks nothing, and frames
 * flow again, exact, after it.  The drain query gives back every input. */
GST_START_TEST (test_flush_and_drain)
{
  const gint w = 1280, hh = 720;
  GstHarness *h = filter_harness ("cudagray",
      "video/x-raw,format=BGRA,width=1280,height=720,framerate=30/1",
      "video/x-raw,format=GRAY8");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstQuery *q;
  gint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_BGRA, w, hh);
  for (i = 0; i < 10; i++)
    gst_harness_push (h, random_sys_buffer (&info, i));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  while ((out = gst_harness_try_pull (h)))
    gst_buffer_unref (out);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=BGRA,width=1280,"
      "height=720,framerate=30/1");
  for (i = 0; i < 3; i++) {
    in = random_sys_buffer (&info, 100 + i);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    check_gray (in, out, w, hh);
    gst_buffer_unref (out);
    /* the element may still hold it until its copy is done ... */
    q = gst_query_new_drain ();
    gst_pad_peer_query (h->srcpad, q);
    gst_query_unref (q);
    /* ... but not after a drain query */
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (in), 1);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames wait to be pushed (up to the downloader's slots): the maximum
 * latency says so; the minimum is unchanged.  A live appsrc says its own. */
GST_START_TEST (test_latency_query)
{
  GstVideoInfo info;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  check_latency_query ("cudagray name=g ! video/x-raw,format=GRAY8",
      gst_caps_from_string ("video/x-raw,format=RGBA,width=64,height=48,"
          "framerate=30/1"), random_sys_buffer (&info, 1));
}

GST_END_TEST;

static Suite *
transfer_gpu_suite (void)
{
  Suite *s = suite_create ("cudaimgproc-transfer-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_links_from_sources);
  tcase_add_test (tc, test_links_from_appsrc);
  tcase_add_test (tc, test_pools_page_locked);
  tcase_add_test (tc, test_register_returning_memory);
  tcase_add_test (tc, test_pools_made_at_start);
  tcase_add_test (tc, test_tee_same_bytes_new_memory);
  tcase_add_test (tc, test_app_registered_memory);
  tcase_add_test (tc, test_registrations_come_and_go);
  tcase_add_test (tc, test_order_and_eos);
  tcase_add_test (tc, test_flush_and_drain);
  tcase_add_test (tc, test_latency_query);
  return s;
}

GPU_CHECK_MAIN (transfer_gpu);
