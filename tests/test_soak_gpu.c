/* cudaimgproc: a million frames (issue 24, item 6).
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * `cudagray ! cudaotsu ! cudasobel ! cudathin` and `cudakmeans` on 640x480
 * for 1,000,000 frames each, and on 4K for 10,000, the way an application
 * runs them: frames in system memory from the source (a picture of a
 * ball, repeated), out to a sink in system memory.  Host RSS and GPU memory are sampled every 5 %
 * of the frames; from the sample at 10 % (the warm-up done) on, each must
 * stay within 1 % (or 2 MiB, the driver's own bookkeeping) of it.  Every
 * frame must arrive, with no error or warning, within a time bound.
 *
 * SOAK_SCALE (default 1): a fraction of those frame counts, for a quick
 * run.
 */
#include "gputest.h"

#define CHAIN "cudagray ! cudaotsu ! cudasobel ! cudathin"

typedef struct
{
  gint frames;
  gint next_sample, every;
  Usage base;
  gint n_samples;
  GString *series;
  gboolean bad;
  gchar *why;
} Soak;

/* on the sink's streaming thread: counts frames and samples memory */
static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Soak * s)
{
  const gint n = ++s->frames;
  Usage u;

  if (n != s->next_sample)
    return;
  s->next_sample += s->every;
  u = usage ();
  g_string_append_printf (s->series, " %.1f/%.1f", u.rss / 1048576.0,
      u.gpu_used / 1048576.0);
  if (s->n_samples++ == 1) {    /* the sample at 10 % */
    s->base = u;
    return;
  }
  if (s->n_samples > 2 && !s->bad) {
    const gssize dr = (gssize) u.rss - (gssize) s->base.rss;
    const gssize dg = (gssize) u.gpu_used - (gssize) s->base.gpu_used;

    if (dr > MAX ((gssize) s->base.rss / 100, 2 << 20) ||
        dg > MAX ((gssize) s->base.gpu_used / 100, 2 << 20)) {
      s->bad = TRUE;
      s->why = g_strdup_printf ("at frame %d: host RSS %+.2f MiB, GPU "
          "memory %+.2f MiB since frame %d", n, dr / 1048576.0,
          dg / 1048576.0, 2 * s->every);
    }
  }
}

static void
soak (const gchar * chain, gint w, gint h, gint frames)
{
  const gchar *env = g_getenv ("SOAK_SCALE");
  const gdouble scale = env ? g_ascii_strtod (env, NULL) : 1.0;
  const gint n = MAX ((gint) (frames * scale), 200);
  /* generous: 2 ms a 640x480 frame, 20 ms a 4K one, and a minute */
  const GstClockTime bound = 60 * GST_SECOND +
      (GstClockTime) n * (w * h > 1000000 ? 20 : 2) * GST_MSECOND;
  /* one ball frame, repeated: videotestsrc draws a 640x480 ball in 1.3 ms
   * of CPU, which would be all the soak measured */
  gchar *launch = g_strdup_printf ("videotestsrc pattern=ball num-buffers=1 "
      "! video/x-raw,format=RGBA,width=%d,height=%d,framerate=1000/1 "
      "! imagefreeze num-buffers=%d ! queue ! %s ! video/x-raw "
      "! fakesink name=sink sync=false signal-handoffs=true", w, h, n, chain);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (launch, &err), *sink;
  Soak s = { 0, n / 20, n / 20, {0, 0}, 0, g_string_new (NULL), FALSE, NULL };
  GstBus *bus;
  GstMessage *msg;
  gint64 t0;
  gdouble secs;

  fail_unless (p != NULL, "%s: %s", launch, err ? err->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &s);
  gst_object_unref (sink);
  bus = gst_element_get_bus (p);
  t0 = g_get_monotonic_time ();
  fail_if (gst_element_set_state (p, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, bound, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  secs = (g_get_monotonic_time () - t0) / 1e6;
  fail_unless (msg != NULL, "%s: no EOS within %.0f s (%d frames of %d)",
      launch, bound / 1e9, s.frames, n);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s: %"
      GST_PTR_FORMAT, launch, msg);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  g_print ("%dx%d %s: %d frames in %.1f s (%.0f fps); RSS/GPU MiB every "
      "%d frames:%s\n", w, h, chain, s.frames, secs, s.frames / secs,
      s.every, s.series->str);
  fflush (stdout);
  fail_unless_equals_int (s.frames, n);
  fail_if (s.bad, "%dx%d %s: not flat %s", w, h, chain, s.why);
  g_free (s.why);
  g_string_free (s.series, TRUE);
  gst_object_unref (bus);
  gst_object_unref (p);
  g_free (launch);
}

#define SOAK_TEST(name, chain, w, h, frames)                           \
  GST_START_TEST (test_##name)                                          \
  {                                                                     \
    soak (chain, w, h, frames);                                         \
  }                                                                     \
  GST_END_TEST;

SOAK_TEST (chain_640x480, CHAIN, 640, 480, 1000000);
SOAK_TEST (kmeans_640x480, "cudakmeans", 640, 480, 1000000);
SOAK_TEST (chain_4k, CHAIN, 3840, 2160, 10000);
SOAK_TEST (kmeans_4k, "cudakmeans", 3840, 2160, 10000);

static Suite *
soak_gpu_suite (void)
{
  Suite *s = suite_create ("soak-gpu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 3600);
  tcase_add_test (tc, test_chain_640x480);
  tcase_add_test (tc, test_kmeans_640x480);
  tcase_add_test (tc, test_chain_4k);
  tcase_add_test (tc, test_kmeans_4k);
  return s;
}

GPU_CHECK_MAIN (soak_gpu);
