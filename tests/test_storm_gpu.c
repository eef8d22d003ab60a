/* cudaimgproc: state and seek storms on whole pipelines of our elements
 * (issue 24, item 2): PLAYING -> NULL -> PLAYING and PAUSED <-> PLAYING
 * 200 times with frames in flight, flushing seeks every few frames, EOS
 * with frames in flight, and the pipeline torn down from another thread
 * while it streams.  Each must post no error, finish in bounded time
 * (every state change and wait below has a timeout) and leak nothing:
 * GPU memory and host RSS are sampled after a warm-up and at the end.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gputest.h"

#include <malloc.h>

/* Every element of ours, system memory in at the source and out at the
 * sink, CUDA memory between them; a tee feeds cudaoverlay as the live
 * preview does. */
#define STORM_LAUNCH \
  "videotestsrc name=src pattern=ball is-live=%s " \
  "! video/x-raw,format=RGBA,width=320,height=240,framerate=200/1 " \
  "! tee name=t " \
  "t. ! queue max-size-buffers=3 ! cudagray ! cudasmooth ! cudaotsu " \
  "! cudathin ! o.mask " \
  "t. ! queue max-size-buffers=3 ! cudaoverlay name=o " \
  "! fakesink name=sink1 sync=false signal-handoffs=true " \
  "t. ! queue max-size-buffers=3 ! cudakmeans k=4 ! cudagray ! cudasobel " \
  "! fakesink name=sink2 sync=false signal-handoffs=true"

/* The same shape with GStreamer's own elements: what host memory a
 * pipeline's threads and caches take without any of ours. */
#define CONTROL_LAUNCH \
  "videotestsrc pattern=ball " \
  "! video/x-raw,format=RGBA,width=320,height=240,framerate=200/1 " \
  "! tee name=t " \
  "t. ! queue max-size-buffers=3 ! videoconvert " \
  "! video/x-raw,format=GRAY8 ! videoconvert ! o. " \
  "t. ! queue max-size-buffers=3 ! compositor name=o " \
  "! fakesink name=sink1 sync=false signal-handoffs=true " \
  "t. ! queue max-size-buffers=3 ! videoconvert " \
  "! video/x-raw,format=GRAY8 ! fakesink name=sink2 sync=false " \
  "signal-handoffs=true"

static gint frames;

/* STORM_CYCLES=N in the environment: each storm at most N cycles, for a
 * run under compute-sanitizer (whose own memory would read as growth, so
 * the flatness checks then only report; its leak check stands in). */
static gint
cycles (gint n)
{
  const gchar *c = g_getenv ("STORM_CYCLES");

  return c ? CLAMP (atoi (c), 1, n) : n;
}

/* whether STORM_CYCLES is set: the memory checks only report */
static gboolean
report_only (void)
{
  return g_getenv ("STORM_CYCLES") != NULL;
}

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  g_atomic_int_inc (&frames);
}

/* One CUDA context for every pipeline, given as a long-running
 * application gives it: each new GstCudaContext is a new driver context,
 * and the driver keeps some host memory of each (GStreamer's own
 * `cudaupload ! cudadownload` grows host RSS by 55 KiB a pipeline so on an
 * H100), which would hide a leak of ours. */
static GstContext *shared_context;

/* STORM_LAUNCH in the environment: the storms on another pipeline (its
 * sinks named sink1 and sink2, signal-handoffs=true), to find which
 * element a leak comes from. */
static GstElement *
pipeline_from (const gchar * control, gboolean live)
{
  const gchar *other = g_getenv ("STORM_LAUNCH");
  gchar *launch = control ? g_strdup (control) : other ? g_strdup (other) :
      g_strdup_printf (STORM_LAUNCH, live ? "true" : "false");
  GError *err = NULL;
  GstElement *p = gst_parse_launch (launch, &err), *s;
  const gchar *names[] = { "sink1", "sink2" };
  guint i;

  fail_unless (p != NULL, "%s: %s", launch, err ? err->message : "?");
  if (!shared_context) {
    GstCudaContext *c = gst_cuda_context_new (0);

    fail_unless (c != NULL, "no CUDA context on device 0");
    shared_context = gst_context_new_cuda_context (c);
    gst_object_unref (c);
  }
  gst_element_set_context (p, shared_context);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    s = gst_bin_get_by_name (GST_BIN (p), names[i]);
    g_signal_connect (s, "handoff", G_CALLBACK (on_handoff), NULL);
    gst_object_unref (s);
  }
  g_free (launch);
  return p;
}

static GstElement *
storm_pipeline (gboolean live)
{
  return pipeline_from (NULL, live);
}

/* No error or warning on the bus so far. */
static void
bus_clean (GstElement * p, const gchar * when)
{
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *e = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &e, &dbg);
    else
      gst_message_parse_warning (msg, &e, &dbg);
    fail ("%s: %s from %s: %s (%s)", when,
        GST_MESSAGE_TYPE_NAME (msg), GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        e->message, dbg);
  }
  gst_object_unref (bus);
}

static void
set_state (GstElement * p, GstState s, const gchar * when)
{
  GstStateChangeReturn r = gst_element_set_state (p, s);

  fail_unless (r != GST_STATE_CHANGE_FAILURE, "%s: to %s failed", when,
      gst_element_state_get_name (s));
  r = gst_element_get_state (p, NULL, NULL, 10 * GST_SECOND);
  fail_unless (r == GST_STATE_CHANGE_SUCCESS
      || r == GST_STATE_CHANGE_NO_PREROLL, "%s: to %s: %s after 10 s", when,
      gst_element_state_get_name (s), gst_element_state_change_return_get_name
      (r));
}

/* Waits (at most 10 s) until @n more frames reached the sinks. */
static void
wait_frames (gint n, const gchar * when)
{
  gint start = g_atomic_int_get (&frames);
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_atomic_int_get (&frames) - start < n) {
    fail_unless (g_get_monotonic_time () < end, "%s: %d frames in 10 s, "
        "expected %d", when, g_atomic_int_get (&frames) - start, n);
    g_usleep (200);
  }
}

/* New pipelines PLAYING -> NULL (every fourth played twice); the host
 * memory used from cycle 20 to 200 next to that of the control pipeline */
static gssize
play_null_cycles (const gchar * control, const gchar * what)
{
  Usage warm = { 0, 0 };
  gint i;

  for (i = 0; i < cycles (200); i++) {
    GstElement *p = pipeline_from (control, FALSE);
    gchar *when = g_strdup_printf ("%s, cycle %d", what, i);

    set_state (p, GST_STATE_PLAYING, when);
    wait_frames (1 + i % 7, when);
    bus_clean (p, when);
    set_state (p, GST_STATE_NULL, when);
    if (i % 4 == 0) {
      set_state (p, GST_STATE_PLAYING, when);
      wait_frames (2, when);
      bus_clean (p, when);
      set_state (p, GST_STATE_NULL, when);
    }
    gst_object_unref (p);
    g_free (when);
    if (i == 19)
      warm = usage ();
  }
  return report_usage (warm, usage (),
      report_only ()? G_MAXSSIZE : 2 << 20, what);
}

/* Host RSS is noisy by a couple of MiB over 180 pipelines (allocator
 * fragmentation, GStreamer's caches), for GStreamer's own elements too: ours
 * may grow at most 1 % of RSS more than the control, which a leak of 14 KiB
 * a pipeline exceeds. */
GST_START_TEST (test_play_null_cycles)
{
  gssize control = play_null_cycles (CONTROL_LAUNCH, "control (GStreamer's "
      "own elements) PLAYING -> NULL x 200");
  gssize ours = play_null_cycles (NULL, "PLAYING -> NULL x 200");
  Usage u = usage ();

  fail_unless (report_only () || ours - control <=
      (gssize) u.rss / 100,
      "host RSS grew %.2f MiB over 180 pipelines, the control %.2f MiB",
      ours / 1048576.0, control / 1048576.0);
}

GST_END_TEST;

GST_START_TEST (test_pause_play_cycles)
{
  GstElement *p = storm_pipeline (TRUE);
  Usage warm = { 0, 0 };
  gint i;

  set_state (p, GST_STATE_PLAYING, "start");
  wait_frames (4, "start");
  for (i = 0; i < cycles (200); i++) {
    gchar *when = g_strdup_printf ("pause %d", i);

    set_state (p, GST_STATE_PAUSED, when);
    set_state (p, GST_STATE_PLAYING, when);
    wait_frames (1 + i % 3, when);
    bus_clean (p, when);
    g_free (when);
    if (i == 19)
      warm = usage ();
  }
  set_state (p, GST_STATE_NULL, "end");
  check_flat_unless (report_only (), warm,
      usage (), "PAUSED <-> PLAYING x 200");
  gst_object_unref (p);
}

GST_END_TEST;

GST_START_TEST (test_flushing_seeks)
{
  GstElement *p = storm_pipeline (FALSE);
  gint i;

  set_state (p, GST_STATE_PLAYING, "start");
  for (i = 0; i < cycles (150); i++) {
    gchar *when = g_strdup_printf ("seek %d", i);

    wait_frames (1 + i % 5, when);
    fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | (i % 2 ? GST_SEEK_FLAG_KEY_UNIT : 0),
            (i % 10) * GST_SECOND / 20), "%s refused", when);
    bus_clean (p, when);
    g_free (when);
  }
  wait_frames (10, "after the seeks");
  bus_clean (p, "after the seeks");
  set_state (p, GST_STATE_NULL, "end");
  gst_object_unref (p);
}

GST_END_TEST;

GST_START_TEST (test_eos_in_flight)
{
  gint i;

  for (i = 0; i < cycles (30); i++) {
    GstElement *p = storm_pipeline (FALSE);
    GstBus *bus = gst_element_get_bus (p);
    GstMessage *msg;
    gchar *when = g_strdup_printf ("eos %d", i);

    set_state (p, GST_STATE_PLAYING, when);
    wait_frames (1 + i % 4, when);
    fail_unless (gst_element_send_event (p, gst_event_new_eos ()));
    msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "%s: no EOS in 10 s", when);
    fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s: %s", when,
        GST_MESSAGE_TYPE_NAME (msg));
    gst_message_unref (msg);
    set_state (p, GST_STATE_NULL, when);
    gst_object_unref (bus);
    gst_object_unref (p);
    g_free (when);
  }
}

GST_END_TEST;

static gpointer
tear_down (gpointer p)
{
  gst_element_set_state (GST_ELEMENT (p), GST_STATE_NULL);
  return NULL;
}

GST_START_TEST (test_teardown_from_thread)
{
  Usage warm = { 0, 0 };
  gint i;

  for (i = 0; i < cycles (60); i++) {
    GstElement *p = storm_pipeline (i % 2 == 0);
    gchar *when = g_strdup_printf ("teardown %d", i);
    GThread *t;
    gint64 start;

    set_state (p, GST_STATE_PLAYING, when);
    wait_frames (1 + i % 5, when);
    start = g_get_monotonic_time ();
    t = g_thread_new ("teardown", tear_down, p);
    g_thread_join (t);
    fail_unless (g_get_monotonic_time () - start < 10 * G_USEC_PER_SEC,
        "%s: NULL took over 10 s", when);
    fail_unless (GST_STATE (p) == GST_STATE_NULL, "%s", when);
    bus_clean (p, when);
    gst_object_unref (p);
    g_free (when);
    if (i == 9)
      warm = usage ();
  }
  check_flat_unless (report_only (), warm,
      usage (), "teardown from a thread x 60");
}

GST_END_TEST;

static Suite *
storm_suite (void)
{
  Suite *s = suite_create ("storm-gpu");
  TCase *tc = tcase_create ("storm");

  /* glibc gives each new streaming thread an arena of its own, up to 8 a
   * core, and keeps them.  On a 16-core host the first storm grew host RSS
   * by 5.3 MiB with unlimited arenas and by 2.2 MiB with two, where a
   * pipeline of GStreamer's own elements of the same shape (tee, queues,
   * videoconvert) grows by 1.5 MiB with two: two arenas keep the measure
   * about our memory. */
  mallopt (M_ARENA_MAX, 2);

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_play_null_cycles);
  tcase_add_test (tc, test_pause_play_cycles);
  tcase_add_test (tc, test_flushing_seeks);
  tcase_add_test (tc, test_eos_in_flight);
  tcase_add_test (tc, test_teardown_from_thread);
  return s;
}

GPU_CHECK_MAIN (storm);
