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
 *
 * Where the memory is not flat the series also says what grew: malloc's
 * bytes in use and held (the heap and its mmapped blocks; a freed
 * frame-sized block that malloc keeps is held, not in use) beside RSS,
 * and every device or page-locked allocation the plugin made after the
 * warm-up (its allocation hook logs each to the cudaimgalloc category),
 * to tell a malloc from a pool's growth from the driver's own.  That list
 * found the one step seen (4K cudakmeans, host RSS up by one frame in one
 * run of three): an output pool growing mid-stream, now made whole at the
 * start (test_pools_made_at_start in test_transfer_gpu.c).
 */
#include "gputest.h"

#include <string.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

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
  GMutex late_lock;
  GString *late;                /* the plugin's allocations after warm-up */
  gint n_late;
} Soak;

/* malloc's bytes in use and bytes held (in use plus freed but kept in its
 * arenas), heap and mmapped blocks; 0 where unknown.  A frame-sized block
 * freed and kept shows as held, not in use. */
static void
heap_usage (gsize * in_use, gsize * held)
{
#if defined (__GLIBC__) && __GLIBC_PREREQ (2, 33)
  struct mallinfo2 mi = mallinfo2 ();

  *in_use = mi.uordblks + mi.hblkhd;
  *held = mi.arena + mi.hblkhd;
#else
  *in_use = *held = 0;
#endif
}

/* any thread: notes the plugin's allocations once the base sample is in */
static void
on_log (GstDebugCategory * category, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user)
{
  Soak *s = user;

  if (level != GST_LEVEL_LOG || g_strcmp0 (gst_debug_category_get_name
          (category), "cudaimgalloc"))
    return;
  g_mutex_lock (&s->late_lock);
  if (s->n_samples >= 2 && s->n_late++ < 20)
    g_string_append_printf (s->late, "\n  after frame %d: %s", s->frames,
        gst_debug_message_get (message));
  g_mutex_unlock (&s->late_lock);
}

/* on the sink's streaming thread: counts frames and samples memory */
static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Soak * s)
{
  const gint n = ++s->frames;
  gsize in_use, held;
  Usage u;

  if (n != s->next_sample)
    return;
  s->next_sample += s->every;
  u = usage ();
  heap_usage (&in_use, &held);
  g_string_append_printf (s->series, " %.1f/%.1f/%.1f/%.1f",
      u.rss / 1048576.0, u.gpu_used / 1048576.0, in_use / 1048576.0,
      held / 1048576.0);
  g_mutex_lock (&s->late_lock);
  s->n_samples++;
  g_mutex_unlock (&s->late_lock);
  if (s->n_samples == 2) {      /* the sample at 10 % */
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
  /* static: the log function would outlive a failed test's frame */
  static Soak s;
  GstBus *bus;
  GstMessage *msg;
  gint64 t0;
  gdouble secs;

  fail_unless (p != NULL, "%s: %s", launch, err ? err->message : "?");
  memset (&s, 0, sizeof s);
  s.next_sample = s.every = n / 20;
  s.series = g_string_new (NULL);
  g_mutex_init (&s.late_lock);
  s.late = g_string_new (NULL);
  gst_debug_set_active (TRUE);
  gst_debug_set_threshold_for_name ("cudaimgalloc", GST_LEVEL_LOG);
  gst_debug_add_log_function (on_log, &s, NULL);
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
  gst_debug_remove_log_function (on_log);
  gst_debug_unset_threshold_for_name ("cudaimgalloc");
  g_print ("%dx%d %s: %d frames in %.1f s (%.0f fps); RSS/GPU/malloc in "
      "use/malloc held MiB every %d frames:%s; the plugin's allocations "
      "after frame %d: %d%s\n",
      w, h, chain, s.frames, secs, s.frames / secs, s.every, s.series->str,
      2 * s.every, s.n_late, s.late->str);
  fflush (stdout);
  fail_unless_equals_int (s.frames, n);
  fail_if (s.bad, "%dx%d %s: not flat %s", w, h, chain, s.why);
  g_free (s.why);
  g_string_free (s.series, TRUE);
  g_string_free (s.late, TRUE);
  g_mutex_clear (&s.late_lock);
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
