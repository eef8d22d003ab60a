/* cudaimgproc many-streams benchmark: N pipelines in one process, as a
 * camera application runs them (a recorder, an inspection station, a
 * server ingesting streams): aggregate and per-stream frames a second,
 * the CPU time the process spends a frame, cores busy, GPU memory, and
 * the PCIe floor all streams share.
 * Copyright (C) 2026 cudaimgproc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   cudaimgproc-streams-bench [--streams 1,4,16,64,100,256] [--size WxH]
 *       [--memory system|gpu] [--only SUBSTRING] [--chain DESC FORMAT]
 *       [--seconds S] [--warmup S] [--app-context] [--no-kernels]
 *       [--threads]
 *       [--device-ids 0,1] [--photo FILE W H] [--json FILE]
 *
 * Each pipeline is `appsrc ! CHAIN ! video/x-raw,format=GRAY8 ! fakesink
 * sync=false`, and each appsrc is fed by a thread of its own that pushes
 * the stream's 4 RGBA frames round robin, as a camera's recycled pool
 * does, as fast as the pipeline takes them (block=true, 4 queued).  The
 * frames are in system memory (the first element uploads, the last
 * downloads) or already on the GPU (`--memory gpu`: CUDA memory in and
 * out, as after nvh264dec; the frames are made in the context the
 * pipeline's elements chose, which the application asks them for with a
 * context query, as nvh264dec does).  No application context is set
 * unless --app-context gives every pipeline one it made.
 *
 * After every stream has passed 8 frames, and --warmup seconds more
 * (default 0: memory seen again is page-locked in the first second or
 * two, docs/design.md), the run is timed for S seconds (default 1):
 * frames that arrived (fakesink's handoff), the process's CPU time
 * (getrusage: every thread, the feeding ones too), GPU memory in use on
 * the device (cudaMemGetInfo, against the figure before the
 * pipelines were made).  --threads adds each kind of thread's share of
 * the cores (/proc/self/task, thread names with their digits folded).
 * --no-kernels runs everything but our kernels (CUDAIMGPROC_NO_KERNELS):
 * GStreamer's and the plugin's own cost.  --device-ids spreads the
 * streams over those GPUs in turn by cuda-device-id (a camera per GPU).
 *
 * PCIe floor: the frames a second the link carries, from the page-locked
 * copy rates measured in the same run (64 MB each way, median of 10):
 * copies up and down run at once on copy engines of their own, so the
 * busier direction bounds the rate (an RGBA frame up, at 1080p 151 µs at
 * 55 GB/s, against its GRAY8 result down).  All streams share the link:
 * the aggregate floor is that of one stream of frames back to back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>

#include "gstcudaimgpool.h"
#include <cuda_runtime_api.h>
#include "content.h"
#include "gstbench.h"

#define INPUTS 4
#define WARM_FRAMES 8
#define TIMEOUT_S 60
#define MAX_DEVICES 16

typedef struct
{
  const gchar *name;
  const gchar *chain;
  const gchar *out_format;
} Chain;

static const Chain chains[] = {
  {"cudagray ! cudaotsu ! cudasobel", "cudagray ! cudaotsu ! cudasobel",
      "GRAY8"},
  {"cudagray ! cudaotsu ! cudathin", "cudagray ! cudaotsu ! cudathin",
      "GRAY8"},
};

typedef struct
{
  GstElement *pipeline, *src;
  GstBuffer *inputs[INPUTS];
  GThread *feeder;
  gint stop;                    /* atomic */
  gint count;                   /* atomic: frames arrived */
  gint failed;                  /* atomic: an error on its bus */
  GstCudaContext *context;      /* what its elements chose */
} Stream;

typedef struct
{
  double fps, fps_min, fps_med, fps_max, cpu_us, cores, gpu_mib;
  gint contexts;                /* distinct contexts among the streams */
  gchar *error;
} Result;

static FILE *json;
static double h2d_bps, d2h_bps;
static double seconds = 1.0;
static double warmup = 0.0;
static gboolean app_context, no_kernels, thread_report;
static gint device_ids[MAX_DEVICES] = { 0 }, n_device_ids = 1;

/* GPU memory in use on the listed devices, MiB. */
static double
gpu_used_mib (void)
{
  double used = 0;
  gint i;

  for (i = 0; i < n_device_ids; i++) {
    size_t free_b = 0, total = 0;

    if (cudaSetDevice (device_ids[i]) == cudaSuccess &&
        cudaMemGetInfo (&free_b, &total) == cudaSuccess)
      used += (double) (total - free_b) / (1 << 20);
  }
  cudaSetDevice (device_ids[0]);
  return used;
}

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* ------------------------------------------------------------------------ */
/* CPU time by kind of thread (--threads) */

typedef struct
{
  gchar name[32];
  double seconds;
} ThreadKind;

/* Adds each thread's CPU seconds, under its name with digits folded
 * ("cudasobel12:push" -> "cudasobel#:push"), into @kinds. */
static void
thread_times (GArray * kinds)
{
  const double tick = 1.0 / sysconf (_SC_CLK_TCK);
  DIR *d = opendir ("/proc/self/task");
  struct dirent *e;

  g_array_set_size (kinds, 0);
  while (d && (e = readdir (d))) {
    gchar path[64], buf[512], name[32];
    unsigned long ut = 0, st = 0;
    const gchar *close_paren;
    FILE *f;
    guint i, j, n;

    if (e->d_name[0] == '.')
      continue;
    g_snprintf (path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
    if (!(f = fopen (path, "r")))
      continue;
    n = fread (buf, 1, sizeof buf - 1, f);
    fclose (f);
    buf[n] = 0;
    /* pid (comm) state ... utime stime are fields 14 and 15 */
    if (!(close_paren = strrchr (buf, ')')) || !strchr (buf, '('))
      continue;
    for (i = 0, j = strchr (buf, '(') - buf + 1; buf + j < close_paren &&
        i < sizeof name - 1; j++) {
      /* a run of digits folds into one '#' */
      if (!g_ascii_isdigit (buf[j]))
        name[i++] = buf[j];
      else if (i && name[i - 1] != '#')
        name[i++] = '#';
    }
    name[i] = 0;
    if (sscanf (close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
            "%*u %lu %lu", &ut, &st) != 2)
      continue;
    for (i = 0; i < kinds->len; i++)
      if (!strcmp (g_array_index (kinds, ThreadKind, i).name, name))
        break;
    if (i == kinds->len) {
      ThreadKind k = { {0}, 0 };
      g_strlcpy (k.name, name, sizeof k.name);
      g_array_append_val (kinds, k);
    }
    g_array_index (kinds, ThreadKind, i).seconds += (ut + st) * tick;
  }
  if (d)
    closedir (d);
}

static void
print_thread_report (GArray * before, GArray * after, double wall)
{
  guint i, j;

  printf ("\nthreads (cores busy over the run):");
  for (i = 0; i < after->len; i++) {
    ThreadKind *a = &g_array_index (after, ThreadKind, i);
    double b = 0;

    for (j = 0; j < before->len; j++)
      if (!strcmp (g_array_index (before, ThreadKind, j).name, a->name))
        b = g_array_index (before, ThreadKind, j).seconds;
    if ((a->seconds - b) / wall >= 0.01)
      printf (" %s %.2f;", a->name, (a->seconds - b) / wall);
  }
  printf ("\n\n");
}

/* ------------------------------------------------------------------------ */

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Stream * s)
{
  g_atomic_int_inc (&s->count);
}

static GstBusSyncReply
on_sync_message (GstBus * bus, GstMessage * m, gpointer user)
{
  Stream *s = user;

  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
    g_atomic_int_set (&s->failed, 1);
  return GST_BUS_PASS;
}

static gpointer
feed (gpointer data)
{
  Stream *s = data;
  guint64 i;

  for (i = 0; !g_atomic_int_get (&s->stop); i++) {
    GstBuffer *b = gst_buffer_copy (s->inputs[i % INPUTS]);

    GST_BUFFER_PTS (b) = i * GST_MSECOND;
    GST_BUFFER_DURATION (b) = GST_MSECOND;
    if (gst_app_src_push_buffer (GST_APP_SRC (s->src), b) != GST_FLOW_OK)
      break;
  }
  return NULL;
}

/* The context the first of our elements chose, asked as nvh264dec asks. */
static GstCudaContext *
pipeline_context (Stream * s)
{
  GstQuery *q = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstPad *pad = gst_element_get_static_pad (s->src, "src");
  GstCudaContext *ctx = NULL;

  if (gst_pad_peer_query (pad, q)) {
    GstContext *c = NULL;

    gst_query_parse_context (q, &c);
    if (c)
      gst_structure_get (gst_context_get_structure (c),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx, NULL);
  }
  gst_object_unref (pad);
  gst_query_unref (q);
  return ctx;
}

static gchar *
first_error (Stream * st, gint n)
{
  gint i;

  for (i = 0; i < n; i++) {
    GstBus *bus;
    GstMessage *m;

    if (!st[i].pipeline)
      continue;
    bus = gst_element_get_bus (st[i].pipeline);
    m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    gst_object_unref (bus);
    if (m) {
      GError *e = NULL;
      gchar *text;

      gst_message_parse_error (m, &e, NULL);
      text = g_strdup_printf ("stream %d, %s: %s", i,
          GST_OBJECT_NAME (m->src), e->message);
      g_error_free (e);
      gst_message_unref (m);
      return text;
    }
  }
  return NULL;
}

/* Waits until every stream passed @n frames; FALSE on an error or after
 * TIMEOUT_S. */
static gboolean
wait_all (Stream * st, gint n_streams, gint n)
{
  gint64 end = g_get_monotonic_time () + TIMEOUT_S * G_TIME_SPAN_SECOND;
  gint i;

  for (i = 0; i < n_streams; i++)
    while (g_atomic_int_get (&st[i].count) < n) {
      if (g_atomic_int_get (&st[i].failed) || g_get_monotonic_time () > end)
        return FALSE;
      g_usleep (1000);
    }
  return TRUE;
}

static Result
measure (const Chain * c, gint w, gint h, gboolean gpu, gint n,
    const uint8_t * rgba, GstContext * given)
{
  Result r = { 0 };
  Stream *st = g_new0 (Stream, n);
  GstVideoInfo info;
  GstCaps *caps;
  GArray *kinds0 = g_array_new (FALSE, TRUE, sizeof (ThreadKind));
  GArray *kinds1 = g_array_new (FALSE, TRUE, sizeof (ThreadKind));
  double gpu0, cpu0, cpu1, *per;
  gint64 t0, t1;
  gint i, j, *c0;

  if (no_kernels)
    g_setenv ("CUDAIMGPROC_NO_KERNELS", "1", TRUE);
  else
    g_unsetenv ("CUDAIMGPROC_NO_KERNELS");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, w, h);
  info.fps_n = 1000;
  info.fps_d = 1;
  caps = gst_video_info_to_caps (&info);
  if (gpu)
    gst_caps_set_features_simple (caps,
        gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY));
  gpu0 = gpu_used_mib ();

  for (i = 0; i < n && !r.error; i++) {
    Stream *s = &st[i];
    GError *err = NULL;
    GstElement *sink;
    GstBus *bus;
    gchar *chain = NULL, *desc;

    if (n_device_ids > 1) {
      /* every element of the chain on this stream's device */
      gchar **parts = g_strsplit (c->chain, " ! ", -1);
      gchar *suffix = g_strdup_printf (" cuda-device-id=%d",
          device_ids[i % n_device_ids]);

      for (j = 0; parts[j]; j++) {
        gchar *p = g_strconcat (parts[j], suffix, NULL);
        g_free (parts[j]);
        parts[j] = p;
      }
      chain = g_strjoinv (" ! ", parts);
      g_strfreev (parts);
      g_free (suffix);
    }
    desc = g_strdup_printf ("appsrc name=src format=time block=true "
        "max-buffers=4 ! %s ! video/x-raw%s,format=%s ! fakesink name=sink "
        "sync=false async=false signal-handoffs=true", chain ? chain :
        c->chain, gpu ? "(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY ")" : "",
        c->out_format);
    g_free (chain);
    s->pipeline = gst_parse_launch (desc, &err);
    g_free (desc);
    if (!s->pipeline) {
      r.error = g_strdup (err ? err->message : "no pipeline");
      g_clear_error (&err);
      break;
    }
    if (given)
      gst_element_set_context (s->pipeline, given);
    bus = gst_element_get_bus (s->pipeline);
    gst_bus_set_sync_handler (bus, on_sync_message, s, NULL);
    gst_object_unref (bus);
    s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
    g_object_set (s->src, "caps", caps, NULL);
    sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
    g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), s);
    gst_object_unref (sink);
    if (gst_element_set_state (s->pipeline, GST_STATE_PAUSED) ==
        GST_STATE_CHANGE_FAILURE) {
      r.error = first_error (st, i + 1);
      break;
    }
    s->context = pipeline_context (s);
    for (j = 0; j < INPUTS; j++)
      if (!(s->inputs[j] =
              bench_make_input (gpu ? s->context : NULL, &info, rgba))) {
        r.error = g_strdup_printf ("stream %d: no input frame%s", i, gpu
            && !s->context ? " (no CUDA context in the pipeline)" : "");
        break;
      }
  }
  gst_caps_unref (caps);
  for (i = 0; i < n && !r.error; i++) {
    if (gst_element_set_state (st[i].pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE)
      r.error = first_error (st, n);
    else
      st[i].feeder = g_thread_new ("feeder", feed, &st[i]);
  }
  if (!r.error && !wait_all (st, n, WARM_FRAMES))
    r.error = first_error (st, n);
  if (!r.error && warmup > 0)
    g_usleep ((gulong) (warmup * 1e6));
  if (!r.error) {
    GHashTable *ctxs = g_hash_table_new (NULL, NULL);

    for (i = 0; i < n; i++)
      g_hash_table_add (ctxs, st[i].context ?
          gst_cuda_context_get_handle (st[i].context) : NULL);
    r.contexts = g_hash_table_size (ctxs);
    g_hash_table_unref (ctxs);

    c0 = g_new (gint, n);
    per = g_new (double, n);
    if (thread_report)
      thread_times (kinds0);
    cpu0 = cpu_seconds ();
    t0 = g_get_monotonic_time ();
    for (i = 0; i < n; i++)
      c0[i] = g_atomic_int_get (&st[i].count);
    g_usleep ((gulong) (seconds * 1e6));
    r.gpu_mib = gpu_used_mib () - gpu0;
    for (i = 0; i < n; i++)
      per[i] = g_atomic_int_get (&st[i].count) - c0[i];
    t1 = g_get_monotonic_time ();
    cpu1 = cpu_seconds ();
    if (thread_report)
      thread_times (kinds1);
    for (i = 0; i < n; i++) {
      r.fps += per[i];
      per[i] *= 1e6 / (t1 - t0);
    }
    r.fps *= 1e6 / (t1 - t0);
    r.cpu_us = r.fps > 0 ? (cpu1 - cpu0) * 1e6 / (r.fps * (t1 - t0) * 1e-6) : 0;
    r.cores = (cpu1 - cpu0) / ((t1 - t0) * 1e-6);
    qsort (per, n, sizeof (double), bench_cmp_double);
    r.fps_min = per[0];
    r.fps_med = per[n / 2];
    r.fps_max = per[n - 1];
    if (thread_report)
      print_thread_report (kinds0, kinds1, (t1 - t0) * 1e-6);
    g_free (c0);
    g_free (per);
    for (i = 0; i < n && !r.error; i++)
      if (g_atomic_int_get (&st[i].failed))
        r.error = first_error (st, n);
  }

  /* stop feeding, then EOS through every pipeline; after an error, NULL
   * first: a feeder blocked in the full appsrc of a stalled pipeline
   * returns only when the flush releases it */
  for (i = 0; i < n; i++) {
    g_atomic_int_set (&st[i].stop, 1);
    if (r.error && st[i].pipeline)
      gst_element_set_state (st[i].pipeline, GST_STATE_NULL);
  }
  for (i = 0; i < n; i++)
    if (st[i].feeder)
      g_thread_join (st[i].feeder);
  for (i = 0; i < n && !r.error; i++)
    gst_app_src_end_of_stream (GST_APP_SRC (st[i].src));
  for (i = 0; i < n && !r.error; i++) {
    GstBus *bus = gst_element_get_bus (st[i].pipeline);
    GstMessage *m = gst_bus_timed_pop_filtered (bus, TIMEOUT_S * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

    if (!m || GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
      r.error = g_strdup_printf ("stream %d: %s", i, m ? "error at EOS" :
          "no EOS");
    if (m)
      gst_message_unref (m);
    gst_object_unref (bus);
  }
  for (i = 0; i < n; i++) {
    if (!st[i].pipeline)
      continue;
    gst_element_set_state (st[i].pipeline, GST_STATE_NULL);
    for (j = 0; j < INPUTS; j++)
      gst_clear_buffer (&st[i].inputs[j]);
    gst_clear_object (&st[i].context);
    gst_clear_object (&st[i].src);
    gst_object_unref (st[i].pipeline);
  }
  g_free (st);
  g_array_unref (kinds0);
  g_array_unref (kinds1);
  g_unsetenv ("CUDAIMGPROC_NO_KERNELS");
  return r;
}

static gint
parse_list (const gchar * text, gint * out, gint max)
{
  gchar **parts = g_strsplit (text, ",", -1);
  gint n = 0, i;

  for (i = 0; parts[i] && n < max; i++)
    if (atoi (parts[i]) > 0 || (parts[i][0] == '0' && out == device_ids))
      out[n++] = atoi (parts[i]);
  g_strfreev (parts);
  return n;
}

int
main (int argc, char **argv)
{
  static const gint sizes[][2] = { {1920, 1080}, {640, 480} };
  /* 100: the report's GPU memory row */
  gint streams[32] = { 1, 4, 16, 64, 100, 256 }, n_streams = 6;
  BenchOptions o = { NULL };
  gint i, k;
  guint c, s, m, n_chains = G_N_ELEMENTS (chains);
  const Chain *list = chains;
  gchar more[40] = "";
  Chain custom = { NULL, NULL, NULL };
  GstContext *given = NULL;

  gst_init (&argc, &argv);
  for (i = 1; i < argc; i++) {
    if (bench_option (argc, argv, &i, &o))
      continue;
    if (!strcmp (argv[i], "--streams") && i + 1 < argc) {
      n_streams = parse_list (argv[++i], streams, G_N_ELEMENTS (streams));
    } else if (!strcmp (argv[i], "--device-ids") && i + 1 < argc) {
      n_device_ids = parse_list (argv[++i], device_ids, MAX_DEVICES);
    } else if (!strcmp (argv[i], "--seconds") && i + 1 < argc) {
      seconds = g_ascii_strtod (argv[++i], NULL);
      seconds = CLAMP (seconds, 0.1, 60);
    } else if (!strcmp (argv[i], "--warmup") && i + 1 < argc) {
      warmup = g_ascii_strtod (argv[++i], NULL);
      warmup = CLAMP (warmup, 0, 60);
    } else if (!strcmp (argv[i], "--app-context")) {
      app_context = TRUE;
    } else if (!strcmp (argv[i], "--no-kernels")) {
      no_kernels = TRUE;
    } else if (!strcmp (argv[i], "--threads")) {
      thread_report = TRUE;
    } else {
      fprintf (stderr, "usage: %s [--streams 1,4,16,64,100,256] [--size WxH] "
          "[--memory system|gpu] [--only SUBSTRING] [--chain DESC FORMAT] "
          "[--seconds S] [--warmup S] [--app-context] [--no-kernels] "
          "[--threads] "
          "[--device-ids 0,1] [--photo FILE W H] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  json = o.json;
  if (o.chain) {
    custom.name = custom.chain = o.chain;
    custom.out_format = o.format;
    list = &custom;
    n_chains = 1;
  }
  if (!n_streams || !n_device_ids) {
    fprintf (stderr, "--streams and --device-ids take lists of numbers\n");
    return 2;
  }
  if (!gst_cuda_load_library () || cudaSetDevice (device_ids[0]) !=
      cudaSuccess || cudaFree (NULL) != cudaSuccess) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }
  if (!bench_measure_pcie (&h2d_bps, &d2h_bps))
    fprintf (stderr, "could not measure page-locked copies\n");
  if (app_context) {
    GstCudaContext *ctx = gst_cuda_context_new (device_ids[0]);

    if (!ctx) {
      fprintf (stderr, "could not make a CUDA context\n");
      return 1;
    }
    given = gst_context_new_cuda_context (ctx);
    gst_object_unref (ctx);
  }

  if (warmup > 0)
    g_snprintf (more, sizeof more, " and %.1f s more", warmup);
  printf ("<!-- bench:streams -->\n");
  printf ("%s; %d GPU(s) (cuda-device-id %d%s); N pipelines `appsrc ! CHAIN "
      "! capsfilter ! fakesink sync=false` in one process, each fed 4 RGBA "
      "frames round robin by a thread of its own; %s; timed %.1f s after "
      "%d frames a stream%s.  Page-locked copies in this run: host to device "
      "%.1f GB/s, device to host %.1f GB/s.%s\n\n", gst_version_string (),
      n_device_ids, device_ids[0], n_device_ids > 1 ? ", ..." : "",
      app_context ? "one application context set on every pipeline" :
      "no application context", seconds, WARM_FRAMES, more, h2d_bps * 1e-9,
      d2h_bps * 1e-9, no_kernels ? "  Kernels left out "
      "(CUDAIMGPROC_NO_KERNELS)." : "");
  printf ("| chain | size | frames in | streams | aggregate fps | per stream "
      "fps (min, median, max) | CPU µs/frame | cores busy | GPU MiB | "
      "contexts | PCIe floor fps | × floor |\n");
  printf ("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  fflush (stdout);
  /* --size: that one size, whatever it is; else the list */
  for (s = 0; s < (o.w ? 1 : G_N_ELEMENTS (sizes)); s++) {
    const gint w = o.w ? o.w : sizes[s][0];
    const gint h = o.w ? o.h : sizes[s][1];
    uint8_t *rgba;

    rgba = make_content (w, h, 4);
    for (c = 0; c < n_chains; c++) {
      const Chain *ch = &list[c];
      const double out_bpp = strcmp (ch->out_format, "GRAY8") ? 4.0 : 1.0;
      const double floor_fps = h2d_bps > 0 ? 1.0 / MAX ((double) w * h * 4 /
          h2d_bps, (double) w * h * out_bpp / d2h_bps) : 0;

      if (o.only && !strstr (ch->name, o.only))
        continue;
      for (m = 0; m < 2; m++) {
        const gboolean gpu = m == 1;

        if (o.memory && strcmp (o.memory, gpu ? "gpu" : "system"))
          continue;
        for (k = 0; k < n_streams; k++) {
          Result r = measure (ch, w, h, gpu, streams[k], rgba, given);

          if (r.error) {
            printf ("| %s | %dx%d | %s | %d | error: %s | | | | | | | |\n",
                ch->name, w, h, gpu ? "GPU" : "system", streams[k], r.error);
            g_free (r.error);
            fflush (stdout);
            continue;
          }
          printf ("| %s | %dx%d | %s | %d | %.0f | %.0f, %.0f, %.0f | %.1f | "
              "%.2f | %.0f | %d |", ch->name, w, h, gpu ? "GPU" : "system",
              streams[k], r.fps, r.fps_min, r.fps_med, r.fps_max, r.cpu_us,
              r.cores, r.gpu_mib, r.contexts);
          if (!gpu && floor_fps > 0)
            printf (" %.0f | %.2f |\n", floor_fps, r.fps / floor_fps);
          else
            printf (" - | - |\n");
          fflush (stdout);
          if (json)
            fprintf (json, "{\"kind\": \"streams\", \"name\": \"%s\", "
                "\"w\": %d, \"h\": %d, \"memory\": \"%s\", \"streams\": %d, "
                "\"devices\": %d, \"app_context\": %s, \"no_kernels\": %s, "
                "\"fps\": %.1f, \"fps_min\": %.1f, \"fps_median\": %.1f, "
                "\"fps_max\": %.1f, \"cpu_us\": %.2f, \"cores\": %.3f, "
                "\"gpu_mib\": %.0f, \"contexts\": %d, "
                "\"pcie_floor_fps\": %.1f}\n", ch->name, w, h,
                gpu ? "gpu" : "system", streams[k], n_device_ids,
                app_context ? "true" : "false", no_kernels ? "true" : "false",
                r.fps, r.fps_min, r.fps_med, r.fps_max, r.cpu_us, r.cores,
                r.gpu_mib, r.contexts, gpu ? 0.0 : floor_fps);
        }
      }
    }
    free (rgba);
  }
  printf ("<!-- /bench:streams -->\n");
  if (given)
    gst_context_unref (given);
  if (json)
    fclose (json);
  return 0;
}
