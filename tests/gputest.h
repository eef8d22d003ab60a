/* cudaimgproc: helpers shared by the GPU test programs.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "testutil.h"
#include <gst/video/video.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/cuda-gst.h>
#include <cuda_runtime_api.h>

#include "gstcudaimgpool.h"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* meson counts exit code 77 as a skip; the reason goes to stdout. */
#define GPU_TEST_SKIP 77

static inline gboolean
gpu_test_have_device (gchar ** why)
{
  gint n = 0;
  CUresult r;

  if (!gst_cuda_load_library ()) {
    *why = g_strdup ("no CUDA driver (libcuda.so.1 not loadable)");
    return FALSE;
  }
  r = CuInit (0);
  if (r == CUDA_SUCCESS)
    r = CuDeviceGetCount (&n);
  if (r != CUDA_SUCCESS || n == 0) {
    *why = g_strdup_printf ("no CUDA device (cuInit/cuDeviceGetCount: %d, "
        "%d devices)", r, n);
    return FALSE;
  }
  return TRUE;
}

/* The test program's first argument, if any (a data file). */
static const gchar *gpu_test_arg;

/* A crash (one process: CK_FORK=no) leaves the crashing thread's frames
 * and the process's mappings on stderr, so that a rare one seen on the
 * GPU host can be read back with addr2line against the unstripped build;
 * then the signal's own action (the exit status stays 128 + signal). */
static void
gpu_test_on_crash (int sig)
{
  static const char head[] = "\nCRASH: fatal signal; the crashing thread's "
      "frames, then /proc/self/maps (addr2line -f -e LIB OFFSET):\n";
  void *frames[64];
  char buf[4096];
  int n = backtrace (frames, 64), fd;
  ssize_t r;

  if (write (2, head, sizeof head - 1) < 0)
    _exit (128 + sig);
  backtrace_symbols_fd (frames, n, 2);
  fd = open ("/proc/self/maps", O_RDONLY);
  while (fd >= 0 && (r = read (fd, buf, sizeof buf)) > 0)
    if (write (2, buf, (size_t) r) < 0)
      break;
  signal (sig, SIG_DFL);
  raise (sig);
}

static inline void
gpu_test_report_crashes (void)
{
  void *frame;

  backtrace (&frame, 1);        /* loads libgcc now, not in the handler */
  signal (SIGSEGV, gpu_test_on_crash);
  signal (SIGBUS, gpu_test_on_crash);
  signal (SIGFPE, gpu_test_on_crash);
  signal (SIGILL, gpu_test_on_crash);
}

/* After a failed test (one process: check leaves the test by longjmp)
 * its pipeline's threads may still be running, and the process's exit
 * (CUDA's and GLib's teardown under them) hung: racecheck-live, two
 * failures, 425 s after the suite's summary until the suite's timeout
 * (2026-11-29).  So a failed suite leaves at once. */
static inline int
gpu_test_exit (int failed)
{
  if (!failed)
    return 0;
  fflush (stdout);
  fflush (stderr);
  _exit (1);
}

#define GPU_CHECK_MAIN(name)                                            \
int main (int argc, char **argv)                                        \
{                                                                       \
  gchar *why = NULL;                                                    \
  gst_check_init (&argc, &argv);                                        \
  gpu_test_arg = argc > 1 ? argv[1] : NULL;                             \
  if (!gpu_test_have_device (&why)) {                                   \
    g_print ("SKIP: GPU tests of " #name " not run: %s\n", why);       \
    g_free (why);                                                       \
    return GPU_TEST_SKIP;                                               \
  }                                                                     \
  gpu_test_report_crashes ();                                           \
  /* CUDA was initialised above: forked children could not use it. */  \
  g_setenv ("CK_FORK", "no", TRUE);                                     \
  return gpu_test_exit (gst_check_run_suite (name##_suite (), #name,    \
          __FILE__));                                                   \
}

#define CUDA_OK(call) do { cudaError_t _e = (call);                      \
    fail_unless (_e == cudaSuccess, "%s: %s", #call,                    \
        cudaGetErrorString (_e)); } while (0)

static inline void
fill_random (guint8 * p, gsize n, guint32 seed)
{
  guint32 s = seed * 2654435761u + 1;
  gsize i;

  for (i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    p[i] = (guint8) (s >> 11);
  }
}

/* First differing pixel of two GRAY8 planes, or -1. */
static inline glong
first_diff (const guint8 * a, gint as, const guint8 * b, gint bs, gint w,
    gint h)
{
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (a[(gsize) y * as + x] != b[(gsize) y * bs + x])
        return (glong) y *w + x;
  return -1;
}

/* The frame's own GstCudaContext, made once per test program. */
static inline GstCudaContext *
gpu_test_context (void)
{
  static GstCudaContext *ctx = NULL;

  if (!ctx)
    ctx = gst_cuda_context_new (0);
  fail_unless (ctx != NULL, "no CUDA context");
  return ctx;
}

static inline void
gpu_test_share_context (GstElement * e)
{
  GstContext *c = gst_context_new_cuda_context (gpu_test_context ());
  gst_element_set_context (e, c);
  gst_context_unref (c);
}

/* The plugin's debug lines of @category at @level that begin with
 * @prefix, counted from gpu_test_log_count_begin () to _end (): what it
 * did, where nothing else tells or a driver call of the test's own would
 * wait behind the streams it watches. */
typedef struct
{
  const gchar *category, *prefix;
  GstDebugLevel level;
  gint n;                       /* atomic */
} GpuTestLogCount;

static inline void
gpu_test_log_count_line (GstDebugCategory * cat, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  GpuTestLogCount *c = user_data;

  if (level == c->level &&
      !g_strcmp0 (gst_debug_category_get_name (cat), c->category) &&
      g_str_has_prefix (gst_debug_message_get (message), c->prefix))
    g_atomic_int_inc (&c->n);
}

static inline void
gpu_test_log_count_begin (GpuTestLogCount * c)
{
  g_atomic_int_set (&c->n, 0);
  gst_debug_set_active (TRUE);
  gst_debug_set_threshold_for_name (c->category, c->level);
  gst_debug_add_log_function (gpu_test_log_count_line, c, NULL);
}

static inline void
gpu_test_log_count_end (GpuTestLogCount * c)
{
  gst_debug_remove_log_function (gpu_test_log_count_line);
  gst_debug_unset_threshold_for_name (c->category);
}

/* GStreamer's cudaupload comes from nvcodec, which (1.22) registers nothing
 * on a host without the NVIDIA video codec libraries (libnvcuvid,
 * libnvidia-encode), even when CUDA itself works. */
static inline gboolean
have_cudaupload (void)
{
  GstElementFactory *f = gst_element_factory_find ("cudaupload");
  if (!f) {
    g_print ("SKIP (part): cudaupload is not registered on this host "
        "(nvcodec needs libnvcuvid or libnvidia-encode)\n");
    return FALSE;
  }
  gst_object_unref (f);
  return TRUE;
}

/* A line of tests/data/otsu_golden.txt: the frame's name, OpenCV's
 * threshold, its pixel count and its 256 counts (numpy's bincount); FALSE
 * for a comment.  @w x @h: a shape of that many pixels, the widest width
 * up to 8192 that divides it. */
static inline gboolean
otsu_golden_line (const gchar * line, gchar name[64], gint * t,
    guint32 hist[256], gint * w, gint * h)
{
  unsigned long long total;
  gint off, pos, i;

  if (line[0] == '#' || sscanf (line, "%63s %d %llu%n", name, t, &total,
          &off) != 3)
    return FALSE;
  pos = off;
  for (i = 0; i < 256; i++) {
    fail_unless (sscanf (line + pos, "%u%n", &hist[i], &off) == 1);
    pos += off;
  }
  for (*w = MIN ((gint) total, 8192); *w > 1 && total % *w; (*w)--);
  *h = (gint) (total / *w);
  return TRUE;
}

/* ---- buffers and harnesses ---- */

static inline GstBuffer *
random_sys_buffer (const GstVideoInfo * info, guint32 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  fill_random (map.data, map.size, seed);
  gst_buffer_unmap (buf, &map);
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_INFO_FORMAT (info),
      info->width, info->height, GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  return buf;
}

/* A frame in CUDA memory of the test's context, filled through a host map
 * (GstCudaMemory uploads it at the element's GST_MAP_CUDA). */
static inline GstBuffer *
random_cuda_buffer (const GstVideoInfo * info, guint32 seed)
{
  GstVideoInfo vinfo;
  GstMemory *mem = gst_cuda_img_memory_alloc (gpu_test_context (), info,
      &vinfo);
  GstBuffer *buf;
  GstVideoFrame f;
  guint p;

  fail_unless (mem != NULL);
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_buffer_add_video_meta_full (buf, 0, GST_VIDEO_INFO_FORMAT (&vinfo),
      vinfo.width, vinfo.height, GST_VIDEO_INFO_N_PLANES (&vinfo),
      vinfo.offset, vinfo.stride);
  fail_unless (gst_video_frame_map (&f, &vinfo, buf, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++)
    fill_random (GST_VIDEO_FRAME_PLANE_DATA (&f, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) *
        GST_VIDEO_FRAME_COMP_HEIGHT (&f, p), seed + p);
  gst_video_frame_unmap (&f);
  return buf;
}

/* A buffer of a one-plane packed @format (GRAY8, RGBA, BGR, ...) holding
 * the tight @frame, in CUDA memory of the test's context or in system
 * memory. */
static inline GstBuffer *
packed_frame_buffer (const guint8 * frame, GstVideoFormat format, gint w,
    gint h, gboolean cuda)
{
  GstVideoInfo info, vinfo;
  GstBuffer *buf = gst_buffer_new ();
  GstVideoFrame f;
  gsize row;
  gint y;

  gst_video_info_set_format (&info, format, w, h);
  row = (gsize) w *GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
  if (cuda) {
    GstMemory *mem = gst_cuda_img_memory_alloc (gpu_test_context (), &info,
        &vinfo);
    fail_unless (mem != NULL);
    gst_buffer_append_memory (buf, mem);
  } else {
    vinfo = info;
    gst_buffer_append_memory (buf, gst_allocator_alloc (NULL, info.size, NULL));
  }
  gst_buffer_add_video_meta_full (buf, 0, format, w, h, 1, vinfo.offset,
      vinfo.stride);
  fail_unless (gst_video_frame_map (&f, &vinfo, buf, GST_MAP_WRITE));
  for (y = 0; y < h; y++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), frame + y * row, row);
  gst_video_frame_unmap (&f);
  return buf;
}

/* A GRAY8 buffer holding the tight @frame. */
static inline GstBuffer *
gray_frame_buffer (const guint8 * frame, gint w, gint h, gboolean cuda)
{
  return packed_frame_buffer (frame, GST_VIDEO_FORMAT_GRAY8, w, h, cuda);
}

static inline GstHarness *
filter_harness (const gchar * launch, const gchar * in_caps,
    const gchar * out_caps)
{
  GstElement *e = gst_parse_bin_from_description (launch, TRUE, NULL);
  GstHarness *h;

  fail_unless (e != NULL);
  /* Share the test's context so CUDA input buffers are "ours" */
  gpu_test_share_context (e);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h, in_caps);
  gst_harness_set_sink_caps_str (h, out_caps);
  return h;
}

static inline gchar *
caps_str (gboolean cuda, const gchar * format, gint w, gint h)
{
  return g_strdup_printf ("video/x-raw%s,format=%s,width=%d,height=%d,"
      "framerate=30/1", cuda ? "(memory:CUDAMemory)" : "", format, w, h);
}

/* A harness around a launch line whose element @name posts messages to a
 * bus of the test's own. */
typedef struct
{
  GstHarness *h;
  GstBus *bus;
  GstElement *e;
} MsgHarness;

static inline MsgHarness
msg_harness_new (const gchar * launch, const gchar * in_caps,
    const gchar * out_caps, const gchar * name)
{
  MsgHarness m;

  m.h = filter_harness (launch, in_caps, out_caps);
  m.bus = gst_bus_new ();
  gst_element_set_bus (m.h->element, m.bus);
  m.e = gst_bin_get_by_name (GST_BIN (m.h->element), name);
  fail_unless (m.e != NULL, "launch line needs an element named %s", name);
  return m;
}

static inline void
msg_harness_free (MsgHarness * m)
{
  gst_element_set_bus (m->h->element, NULL);
  gst_object_unref (m->e);
  gst_harness_teardown (m->h);
  gst_object_unref (m->bus);
}

/* Frame @n of a 30/1 stream: its timestamp and duration (aggregators
 * match frames by them). */
static inline GstBuffer *
stamp (GstBuffer * b, gint n)
{
  GST_BUFFER_PTS (b) = gst_util_uint64_scale (n, GST_SECOND, 30);
  GST_BUFFER_DURATION (b) = gst_util_uint64_scale (n + 1, GST_SECOND, 30) -
      GST_BUFFER_PTS (b);
  return b;
}

/* cudaoverlay between two harnesses: one on its video pad (and its
 * output), one on its mask pad (none if @mask_caps is NULL). */
typedef struct
{
  GstHarness *video, *mask;
  GstElement *o;
} Overlay;

static inline Overlay
overlay_new (const gchar * launch, const gchar * video_caps,
    const gchar * mask_caps, const gchar * out_caps)
{
  Overlay ov;

  ov.o = gst_parse_launch (launch, NULL);
  fail_unless (ov.o != NULL);
  gpu_test_share_context (ov.o);
  ov.video = gst_harness_new_with_element (ov.o, "video", "src");
  gst_harness_set_src_caps_str (ov.video, video_caps);
  gst_harness_set_sink_caps_str (ov.video, out_caps);
  ov.mask = NULL;
  if (mask_caps) {
    ov.mask = gst_harness_new_with_element (ov.o, "mask", NULL);
    gst_harness_set_src_caps_str (ov.mask, mask_caps);
  }
  return ov;
}

static inline void
overlay_free (Overlay * ov)
{
  gst_element_set_bus (ov->o, NULL);
  if (ov->mask)
    gst_harness_teardown (ov->mask);
  gst_harness_teardown (ov->video);
  gst_object_unref (ov->o);
}

/* Bytes and rows of plane @p of a frame of @info, from GStreamer's format
 * table (the test's own reading, not the plugin's helper) */
static inline void
plane_extent (const GstVideoInfo * info, guint p, gsize * row, guint * rows)
{
  guint c = 0;

  while (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, c) != p)
    c++;
  *row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) *
      GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
  *rows = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
}

/* The visible bytes of @buf (a frame of @caps, whose info goes to @info),
 * planes and rows packed: what two frames must share to be the same */
static inline GBytes *
visible_bytes (GstBuffer * buf, GstCaps * caps, GstVideoInfo * info)
{
  GByteArray *a = g_byte_array_new ();
  GstVideoFrame f;
  guint p, y;

  fail_unless (gst_video_info_from_caps (info, caps));
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    gsize row;
    guint rows;

    plane_extent (info, p, &row, &rows);
    for (y = 0; y < rows; y++)
      g_byte_array_append (a, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p), row);
  }
  gst_video_frame_unmap (&f);
  return g_byte_array_free_to_bytes (a);
}

/* ---- memory use: GPU (the whole device) and host RSS ---- */

typedef struct
{
  gsize gpu_used, rss;
} Usage;

static inline Usage
usage (void)
{
  Usage u = { 0, 0 };
  size_t free_b = 0, total_b = 0;
  long pages = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");

  CUDA_OK (cudaMemGetInfo (&free_b, &total_b));
  u.gpu_used = total_b - free_b;
  if (f) {
    if (fscanf (f, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    fclose (f);
  }
  u.rss = (gsize) resident *(gsize) sysconf (_SC_PAGESIZE);
  return u;
}

/* Prints the GPU memory and host RSS used from @a to @b, fails if the GPU
 * memory grew more than @slack_g; returns the RSS growth. */
static inline gssize
report_usage (Usage a, Usage b, gssize slack_g, const gchar * what)
{
  gssize dg = (gssize) b.gpu_used - (gssize) a.gpu_used;
  gssize dr = (gssize) b.rss - (gssize) a.rss;

  g_print ("%s: GPU memory %+.2f MiB (of %.0f MiB), host RSS %+.2f MiB "
      "(of %.0f MiB)\n", what, dg / 1048576.0, a.gpu_used / 1048576.0,
      dr / 1048576.0, a.rss / 1048576.0);
  fail_unless (dg <= slack_g, "%s: GPU memory grew %.2f MiB", what,
      dg / 1048576.0);
  return dr;
}

/* Flat: GPU memory within 1 % of the device's use after the warm-up (and
 * at least 2 MiB of slack for the driver's own bookkeeping), host RSS
 * within 1 % or 2 MiB. */
static inline void
check_flat (Usage a, Usage b, const gchar * what)
{
  gssize dr = report_usage (a, b, MAX ((gssize) a.gpu_used / 100, 2 << 20),
      what);

  fail_unless (dr <= MAX ((gssize) a.rss / 100, 2 << 20),
      "%s: host RSS grew %.2f MiB", what, dr / 1048576.0);
}

/* check_flat, or where @report_only (a run under compute-sanitizer,
 * whose own memory reads as growth; its leak check stands in) only the
 * report. */
static inline void
check_flat_unless (gboolean report_only, Usage a, Usage b, const gchar * what)
{
  if (report_only)
    report_usage (a, b, G_MAXSSIZE, what);
  else
    check_flat (a, b, what);
}

/* `appsrc name=in is-live=true ... ! @chain ! appsink name=out`, the
 * source saying a latency of 10 to 40 ms: once @frame (with @caps, taken)
 * came through, the latency query on the src pad of the element named "g"
 * answers live, the source's minimum, and its maximum plus the 3 frames
 * (GST_CUDA_IMG_DOWNLOAD_SLOTS at 30 fps) that wait in the last element's
 * thread to be pushed. */
static inline void
check_latency_query (const gchar * chain, GstCaps * caps, GstBuffer * frame)
{
  gchar *launch = g_strdup_printf ("appsrc name=in is-live=true "
      "format=time min-latency=10000000 max-latency=40000000 ! %s ! "
      "appsink name=out sync=false", chain);
  GstElement *pipe = gst_parse_launch (launch, NULL);
  GstElement *g = gst_bin_get_by_name (GST_BIN (pipe), "g");
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "in");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  GstPad *pad = gst_element_get_static_pad (g, "src");
  GstQuery *q = gst_query_new_latency ();
  GstClockTime min, max;
  GstFlowReturn ret;
  GstSample *s = NULL;
  gboolean live;

  gpu_test_share_context (pipe);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  GST_BUFFER_PTS (frame) = 0;
  g_signal_emit_by_name (src, "push-buffer", frame, &ret);
  gst_buffer_unref (frame);
  g_signal_emit_by_name (sink, "pull-sample", &s);
  fail_unless (s != NULL, "%s: no frame came through", launch);
  gst_sample_unref (s);

  fail_unless (gst_pad_query (pad, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  fail_unless_equals_uint64 (min, 10 * GST_MSECOND);
  fail_unless_equals_uint64 (max, 40 * GST_MSECOND + 3 * GST_SECOND / 30);
  gst_query_unref (q);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (g);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (launch);
}
